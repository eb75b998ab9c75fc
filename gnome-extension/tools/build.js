// Usage: gjs -m gnome-extension/tools/build.js SRC_DIR OUT_DIR
// Writes the two builds of restd@restd.io from the one source: OUT_DIR/esm/restd@restd.io
// (GNOME Shell 45+, the ES modules as they are) and OUT_DIR/legacy/restd@restd.io (43–44, the
// modules translated by legacy.js), each with its own entry point as extension.js and the shell
// versions it is for in metadata.json (flavours.js says which file goes where).
// The schemas are compiled by the caller (glib-compile-schemas is a program, not an API).

import Gio from 'gi://Gio';
import GLib from 'gi://GLib';

import {FLAVOURS, SHELL_VERSIONS, destination} from './flavours.js';
import {toLegacy} from './legacy.js';

const UUID = 'restd@restd.io';

const [srcDir, outDir] = ARGV;
if (!srcDir || !outDir) {
    printerr('usage: gjs -m tools/build.js SRC_DIR OUT_DIR');
    imports.system.exit(2);
}

/** The paths of the files under `dir`, relative to it, sorted. */
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
const sources = files(srcDir);
for (const flavour of FLAVOURS) {
    const target = `${outDir}/${flavour}/${UUID}`;
    for (const name of sources) {
        const to = destination(flavour, name);
        if (!to)
            continue;
        const [, bytes] = GLib.file_get_contents(`${srcDir}/${name}`);
        let text = decoder.decode(bytes);
        if (to.how === 'metadata')
            text = `${JSON.stringify({...JSON.parse(text), 'shell-version': SHELL_VERSIONS[flavour]}, null, 2)}\n`;
        else if (to.how === 'translate')
            text = toLegacy(text, name);
        write(`${target}/${to.as}`, text);
    }
    print(`built ${target}`);
}
