// The build's tools under gjs -m: the translation from ES modules to GNOME Shell 43–44's legacy
// form (tools/legacy.js), each rewrite and refusal, and the real sources translating; which
// source file goes where in each build (tools/flavours.js), with each Shell's entry point.
// Run: gjs -m gnome-extension/tests/build.test.js

import Gio from 'gi://Gio';
import GLib from 'gi://GLib';

import {destination} from '../tools/flavours.js';
import {toLegacy} from '../tools/legacy.js';
import {check, equal, finish} from './checks.js';

function throws(fn, pattern, what) {
    let message = null;
    try {
        fn();
    } catch (e) {
        message = e.message;
    }
    check(message !== null && pattern.test(message), `${what}: ${message === null ? 'did not throw' : `threw "${message}"`}`);
}
/** The translation without its first-line banner comment. */
const body = (source, path = 'x.js') => toLegacy(source, path).replace(/^\/\* Generated from [^*]+\*\/ /, '');

equal(body("import Gio from 'gi://Gio';\n"), 'const Gio = imports.gi.Gio;\n', 'a GI module');
equal(body("import Gtk from 'gi://Gtk?version=4.0';\n"), 'const Gtk = imports.gi.Gtk;\n', 'a GI module with a version');
equal(body("import * as Main from 'resource:///org/gnome/shell/ui/main.js';\n"), 'const Main = imports.ui.main;\n',
    'a Shell module');
equal(body("import {spawn, trySpawn as t} from 'resource:///org/gnome/shell/misc/util.js';\n"),
    'const {spawn, trySpawn: t} = imports.misc.util;\n', 'named imports, one renamed');
equal(body("import {clock} from './format.js';\n", 'lib/menuModel.js'),
    'const Me = imports.misc.extensionUtils.getCurrentExtension(); const {clock} = Me.imports.lib.format;\n',
    'a relative import, from a subfolder');
equal(body("import {RestClient} from './restClient.js';\nimport {clock} from './lib/format.js';\n"),
    'const Me = imports.misc.extensionUtils.getCurrentExtension(); const {RestClient} = Me.imports.restClient;\nconst {clock} = Me.imports.lib.format;\n',
    'relative imports from the top folder');
equal(body('export function f(a) {\n    return a;\n}\n'), 'function f(a) {\n    return a;\n}\n', 'an exported function');
equal(body('export class C extends B {\n}\n'), 'var C = class C extends B {\n};\n', 'an exported class becomes a var');
equal(body('export const X = 1, Y = 2;\nexport let z = 3;\n'), 'var X = 1, Y = 2;\nvar z = 3;\n',
    'exported const and let become var (the legacy loader exports only var and function)');
equal(body('const a = "export class";\n'), 'const a = "export class";\n', 'strings are left alone');
throws(() => toLegacy('export default class E {}\n', 'e.js'), /only "export function\/class\/const"/,
    'a default export (only an entry point has one, and it is not translated)');
throws(() => toLegacy("import x from 'https://example.org/x.js';\n", 'x.js'), /no legacy form for the module/, 'an unknown module');
throws(() => toLegacy("import Format from './lib/format.js';\n", 'x.js'), /default import .* has no legacy form/,
    'a default import of a relative module');
throws(() => toLegacy("import {default as F, clock} from './format.js';\n", 'lib/x.js'), /default import .* has no legacy form/,
    'a default import of a relative module, written as a named one');
throws(() => toLegacy('const x = ;\n', 'x.js'), /SyntaxError|expression/, 'a syntax error is reported');

// Which source file goes where.
const entries = {esm: 'extension.esm.js', legacy: 'extension.legacy.js'};
equal(destination('esm', 'extension.esm.js'), {as: 'extension.js', how: 'copy'}, '45+: its entry point is its extension.js');
equal(destination('legacy', 'extension.legacy.js'), {as: 'extension.js', how: 'copy'},
    '43–44: its entry point is its extension.js, not translated');
equal(destination('esm', 'extension.legacy.js'), null, '45+: without the 43–44 entry point');
equal(destination('legacy', 'extension.esm.js'), null, '43–44: without the 45+ entry point');
equal(destination('esm', 'lib/format.js'), {as: 'lib/format.js', how: 'copy'}, '45+: a module as it is');
equal(destination('legacy', 'lib/format.js'), {as: 'lib/format.js', how: 'translate'}, '43–44: a module translated');
equal(destination('legacy', 'metadata.json'), {as: 'metadata.json', how: 'metadata'}, 'metadata.json gets its versions');
equal(destination('esm', 'stylesheet-light.css'), {as: 'stylesheet-light.css', how: 'copy'}, '45+: the light stylesheet');
equal(destination('legacy', 'stylesheet-light.css'), null, '43–44: no light stylesheet');
equal(destination('legacy', 'stylesheet-dark.css'), {as: 'stylesheet.css', how: 'copy'}, '43–44: the dark one is stylesheet.css');
throws(() => destination('esm', 'extension.js'), /written by the build/, 'a source named extension.js');
throws(() => destination('esm', 'extension.gtk4.js'), /entry point of no build/, 'the entry point of an unknown build');
throws(() => destination('gtk4', 'lib/format.js'), /no build named/, 'an unknown build');

/** The paths of the files under the Gio.File `dir`, relative to it. */
function files(dir, prefix = '') {
    return [...dir.enumerate_children('standard::name,standard::type', Gio.FileQueryInfoFlags.NONE, null)]
        .flatMap(info => info.get_file_type() === Gio.FileType.DIRECTORY
            ? files(dir.get_child(info.get_name()), `${prefix}${info.get_name()}/`)
            : [`${prefix}${info.get_name()}`]);
}
const moduleSyntax = script => Reflect.parse(script).body.map(n => n.type).filter(t => /Import|Export/.test(t));

// The real sources, build by build: each has one extension.js, its own entry point; the 45+
// build's modules are valid ES modules as written; the 43–44 build's translate into scripts with
// no module syntax left and the same lines as their sources (so that errors point at src/).
const src = Gio.File.new_for_uri(import.meta.url).resolve_relative_path('../../src');
const text = name => new TextDecoder().decode(GLib.file_get_contents(src.resolve_relative_path(name).get_path())[1]);
const sources = files(src).filter(name => name.endsWith('.js'));
for (const [flavour, entry] of Object.entries(entries)) {
    const built = sources.map(name => [name, destination(flavour, name)]).filter(([, to]) => to);
    equal(built.filter(([, to]) => to.as === 'extension.js').map(([name]) => name), [entry], `${flavour}: one extension.js, ${entry}`);
    for (const [name, to] of built) {
        let error = null;
        try {
            if (flavour === 'esm') {
                Reflect.parse(text(name), {target: 'module', source: name});
            } else {
                const script = to.how === 'translate' ? toLegacy(text(name), name) : text(name);
                equal(moduleSyntax(script), [], `${flavour}: ${name}, no import or export left`);
                equal(script.split('\n').length, text(name).split('\n').length, `${flavour}: ${name}, same lines as the source`);
            }
        } catch (e) {
            error = e;
        }
        check(error === null, `${flavour}: ${name}: ${error?.message}`);
    }
}
// The D-Bus client imports nothing of the Shell: it loads here as it is.
const {RestClient} = await import('../src/restClient.js');
equal(typeof RestClient, 'function', 'restClient.js loads under gjs -m without the Shell');

finish('extension build');
