#!/usr/bin/env bash
# Usage: scripts/test-plasma.sh BIN_DIR GNOME_BUILD_DIR [SCREENSHOT.png] [DEB]   (as root)
# What `make test-plasma` does (and `make test`): the widget's pure module under gjs -m, then
# plasma/tests/in_plasma.py drives a real headless Plasma against the real restd on a private bus,
# once per Plasma, in a throw-away overlay of a cached Debian root with its Plasma layer
# (scripts/test-roots.sh, scripts/in-root.sh):
#   trixie  Debian 13, Plasma 6.3
#   forky   Debian testing, Plasma 6.7 when measured
# restd is installed the way the package installs it: with DEB (the 4th argument, or DEB=path),
# `apt-get install` of that .deb inside the overlay; without, scripts/install-files.sh into the
# overlay, as `make install PREFIX=/usr` does (GNOME_BUILD_DIR: the GNOME extension's builds, which
# it installs too). With SCREENSHOT, the picture of the panel and its open popup is taken in
# Plasma 6.3 (trixie) and written there. In Plasma 6.3 a second, short session runs in German
# (in_plasma.py --language de), the locale de_DE.UTF-8 generated in the overlay from this machine's
# definitions (Debian's `locales`, TEST_DEB_PACKAGES), as a German desktop has it. PLASMA_TEST_ROOTS (default "trixie forky") chooses the
# Plasmas; PLASMA_MEASURE=SECONDS also counts the widget's D-Bus calls and plasmashell's frames.
set -euo pipefail
# shellcheck source=scripts/desktop-test-lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/desktop-test-lib.sh"
desktop_test_start test-plasma "$@"
read -r -a plasmas <<<"${PLASMA_TEST_ROOTS:-trixie forky}"
# The screenshot's Plasma (docs/kde-panel.png): the newest stable Debian's, 6.3.
screenshot_plasma=trixie
# The Plasma whose widget is also checked in German.
german_plasma=trixie
screenshot_in "$screenshot_plasma" PLASMA_TEST_ROOTS "${plasmas[@]}"

gjs -m plasma/tests/pure.test.js
if [ "$(id -u)" -ne 0 ]; then
  echo "test-plasma: not root, so Plasma in the Debian roots is not run (CI runs as root)"
  exit 0
fi

make_work
scripts/test-roots.sh "${plasmas[@]/%/-plasma}"

for plasma in "${plasmas[@]}"; do
  run_start "$plasma" "$screenshot_plasma"
  german=
  [ "$plasma" != "$german_plasma" ] || german=de
  overlay_binds ${german:+german}
  status=0
  # shellcheck disable=SC2016 # expanded by the root's shell
  run_in_overlay "$plasma-plasma" '
    deb=$1 measure=$2 shot=$3 german=$4
    install_restd "$deb"
    # The dpkg trigger (or make install) put the widget into Plasma'"'"'s folder for this Plasma.
    [ -f /usr/share/plasma/plasmoids/io.restd.rest/.restd-widget ] || { echo "test-plasma: the widget is not in /usr/share/plasma/plasmoids" >&2; exit 1; }
    /usr/bin/python3 plasma/tests/in_plasma.py --work /restd-test ${measure:+--measure "$measure"} ${shot:+--screenshot "$shot"}
    [ -n "$german" ] || exit 0
    german_locale
    exec /usr/bin/python3 plasma/tests/in_plasma.py --work /restd-test/de --language de
  ' "${deb:+$(basename "$deb")}" "${PLASMA_MEASURE:-}" "${shot:+/restd-test/screenshot.png}" "$german" || status=$?
  run_done "$plasma" "$status"
done
desktop_test_end
