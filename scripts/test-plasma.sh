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
bin_dir=$(realpath -- "$1") build_dir=$(realpath -- "$2") screenshot=${3:-} deb=${4:-${DEB:-}}
[ -z "$screenshot" ] || screenshot=$(realpath -m -- "$screenshot")
[ -z "$deb" ] || deb=$(realpath -- "$deb")
cd "$(dirname "${BASH_SOURCE[0]}")/.."
read -r -a plasmas <<<"${PLASMA_TEST_ROOTS:-trixie forky}"
# The screenshot's Plasma (docs/kde-panel.png): the newest stable Debian's, 6.3.
screenshot_plasma=trixie
# The Plasma whose widget is also checked in German.
german_plasma=trixie
if [ -n "$screenshot" ] && [[ " ${plasmas[*]} " != *" $screenshot_plasma "* ]]; then
  echo "error: the screenshot is taken in $screenshot_plasma, which PLASMA_TEST_ROOTS leaves out" >&2
  exit 2
fi
start=$(date +%s%N)
ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }

gjs -m plasma/tests/pure.test.js
if [ "$(id -u)" -ne 0 ]; then
  echo "test-plasma: not root, so Plasma in the Debian roots is not run (CI runs as root)"
  exit 0
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/restd-plasma.XXXXXX")
# KEEP_TEST_DIRS=1 keeps the logs of plasmashell, kwin, restd and the bus.
if [ -n "${KEEP_TEST_DIRS:-}" ]; then trap 'echo "test-plasma: kept $work"' EXIT; else trap 'rm -rf "$work"' EXIT; fi
install_dirs=(BINDIR=/usr/bin LIBEXECDIR=/usr/libexec USERUNITDIR=/usr/lib/systemd/user DBUSSERVICEDIR=/usr/share/dbus-1/services
  DBUSINTERFACEDIR=/usr/share/dbus-1/interfaces BASHCOMPDIR=/usr/share/bash-completion/completions
  ZSHCOMPDIR=/usr/share/zsh/site-functions FISHCOMPDIR=/usr/share/fish/vendor_completions.d
  MANDIR=/usr/share/man APPLICATIONSDIR=/usr/share/applications GNOMEEXTDIR=/usr/share/gnome-shell/extensions
  GNOMEBUILDSDIR=/usr/share/restd/gnome-shell PLASMOIDDIR=/usr/share/plasma/plasmoids PLASMABUILDSDIR=/usr/share/restd/plasma)
swift_runtime=$(ldd "$bin_dir/restd" | awk '$1 == "libswiftCore.so" { print $3 }')
[ -z "$swift_runtime" ] || swift_runtime=$(dirname "$swift_runtime")
scripts/test-roots.sh "${plasmas[@]/%/-plasma}"

timings=()
failed=()
for plasma in "${plasmas[@]}"; do
  plasma_start=$(date +%s%N)
  dir=$work/$plasma
  mkdir -p "$dir"
  shot=
  [ -z "$screenshot" ] || [ "$plasma" != "$screenshot_plasma" ] || shot=/restd-test/screenshot.png
  echo "test-plasma: $plasma"
  # A debug restd links the toolchain's Swift runtime: bound at the same path; the release one in
  # the .deb carries it.
  binds=(--bind "$dir:/restd-test" --bind "$bin_dir:/restd-test-bin" --bind "$build_dir:/restd-test-gnome")
  [ -z "$swift_runtime" ] || binds+=(--bind "$swift_runtime:$swift_runtime")
  [ -z "$deb" ] || binds+=(--bind "$(dirname "$deb"):/restd-test-deb")
  german=
  if [ "$plasma" = "$german_plasma" ]; then german=de; binds+=(--bind /usr/share/i18n:/usr/share/i18n); fi
  status=0
  # shellcheck disable=SC2016 # expanded by the root's shell
  scripts/in-root.sh "$plasma-plasma" "${binds[@]}" -- bash -euc '
    deb=$1 measure=$2 shot=$3 german=$4; shift 4
    cd /src
    if [ -n "$deb" ]; then
      # Without the archive (nothing downloaded: the root has every dependency) and without removals.
      mkdir -p /tmp/no-apt-lists/partial
      DEBIAN_FRONTEND=noninteractive apt-get install -y --no-remove -o Dir::State::Lists=/tmp/no-apt-lists \
        -o Dir::Etc::SourceParts=/tmp/no-apt-lists -o Dir::Etc::SourceList=/tmp/no-apt-lists/none.list \
        "/restd-test-deb/$deb" >/restd-test/install.log 2>&1 || { cat /restd-test/install.log; exit 1; }
    else
      env DESTDIR= "$@" scripts/install-files.sh install /restd-test-bin /restd-test-gnome >/restd-test/install.log
    fi
    # The dpkg trigger (or make install) put the widget into Plasma'"'"'s folder for this Plasma.
    [ -f /usr/share/plasma/plasmoids/io.restd.rest/.restd-widget ] || { echo "test-plasma: the widget is not in /usr/share/plasma/plasmoids" >&2; exit 1; }
    /usr/bin/python3 plasma/tests/in_plasma.py --work /restd-test ${measure:+--measure "$measure"} ${shot:+--screenshot "$shot"}
    [ -n "$german" ] || exit 0
    localedef --inputfile=de_DE --charmap=UTF-8 de_DE.UTF-8
    exec /usr/bin/python3 plasma/tests/in_plasma.py --work /restd-test/de --language de
  ' in-root "${deb:+$(basename "$deb")}" "${PLASMA_MEASURE:-}" "$shot" "$german" "${install_dirs[@]}" 2>"$dir/in-root.log" || status=$?
  [ "$status" -eq 0 ] || cat "$dir/in-root.log" >&2
  if [ -n "$shot" ] && [ "$status" -eq 0 ]; then cp "$dir/screenshot.png" "$screenshot"; fi
  timings+=("$plasma $(ms_since "$plasma_start") ms")
  [ "$status" -eq 0 ] || failed+=("$plasma")
done
summary=$(printf '%s, ' "${timings[@]}")
echo "test-plasma: ${summary%, }; done in $(ms_since "$start") ms"
if [ ${#failed[@]} -gt 0 ]; then
  echo "test-plasma: failed in ${failed[*]}" >&2
  exit 1
fi
