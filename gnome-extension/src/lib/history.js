// What the menu's history item does, as plain data: which way it opens the history, what the
// menu calls it, where the report goes and the command lines that run. Pure: no Shell or GI
// imports; restPanel.js looks the handlers up and runs the commands.

/** The content type and URI schemes whose default handler counts as the desktop's browser. */
export const BROWSER_CONTENT_TYPE = 'text/html';
export const BROWSER_URI_SCHEMES = ['http', 'https'];

/**
 * How the history opens: 'report' (`restctl report`, shown by the browser) when a browser is
 * installed, else 'terminal' (`restctl history`); null without restctl (no menu item).
 */
export function historyView({restctlInstalled, browserInstalled}) {
    if (!restctlInstalled)
        return null;
    return browserInstalled ? 'report' : 'terminal';
}

/** The menu item's text for `view` ('report' or 'terminal'), in `texts`' language (format.js). */
export function historyLabel(view, texts) {
    return view === 'report'
        // TRANSLATORS: a menu item: the training report (restctl report) in the browser.
        ? texts.pgettext('menu item', 'Open report')
        // TRANSLATORS: a menu item: restctl history in a terminal.
        : texts.pgettext('menu item', 'Open history');
}

/**
 * Where the report is written: the user's cache (`$XDG_CACHE_HOME`, passed in), replaced whole
 * each time, so that nothing accumulates.
 */
export function reportPath(cacheDir) {
    return `${cacheDir}/restd/report.html`;
}

/**
 * Writes the report to `path`, its folder made first (restctl writes into an existing one).
 * restctl reports its own failure on stderr, one `restctl: …` line.
 */
export function reportArgv(path) {
    return ['sh', '-c', 'mkdir -p -- "$(dirname -- "$1")" && exec restctl report --output "$1"', 'sh', path];
}

/**
 * What runs in the terminal: `restctl history` alone prints and exits, and most terminals close
 * with it, so its output (and any error) goes through `less -R`, which stays until q; without
 * less, it waits for Enter. `terminal` is the history-terminal setting ([] for GIO's choice).
 */
export function terminalArgv(terminal) {
    return [...terminal, 'sh', '-c', 'if command -v less >/dev/null; then restctl history 2>&1 | less -R; ' +
        'else restctl history; printf "\\n(press Enter to close) "; read -r _; fi'];
}

/**
 * argv as a Desktop Entry Exec line (what Gio.AppInfo.create_from_commandline takes): each
 * argument single-quoted for GLib's shell parser (a quote inside as '\''), with `%` doubled, since
 * a lone `%` starts a field code.
 */
export function execLine(argv) {
    return argv.map(arg => `'${arg.replaceAll("'", "'\\''")}'`.replaceAll('%', '%%')).join(' ');
}
