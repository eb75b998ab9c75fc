// Usage: gjs -m gnome-extension/tools/build.js SRC_DIR OUT_DIR
// Writes the two builds of restd@restd.io from the one source: OUT_DIR/esm/restd@restd.io
// (GNOME Shell 45+, the sources as they are) and OUT_DIR/legacy/restd@restd.io (43–44,
// translated by legacy.js), each with the shell versions it is for in metadata.json.
// The schemas are compiled by the caller (glib-compile-schemas is a program, not an API).

import Gio from 'gi://Gio';
import GLib from 'gi://GLib';

import {toLegacy} from './legacy.js';

// Each build's shell-version, written into its metadata.json (the source's has none): only what
// was run live or audited, since GNOME refuses any other version.
/** Run live in GNOME Shell 43 (Debian 12); 44 has the same extension API (imports, init()). */
export const LEGACY_VERSIONS = ['43', '44'];
/**
 * Run live in GNOME Shell 48 (Debian 13), 50 (testing) and 51 (unstable) by `make test-gnome`;
 * 45, 46, 47 and 49 by an audit of their sources: the same API for everything the extension uses.
 */
export const ESM_VERSIONS = ['45', '46', '47', '48', '49', '50', '51'];
const UUID = 'restd@restd.io';

const [srcDir, outDir] = ARGV;
if (!srcDir || !outDir) {
    printerr('usage: gjs -m tools/build.js SRC_DIR OUT_DIR');
    imports.system.exit(2);
}

function files(dir, prefix = '') {
    const list = [];
    const enumerator = Gio.File.new_for_path(dir).enumerate_children('standard::name,standard::type',
        Gio.FileQueryInfoFlags.NONE, null);
    for (const info of enumerator) {
        const name = `${prefix}${info.get_name()}`;
        if (info.get_file_type() === Gio.FileType.DIRECTORY)
            list.push(...files(`${dir}/${info.get_name()}`, `${name}/`));
        else
            list.push(name);
    }
    return list.sort();
}

function write(path, text) {
    GLib.mkdir_with_parents(GLib.path_get_dirname(path), 0o755);
    GLib.file_set_contents(path, text);
}

const decoder = new TextDecoder();
for (const [flavour, versions] of [['esm', ESM_VERSIONS], ['legacy', LEGACY_VERSIONS]]) {
    const target = `${outDir}/${flavour}/${UUID}`;
    for (const name of files(srcDir)) {
        const [, bytes] = GLib.file_get_contents(`${srcDir}/${name}`);
        let text = decoder.decode(bytes);
        // 45+ choose stylesheet-dark.css or stylesheet-light.css by the user's style; 43-44 load
        // stylesheet.css alone, and their panel is always dark.
        let outName = name;
        if (flavour === 'legacy' && name === 'stylesheet-light.css')
            continue;
        if (flavour === 'legacy' && name === 'stylesheet-dark.css')
            outName = 'stylesheet.css';
        if (name === 'metadata.json')
            text = `${JSON.stringify({...JSON.parse(text), 'shell-version': versions}, null, 2)}\n`;
        else if (flavour === 'legacy' && name.endsWith('.js'))
            text = toLegacy(text, name);
        write(`${target}/${outName}`, text);
    }
    print(`built ${target}`);
}
