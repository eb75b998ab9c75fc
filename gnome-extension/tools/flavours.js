// The two builds of restd@restd.io and which source file becomes which file in each. Pure (names
// in, names out), so that tests/build.test.js checks it; build.js does the reading and writing.

/**
 * Each build's shell-version, written into its metadata.json (the source's has none): only what
 * was run live or audited, since GNOME refuses any other version.
 * - esm: run live in GNOME Shell 48 (Debian 13), 50 (testing) and 51 (unstable) by
 *   `make test-gnome`; 45, 46, 47 and 49 by an audit of their sources (the same API for
 *   everything the extension uses).
 * - legacy: run live in GNOME Shell 43 (Debian 12); 44 has the same extension API (imports, init()).
 */
export const SHELL_VERSIONS = {
    esm: ['45', '46', '47', '48', '49', '50', '51'],
    legacy: ['43', '44'],
};
export const FLAVOURS = Object.keys(SHELL_VERSIONS);

/**
 * What becomes of the source file `name` (its path inside src/) in `flavour`'s build: null when
 * the build leaves it out, else {as, how} with its name in the build and how it is written:
 * 'metadata' (the source's metadata.json with the build's shell-version), 'translate' (an ES
 * module into the legacy form, tools/legacy.js) or 'copy'.
 */
export function destination(flavour, name) {
    if (!FLAVOURS.includes(flavour))
        throw new Error(`no build named "${flavour}"`);
    if (name === 'metadata.json')
        return {as: name, how: 'metadata'};
    // Each Shell's entry point (extension.esm.js, extension.legacy.js): the build's own is its
    // extension.js, written as it is; the other build's is left out.
    const entry = name.match(/^extension\.(\w+)\.js$/);
    if (entry) {
        if (!FLAVOURS.includes(entry[1]))
            throw new Error(`${name} is the entry point of no build (${FLAVOURS.join(', ')})`);
        return entry[1] === flavour ? {as: 'extension.js', how: 'copy'} : null;
    }
    if (name === 'extension.js')
        throw new Error('extension.js is written by the build: the entry points are extension.<build>.js');
    if (flavour === 'legacy') {
        // 45+ choose stylesheet-dark.css or stylesheet-light.css by the user's style; 43–44 load
        // stylesheet.css alone, and their panel is always dark.
        if (name === 'stylesheet-light.css')
            return null;
        if (name === 'stylesheet-dark.css')
            return {as: 'stylesheet.css', how: 'copy'};
        if (name.endsWith('.js'))
            return {as: name, how: 'translate'};
    }
    return {as: name, how: 'copy'};
}
