// restd@restd.io: the rest in GNOME's top bar. This file only wires the parts together
// and takes them apart again: enable() creates everything, disable() destroys it all.
// Formatting, the choice of timer and the menu are in lib/ (pure, tested with gjs -m),
// the bus in restClient.js, the panel button in indicator.js.
//
// Not in the unlock-dialog session mode: restd owns the timer, so nothing is lost while
// the screen is locked, and the label is right again as soon as enable() runs on unlock.

import Gio from 'gi://Gio';
import GLib from 'gi://GLib';

// @esm-only {
import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';
// }
import * as Main from 'resource:///org/gnome/shell/ui/main.js';
import * as Util from 'resource:///org/gnome/shell/misc/util.js';

import {RestClient} from './restClient.js';
import {RestIndicator} from './indicator.js';

/** GNOME's configured terminal (deprecated in GNOME, but what GNOME 43 to 49 still carry). */
const DESKTOP_TERMINAL_SCHEMA = 'org.gnome.desktop.default-applications.terminal';

export class RestPanel {
    constructor(settings, uuid) {
        this._settings = settings;
        this._uuid = uuid;
    }

    enable() {
        this._client = new RestClient(() => this._indicator?.redraw());
        this._indicator = new RestIndicator(this._client, {
            showIdleIcon: () => this._settings.get_boolean('show-idle-icon'),
            historyAvailable: () => this._historyCommand() !== null,
            openHistory: () => this._openHistory(),
        });
        this._settingsChangedId = this._settings.connect('changed', () => this._indicator.redraw());
        Main.panel.addToStatusArea(this._uuid, this._indicator);
        this._client.start();
    }

    disable() {
        this._client.stop();
        this._indicator.destroy();
        this._indicator = null;
        this._client = null;
        this._settings.disconnect(this._settingsChangedId);
        this._settings = null;
    }

    /**
     * The command that opens `restctl history` in a terminal: the history-terminal setting
     * (e.g. ['kgx', '-e']), else GNOME's default terminal (exec and exec-arg) if it is
     * installed, else null: then the menu has no "Open history".
     */
    _historyCommand() {
        let terminal = this._settings.get_strv('history-terminal');
        if (terminal.length === 0) {
            const schema = Gio.SettingsSchemaSource.get_default()?.lookup(DESKTOP_TERMINAL_SCHEMA, true);
            if (!schema)
                return null;
            const desktop = new Gio.Settings({settings_schema: schema});
            const exec = desktop.get_string('exec');
            const arg = desktop.get_string('exec-arg');
            terminal = exec ? [exec, ...arg ? [arg] : []] : [];
        }
        if (terminal.length === 0 || GLib.find_program_in_path(terminal[0]) === null)
            return null;
        return [...terminal, 'restctl', 'history'];
    }

    _openHistory() {
        const argv = this._historyCommand();
        if (argv)
            Util.spawn(argv);
    }
}

// @esm-only {
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
// }
// @legacy class RestExtension {
// @legacy     constructor(metadata) {
// @legacy         this._uuid = metadata.uuid;
// @legacy     }
// @legacy
// @legacy     enable() {
// @legacy         this._panel = new RestPanel(imports.misc.extensionUtils.getSettings(), this._uuid);
// @legacy         this._panel.enable();
// @legacy     }
// @legacy
// @legacy     disable() {
// @legacy         this._panel.disable();
// @legacy         this._panel = null;
// @legacy     }
// @legacy }
// @legacy
// @legacy /** GNOME Shell 43–44's entry point; nothing is created before enable(). */
// @legacy function init(metadata) {
// @legacy     return new RestExtension(metadata);
// @legacy }
