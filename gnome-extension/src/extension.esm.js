// The entry point in GNOME Shell 45 and later, which import extension.js as an ES module and
// construct its default export. The build writes this file as the ES module build's
// extension.js; extension.legacy.js is the same for 43–44. Everything else is restPanel.js's.

import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';

import {RestPanel} from './restPanel.js';

export default class RestExtension extends Extension {
    enable() {
        this._panel = new RestPanel(this.getSettings(), this.uuid);
        this._panel.enable();
    }

    disable() {
        this._panel.disable();
        this._panel = null;
    }
}
