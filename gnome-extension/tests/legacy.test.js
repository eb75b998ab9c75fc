// The translation from ES modules to GNOME Shell 43–44's legacy form (tools/legacy.js), under
// gjs -m: each rewrite, the version markers, the refusals, and the real sources translating.
// Run: gjs -m gnome-extension/tests/legacy.test.js

import Gio from 'gi://Gio';
import GLib from 'gi://GLib';

import {toLegacy} from '../tools/legacy.js';

let failures = 0;
let checks = 0;
function equal(actual, expected, what) {
    checks++;
    if (JSON.stringify(actual) !== JSON.stringify(expected)) {
        failures++;
        printerr(`✘ ${what}:\n  got      ${JSON.stringify(actual)}\n  expected ${JSON.stringify(expected)}`);
    }
}
function throws(fn, pattern, what) {
    checks++;
    try {
        fn();
    } catch (e) {
        if (pattern.test(e.message))
            return;
        failures++;
        printerr(`✘ ${what}: threw "${e.message}"`);
        return;
    }
    failures++;
    printerr(`✘ ${what}: did not throw`);
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
equal(body('a();\n// @esm-only {\nexport default class E {}\n// }\n// @legacy function init() {}\nb();\n'),
    'a();\n\n\n\nfunction init() {}\nb();\n', 'markers: ES-module-only lines dropped (line numbers kept), legacy lines uncommented');
throws(() => toLegacy('export default class E {}\n', 'e.js'), /only "export function\/class\/const"/, 'a default export outside the markers');
throws(() => toLegacy("import x from 'https://example.org/x.js';\n", 'x.js'), /no legacy form for the module/, 'an unknown module');
throws(() => toLegacy("import Format from './lib/format.js';\n", 'x.js'), /default import .* has no legacy form/,
    'a default import of a relative module');
throws(() => toLegacy("import {default as F, clock} from './format.js';\n", 'lib/x.js'), /default import .* has no legacy form/,
    'a default import of a relative module, written as a named one');
throws(() => toLegacy('// @esm-only {\nfoo();\n', 'x.js'), /not closed/, 'an unclosed marker');
throws(() => toLegacy('const x = ;\n', 'x.js'), /SyntaxError|expression/, 'a syntax error is reported');

// Every real source is a valid ES module as written (the 45+ build is these files), and
// translates into a script with no module syntax left.
for (const name of ['extension.js', 'indicator.js', 'restClient.js']) {
    const [, bytes] = GLib.file_get_contents(Gio.File.new_for_uri(import.meta.url)
        .resolve_relative_path(`../../src/${name}`).get_path());
    checks++;
    try {
        Reflect.parse(new TextDecoder().decode(bytes), {target: 'module'});
    } catch (e) {
        failures++;
        printerr(`✘ ${name} is not a valid ES module: ${e.message}`);
    }
}
// The D-Bus client imports nothing of the Shell: it loads here as it is.
const {RestClient} = await import('../src/restClient.js');
equal(typeof RestClient, 'function', 'restClient.js loads under gjs -m without the Shell');

// Every real source translates into a script with no module syntax left.
const src = Gio.File.new_for_uri(import.meta.url).resolve_relative_path('../../src');
for (const name of ['extension.js', 'indicator.js', 'restClient.js', 'lib/format.js', 'lib/timers.js', 'lib/menuModel.js']) {
    const [, bytes] = GLib.file_get_contents(src.resolve_relative_path(name).get_path());
    const legacy = toLegacy(new TextDecoder().decode(bytes), name);
    const statements = Reflect.parse(legacy).body.map(n => n.type);
    equal(statements.filter(t => /Import|Export/.test(t)), [], `${name}: no import or export left`);
    equal(legacy.split('\n').length, new TextDecoder().decode(bytes).split('\n').length, `${name}: same lines as the source`);
}

if (failures > 0) {
    printerr(`${failures} of ${checks} checks failed`);
    imports.system.exit(1);
}
print(`legacy translation: ${checks} checks passed`);
