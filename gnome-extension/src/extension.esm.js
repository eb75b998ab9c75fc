// The entry point in GNOME Shell 45 and later, which import extension.js as an ES module and
// construct its default export. The build writes this file as the ES module build's
// extension.js; extension.legacy.js is the same for 43–44. Everything else is restPanel.js's.
// The words come from the Extension's own gettext, ngettext and pgettext: its domain is
// metadata.json's gettext-domain, bound by the Extension's constructor to the extension's
// locale/ folder (not the module-level gettext, whose ngettext drops plural forms on some versions).

import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';

import {RestPanel} from './restPanel.js';

export default class RestExtension extends Extension {
    enable() {
        this._panel = new RestPanel(this.getSettings(), this.uuid, {
            gettext: text => this.gettext(text),
            ngettext: (text, plural, n) => this.ngettext(text, plural, n),
            pgettext: (context, text) => this.pgettext(context, text),
        });
        this._panel.enable();
    }

    disable() {
        this._panel.disable();
        this._panel = null;
    }
}
