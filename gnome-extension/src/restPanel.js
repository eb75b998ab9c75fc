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
import {fill} from './lib/format.js';
import {BROWSER_CONTENT_TYPE, BROWSER_URI_SCHEMES, execLine, historyView, reportArgv, reportPath, terminalArgv} from './lib/history.js';

export class RestPanel {
    /**
     * `texts`: the extension's gettext, ngettext and pgettext (its domain, restd, as the entry
     * point of the Shell's version gives them), in which every word of the panel and the menu is
     * looked up (lib/format.js).
     */
    constructor(settings, uuid, texts) {
        this._settings = settings;
        this._uuid = uuid;
        this._texts = texts;
    }

    enable() {
        this._historyView = this._chooseHistoryView();
        this._cancellable = new Gio.Cancellable();
        this._client = new RestClient(() => this._indicator?.redraw(), this._texts);
        this._indicator = new RestIndicator(this._client, {
            texts: this._texts,
            showIdleIcon: () => this._settings.get_boolean('show-idle-icon'),
            historyView: () => this._historyView,
            menuOpening: () => {
                this._historyView = this._chooseHistoryView();
            },
            openHistory: done => this._openHistory(done),
        });
        this._settingsChangedId = this._settings.connect('changed', () => this._indicator.redraw());
        Main.panel.addToStatusArea(this._uuid, this._indicator);
        this._client.start();
    }

    disable() {
        // A report still being written finishes, but opens nothing.
        this._cancellable.cancel();
        this._cancellable = null;
        this._client.stop();
        this._indicator.destroy();
        this._indicator = null;
        this._client = null;
        this._settings.disconnect(this._settingsChangedId);
        this._settings = null;
    }

    /**
     * How the history opens (lib/history.js): looks at PATH and GIO's handlers, so only when the
     * menu opens, never per redraw.
     */
    _chooseHistoryView() {
        return historyView({
            restctlInstalled: GLib.find_program_in_path('restctl') !== null,
            browserInstalled: this._browser() !== null,
        });
    }

    /**
     * The desktop's browser, or null: the default handler of HTML files when it is a browser (the
     * user's choice for pages), else that of http or https addresses. Without a browser, GIO
     * offers text/plain's handler (an editor) for HTML files: a browser also opens web addresses.
     */
    _browser() {
        const html = Gio.AppInfo.get_default_for_type(BROWSER_CONTENT_TYPE, false);
        const web = BROWSER_URI_SCHEMES.flatMap(scheme => Gio.AppInfo.get_all_for_type(`x-scheme-handler/${scheme}`));
        if (html && web.some(app => app.equal(html)))
            return html;
        return BROWSER_URI_SCHEMES.map(scheme => Gio.AppInfo.get_default_for_uri_scheme(scheme))
            .find(app => app !== null) ?? null;
    }

    /**
     * Opens the history the way the menu said: the report in the browser, else the terminal.
     * `done` gets null, or the sentence that says why nothing opened.
     */
    _openHistory(done) {
        if (this._historyView === 'report')
            this._openReport(done);
        else
            done(this._openTerminal());
    }

    /**
     * Writes the report into the cache, without waiting for it (a Gio.Subprocess), then hands its
     * URI to the browser. When either fails, the terminal opens instead, and the log says why.
     */
    _openReport(done) {
        const cancellable = this._cancellable;
        const path = reportPath(GLib.get_user_cache_dir());
        const fallBack = reason => {
            console.warn(`restd@restd.io: the history opens in a terminal: ${reason}`);
            done(this._openTerminal());
        };
        let writer;
        try {
            writer = Gio.Subprocess.new(reportArgv(path),
                Gio.SubprocessFlags.STDOUT_SILENCE | Gio.SubprocessFlags.STDERR_PIPE);
        } catch (e) {
            fallBack(`could not run restctl report: ${e.message}`);
            return;
        }
        writer.communicate_utf8_async(null, cancellable, (process, result) => {
            let stderr;
            try {
                [, , stderr] = process.communicate_utf8_finish(result);
            } catch (e) {
                stderr = null;
                if (!cancellable.is_cancelled())
                    fallBack(`could not write the report: ${e.message}`);
            }
            // Disabled meanwhile: nothing opens.
            if (stderr === null || cancellable.is_cancelled())
                return;
            if (!process.get_successful()) {
                fallBack(`could not write the report to ${path}: ${stderr.trim() ||
                    `restctl report exited with status ${process.get_exit_status()}`}`);
                return;
            }
            this._showReport(path, cancellable, done, fallBack);
        });
    }

    /** Hands the written report to the browser, looked up again: it may have gone meanwhile. */
    _showReport(path, cancellable, done, fallBack) {
        const browser = this._browser();
        if (browser === null) {
            fallBack('no browser is installed any more');
            return;
        }
        const uri = Gio.File.new_for_path(path).get_uri();
        browser.launch_uris_async([uri], global.create_app_launch_context(0, -1), cancellable, (app, result) => {
            try {
                app.launch_uris_finish(result);
            } catch (e) {
                if (!cancellable.is_cancelled())
                    fallBack(`could not open ${uri} in ${app.get_name()}: ${e.message}`);
                return;
            }
            if (!cancellable.is_cancelled())
                done(null);
        });
    }

    /**
     * Runs `restctl history` in a terminal: the history-terminal setting's command when set (e.g.
     * ['kgx', '-e']), else the terminal GIO picks for an application with Terminal=true, as GNOME
     * does for those (xdg-terminal-exec first from GLib 2.80 on, then GNOME Console, GNOME
     * Terminal, …, xterm); GNOME 49 ignores org.gnome.desktop.default-applications.terminal.
     * Returns null, or the sentence that says why no terminal opened.
     */
    _openTerminal() {
        const terminal = this._settings.get_strv('history-terminal');
        const flags = terminal.length > 0 ? Gio.AppInfoCreateFlags.NONE : Gio.AppInfoCreateFlags.NEEDS_TERMINAL;
        try {
            const app = Gio.AppInfo.create_from_commandline(execLine(terminalArgv(terminal)), 'restctl history', flags);
            app.launch([], global.create_app_launch_context(0, -1));
            return null;
        } catch (e) {
            // TRANSLATORS: in the menu; the reason is the system's own sentence.
            return fill(this._texts.gettext('Could not open the history in a terminal: %1$s'), e.message);
        }
    }
}
