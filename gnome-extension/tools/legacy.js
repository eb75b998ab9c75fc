// The one translation step from the ES module sources (GNOME Shell 45+) to the legacy form
// GNOME Shell 43–44 loads with imports.*: no second hand-kept copy. Pure: text in, text out.
// It rewrites module syntax only; what differs by version beyond it is in each version's entry
// point (src/extension.esm.js, src/extension.legacy.js), which the build picks (flavours.js).
//
// What it rewrites, found with SpiderMonkey's own parser (Reflect.parse), not with patterns:
//   import X from 'gi://Gio'                         → const X = imports.gi.Gio;
//   import * as M from 'resource:///org/gnome/shell/ui/main.js' → const M = imports.ui.main;
//   import {a, b as c} from './lib/format.js'       → const {a, b: c} = Me.imports.lib.format;
//   export function f / export class C / export const X → function f / var C = class C / var X
//     (the legacy loader exports top-level var and function declarations only)

const SHELL_RESOURCE = 'resource:///org/gnome/shell/';

/** The legacy expression for a module specifier, seen from `fromDir` (inside the extension). */
function moduleExpression(specifier, fromDir) {
    if (specifier.startsWith('gi://')) {
        const [name] = specifier.slice('gi://'.length).split('?');
        return `imports.gi.${name}`;
    }
    if (specifier.startsWith(SHELL_RESOURCE)) {
        const path = specifier.slice(SHELL_RESOURCE.length).replace(/\.js$/, '');
        return `imports.${path.split('/').join('.')}`;
    }
    if (specifier.startsWith('./') || specifier.startsWith('../')) {
        const parts = fromDir ? fromDir.split('/') : [];
        for (const part of specifier.replace(/\.js$/, '').split('/')) {
            if (part === '..')
                parts.pop();
            else if (part !== '.')
                parts.push(part);
        }
        return `Me.imports.${parts.join('.')}`;
    }
    throw new Error(`no legacy form for the module "${specifier}"`);
}

/**
 * The legacy form of one module. `path` is the file's path inside the extension (e.g.
 * lib/format.js), for its relative imports. Throws when something has no legacy form.
 */
export function toLegacy(text, path) {
    const fromDir = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
    const lines = text.split('\n');
    const offsetOf = ({line, column}) =>
        lines.slice(0, line - 1).reduce((sum, l) => sum + l.length + 1, 0) + column;
    const edits = [];
    let usesMe = false;
    for (const node of Reflect.parse(text, {target: 'module', source: path}).body) {
        const start = offsetOf(node.loc.start);
        const end = offsetOf(node.loc.end);
        if (node.type === 'ImportDeclaration') {
            const specifier = node.moduleRequest?.source.value ?? node.source.value;
            const module = moduleExpression(specifier, fromDir);
            usesMe ||= module.startsWith('Me.');
            let binding;
            const [first] = node.specifiers;
            // The legacy loader has no default export of an extension's own file (a relative
            // module): `{default: X}` would silently be undefined there.
            if (specifier.startsWith('.') && node.specifiers.some(s => s.type === 'ImportSpecifier' && s.id.name === 'default'))
                throw new Error(`${path}:${node.loc.start.line}: a default import of "${specifier}" has no legacy form (use a named export)`);
            if (first.type === 'ImportNamespaceSpecifier' ||
                (first.type === 'ImportSpecifier' && first.id.name === 'default' && !specifier.startsWith('.')))
                binding = first.name.name;
            else
                binding = `{${node.specifiers.map(s => s.id.name === s.name.name ? s.id.name : `${s.id.name}: ${s.name.name}`).join(', ')}}`;
            edits.push([start, end, `const ${binding} = ${module};`]);
        } else if (node.type === 'ExportDeclaration') {
            const declaration = node.declaration;
            if (!declaration || node.isDefault)
                throw new Error(`${path}:${node.loc.start.line}: only "export function/class/const" have a legacy form`);
            // The node's text without its leading `export` (a declaration's own start is not always
            // its first keyword: a function's is its name).
            const body = text.slice(start, end).replace(/^export\s+/, '');
            if (declaration.type === 'FunctionDeclaration')
                edits.push([start, end, body]);
            else if (declaration.type === 'ClassStatement')
                edits.push([start, end, `var ${declaration.id.name} = ${body};`]);
            else if (declaration.type === 'VariableDeclaration')
                edits.push([start, end, body.replace(/^(const|let)\b/, 'var')]);
            else
                throw new Error(`${path}:${node.loc.start.line}: no legacy form for ${declaration.type}`);
        }
    }
    let result = text;
    for (const [start, end, replacement] of edits.reverse())
        result = result.slice(0, start) + replacement + result.slice(end);
    // Prepended to the first line, so that every line keeps its number (errors point at src/).
    const me = usesMe ? 'const Me = imports.misc.extensionUtils.getCurrentExtension(); ' : '';
    result = `/* Generated from ${path} by tools/legacy.js: do not edit. */ ${me}${result}`;
    // The legacy loader runs the file as a script: make sure it is one.
    Reflect.parse(result, {source: path});
    return result;
}
