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

/**
 * What "Open history" runs in the terminal: `restctl history` alone prints and exits, and most
 * terminals close with it, so its output (and any error) goes through `less -R`, which stays
 * until q; without less, it waits for Enter.
 */
const HISTORY_SCRIPT = 'if command -v less >/dev/null; then restctl history 2>&1 | less -R; ' +
    'else restctl history; printf "\\n(press Enter to close) "; read -r _; fi';

export class RestPanel {
    constructor(settings, uuid) {
        this._settings = settings;
        this._uuid = uuid;
    }

    enable() {
        // GNOME's terminal settings, once: every redraw reads only the command computed from them.
        const schema = Gio.SettingsSchemaSource.get_default()?.lookup(DESKTOP_TERMINAL_SCHEMA, true);
        this._desktopTerminal = schema ? new Gio.Settings({settings_schema: schema}) : null;
        this._historyArgv = this._historyCommand();
        this._historyAvailable = this._terminalInstalled();
        this._client = new RestClient(() => this._indicator?.redraw());
        this._indicator = new RestIndicator(this._client, {
            showIdleIcon: () => this._settings.get_boolean('show-idle-icon'),
            historyAvailable: () => this._historyAvailable,
            menuOpening: () => {
                this._historyAvailable = this._terminalInstalled();
            },
            openHistory: () => this._openHistory(),
        });
        this._settingsChangedId = this._settings.connect('changed', (settings, key) => {
            if (key === 'history-terminal')
                this._terminalChanged();
            this._indicator.redraw();
        });
        this._desktopTerminalChangedId = this._desktopTerminal?.connect('changed', () => {
            this._terminalChanged();
            this._indicator.redraw();
        }) ?? 0;
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
        if (this._desktopTerminalChangedId)
            this._desktopTerminal.disconnect(this._desktopTerminalChangedId);
        this._desktopTerminal = null;
        this._historyArgv = null;
    }

    _terminalChanged() {
        this._historyArgv = this._historyCommand();
        this._historyAvailable = this._terminalInstalled();
    }

    /**
     * The command that opens `restctl history` in a terminal: the history-terminal setting
     * (e.g. ['kgx', '-e']), else GNOME's default terminal (exec and exec-arg), else null.
     * Read from the settings, without looking at the file system.
     */
    _historyCommand() {
        let terminal = this._settings.get_strv('history-terminal');
        if (terminal.length === 0 && this._desktopTerminal) {
            const exec = this._desktopTerminal.get_string('exec');
            const arg = this._desktopTerminal.get_string('exec-arg');
            terminal = exec ? [exec, ...arg ? [arg] : []] : [];
        }
        if (terminal.length === 0)
            return null;
        return [...terminal, 'sh', '-c', HISTORY_SCRIPT];
    }

    /**
     * Whether the terminal is installed (a search of PATH): only when the menu opens or the
     * settings change, never per redraw. Without it, the menu has no "Open history".
     */
    _terminalInstalled() {
        return this._historyArgv !== null && GLib.find_program_in_path(this._historyArgv[0]) !== null;
    }

    _openHistory() {
        if (this._historyArgv)
            Util.spawn(this._historyArgv);
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
