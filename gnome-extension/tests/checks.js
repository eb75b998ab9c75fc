// The checks of the tests under `gjs -m`: the extension's build and pure modules, and the Plasma
// widget's pure module (plasma/tests/pure.test.js). Each failed check is printed as it fails;
// finish() prints the count and exits with 1 after any failure.

let failures = 0;
let checks = 0;

/** One check: a failure is printed as `✘ ${failure}`. */
export function check(ok, failure) {
    checks++;
    if (!ok) {
        failures++;
        printerr(`✘ ${failure}`);
    }
}

/** actual and expected the same, compared as JSON. */
export function equal(actual, expected, what) {
    const a = JSON.stringify(actual);
    const e = JSON.stringify(expected);
    check(a === e, `${what}: got ${a}, expected ${e}`);
}

/** The last line, `${name}: N checks passed`, or the failures' count and exit status 1. */
export function finish(name) {
    if (failures > 0) {
        printerr(`${name}: ${failures} of ${checks} checks failed`);
        imports.system.exit(1);
    }
    print(`${name}: ${checks} checks passed`);
}
