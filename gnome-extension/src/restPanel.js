// restd@restd.io: the rest in GNOME's top bar. This file only wires the parts together
// and takes them apart again: enable() creates everything, disable() destroys it all.
// Formatting, the choice of timer and the menu are in lib/ (pure, tested with gjs -m),
// the bus in restClient.js, the panel button in indicator.js. GNOME Shell starts it from
// the entry point of its version: extension.esm.js (45+) or extension.legacy.js (43–44).
//
// Not in the unlock-dialog session mode: restd owns the timer, so nothing is lost while
// the screen is locked, and the label is right again as soon as enable() runs on unlock.

import Gio from 'gi://Gio';
import GLib from 'gi://GLib';

import * as Main from 'resource:///org/gnome/shell/ui/main.js';

import {RestClient} from './restClient.js';
import {RestIndicator} from './indicator.js';

/**
 * What "Open history" runs in the terminal: `restctl history` alone prints and exits, and most
 * terminals close with it, so its output (and any error) goes through `less -R`, which stays
 * until q; without less, it waits for Enter.
 */
const HISTORY_SCRIPT = 'if command -v less >/dev/null; then restctl history 2>&1 | less -R; ' +
    'else restctl history; printf "\\n(press Enter to close) "; read -r _; fi';

/** argv as a Desktop Entry Exec line: quoted for GLib's shell parser, with `%` escaped. */
function execLine(argv) {
    return argv.map(arg => GLib.shell_quote(arg).replaceAll('%', '%%')).join(' ');
}

export class RestPanel {
    constructor(settings, uuid) {
        this._settings = settings;
        this._uuid = uuid;
    }

    enable() {
        this._historyAvailable = this._restctlInstalled();
        this._client = new RestClient(() => this._indicator?.redraw());
        this._indicator = new RestIndicator(this._client, {
            showIdleIcon: () => this._settings.get_boolean('show-idle-icon'),
            historyAvailable: () => this._historyAvailable,
            menuOpening: () => {
                this._historyAvailable = this._restctlInstalled();
            },
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
     * Whether restctl is on the Shell's PATH (a search of PATH): only when the menu opens, never
     * per redraw. Without it, the menu has no "Open history".
     */
    _restctlInstalled() {
        return GLib.find_program_in_path('restctl') !== null;
    }

    /**
     * Runs `restctl history` in a terminal: the history-terminal setting's command when set (e.g.
     * ['kgx', '-e']), else the terminal GIO picks for an application with Terminal=true, as GNOME
     * does for those (xdg-terminal-exec first from GLib 2.80 on, then GNOME Console, GNOME
     * Terminal, …, xterm); GNOME 49 ignores org.gnome.desktop.default-applications.terminal.
     * Returns null, or the sentence that says why no terminal opened.
     */
    _openHistory() {
        const terminal = this._settings.get_strv('history-terminal');
        const flags = terminal.length > 0 ? Gio.AppInfoCreateFlags.NONE : Gio.AppInfoCreateFlags.NEEDS_TERMINAL;
        try {
            const app = Gio.AppInfo.create_from_commandline(execLine([...terminal, 'sh', '-c', HISTORY_SCRIPT]),
                'restctl history', flags);
            app.launch([], global.create_app_launch_context(0, -1));
            return null;
        } catch (e) {
            return `Could not open the history in a terminal: ${e.message}`;
        }
    }
}
