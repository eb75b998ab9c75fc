// The entry point in GNOME Shell 43 and 44, which load extension.js as a script (imports.*, no
// ES modules) and call its init(). The build writes this file, as it is, as the legacy build's
// extension.js; extension.esm.js is the same for 45+. Everything else is restPanel.js's.
// The words come from ExtensionUtils' gettext, ngettext and pgettext, in the domain
// initTranslations() binds: metadata.json's gettext-domain, in the extension's locale/ folder.
/* exported init */

const ExtensionUtils = imports.misc.extensionUtils;
const {RestPanel} = ExtensionUtils.getCurrentExtension().imports.restPanel;

class RestExtension {
    constructor(metadata) {
        this._uuid = metadata.uuid;
    }

    enable() {
        this._panel = new RestPanel(ExtensionUtils.getSettings(), this._uuid, {
            gettext: ExtensionUtils.gettext,
            ngettext: ExtensionUtils.ngettext,
            pgettext: ExtensionUtils.pgettext,
        });
        this._panel.enable();
    }

    disable() {
        this._panel.disable();
        this._panel = null;
    }
}

/** Nothing is created before enable(); the catalog's domain is bound once. */
function init(metadata) {
    ExtensionUtils.initTranslations();
    return new RestExtension(metadata);
}
