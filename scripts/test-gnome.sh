#!/usr/bin/env bash
# Usage: scripts/test-gnome.sh BIN_DIR GNOME_BUILD_DIR [SCREENSHOT.png]
# What `make test-gnome` does (and `make test`): the legacy translation and the extension's pure
# modules under gjs -m, the latter from the sources and from the generated 45+ build; then restd, restctl and the extension installed
# into a temporary DESTDIR by scripts/install-files.sh (as `make install` does, GNOME Shell 43:
# the legacy build), and gnome-extension/tests/in_shell.py drives a real headless GNOME Shell
# 43 against the real restd on private buses. With SCREENSHOT, the panel picture is written there.
set -euo pipefail
bin_dir=$1 build_dir=$2 screenshot=${3:-}
cd "$(dirname "${BASH_SOURCE[0]}")/.."
start=$(date +%s%N)

gjs -m gnome-extension/tests/legacy.test.js
gjs -m gnome-extension/tests/pure.test.js
gjs -m gnome-extension/tests/pure.test.js "$build_dir/esm/restd@restd.io"

work=$(mktemp -d "${TMPDIR:-/tmp}/restd-gnome.XXXXXX")
# KEEP_TEST_DIRS=1 keeps the logs of the Shell, restd and the buses (as the Swift tests do).
if [ -n "${KEEP_TEST_DIRS:-}" ]; then trap 'echo "test-gnome: kept $work"' EXIT; else trap 'rm -rf "$work"' EXIT; fi
root=$work/root
DESTDIR=$root BINDIR=/usr/bin USERUNITDIR=/usr/lib/systemd/user DBUSSERVICEDIR=/usr/share/dbus-1/services \
  DBUSINTERFACEDIR=/usr/share/dbus-1/interfaces BASHCOMPDIR=/usr/share/bash-completion/completions \
  ZSHCOMPDIR=/usr/share/zsh/site-functions FISHCOMPDIR=/usr/share/fish/vendor_completions.d \
  MANDIR=/usr/share/man APPLICATIONSDIR=/usr/share/applications GNOMEEXTDIR=/usr/share/gnome-shell/extensions \
  GNOMEBUILDSDIR=/usr/share/restd/gnome-shell GNOME_SHELL_VERSION=43 \
  scripts/install-files.sh install "$bin_dir" "$build_dir" >"$work/install.log"

# python3-dbusmock and python3-dbus are Debian's: only /usr/bin/python3 sees them.
/usr/bin/python3 gnome-extension/tests/in_shell.py --root "$root" --work "$work" \
  ${screenshot:+--screenshot "$screenshot"}
echo "test-gnome: done in $(( ($(date +%s%N) - start) / 1000000 )) ms"
