#!/usr/bin/env bash
# Usage: scripts/test-gnome.sh BIN_DIR GNOME_BUILD_DIR [SCREENSHOT.png] [DEB]   (as root)
# What `make test-gnome` does (and `make test`): the build's tools (the legacy translation, which
# file goes into which build) and the extension's pure modules under gjs -m, the latter from the
# sources and from the generated 45+ build; then
# gnome-extension/tests/in_shell.py drives a real headless GNOME Shell against the real restd on
# private buses, once per Shell:
#   host    GNOME Shell 43 of this Debian 12 machine: restd, restctl and the extension installed
#           into a temporary DESTDIR by scripts/install-files.sh (the legacy build);
#   trixie  Debian 13, GNOME Shell 48 \
#   forky   Debian testing, 50         } in a throw-away overlay of the cached Debian root
#   sid     Debian unstable, 51        / (scripts/test-roots.sh, scripts/in-root.sh): the ES modules.
# In a root, restd is installed the way the package installs it: with DEB (the 4th argument, or
# DEB=path), `apt-get install` of that .deb inside the overlay; without, scripts/install-files.sh
# into the overlay, as `make install PREFIX=/usr` does for the root's GNOME Shell. With SCREENSHOT,
# the picture of the panel and its open menu is taken in GNOME Shell 48 (trixie) and written there.
# In GNOME Shell 48 a second, short session runs in German (in_shell.py --language de): the locale
# de_DE.UTF-8 is generated in the overlay from this machine's definitions (Debian's `locales`,
# TEST_DEB_PACKAGES), as a German desktop has it, since the Shell's gettext speaks only a locale that exists.
# Then a third, as short, in the test-only pseudo-language (in_shell.py --language en@pseudo, with
# LANGUAGE=en@pseudo:de over that locale): its catalog, compiled here by scripts/compile-catalogs.sh,
# is copied into the overlay only, into the installed extension's locale/ and /usr/share/locale.
# GNOME_TEST_SHELLS (default "host trixie forky sid") chooses the Shells to run.
set -euo pipefail
bin_dir=$(realpath -- "$1") build_dir=$(realpath -- "$2") screenshot=${3:-} deb=${4:-${DEB:-}}
[ -z "$screenshot" ] || screenshot=$(realpath -m -- "$screenshot")
[ -z "$deb" ] || deb=$(realpath -- "$deb")
cd "$(dirname "${BASH_SOURCE[0]}")/.."
read -r -a shells <<<"${GNOME_TEST_SHELLS:-host trixie forky sid}"
if [ "$(id -u)" -ne 0 ] && [[ " ${shells[*]} " != " host " ]]; then
  echo "test-gnome: not root, so only this machine's GNOME Shell is run, not those in Debian roots (CI runs as root)"
  shells=(host)
fi
# The screenshot's Shell (docs/gnome-panel.png): the newest stable Debian's, GNOME 48.
screenshot_shell=trixie
# The Shell whose extension is also checked in German and in the pseudo-language.
german_shell=trixie
if [ -n "$screenshot" ] && [[ " ${shells[*]} " != *" $screenshot_shell "* ]]; then
  echo "error: the screenshot is taken in $screenshot_shell, which GNOME_TEST_SHELLS leaves out" >&2
  exit 2
fi
start=$(date +%s%N)
ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }

gjs -m gnome-extension/tests/build.test.js
gjs -m gnome-extension/tests/pure.test.js
gjs -m gnome-extension/tests/pure.test.js "$build_dir/esm/restd@restd.io"

work=$(mktemp -d "${TMPDIR:-/tmp}/restd-gnome.XXXXXX")
# KEEP_TEST_DIRS=1 keeps the logs of the Shells, restd and the buses (as the Swift tests do).
if [ -n "${KEEP_TEST_DIRS:-}" ]; then trap 'echo "test-gnome: kept $work"' EXIT; else trap 'rm -rf "$work"' EXIT; fi
# `make install PREFIX=/usr`'s layout, which scripts/install-files.sh derives from PREFIX.
install_layout=(PREFIX=/usr)

swift_runtime=$(ldd "$bin_dir/restd" | awk '$1 == "libswiftCore.so" { print $3 }')
[ -z "$swift_runtime" ] || swift_runtime=$(dirname "$swift_runtime")
roots=()
for shell in "${shells[@]}"; do [ "$shell" = host ] || roots+=("$shell"); done
[ ${#roots[@]} -eq 0 ] || scripts/test-roots.sh "${roots[@]}"

timings=()
failed=()
for shell in "${shells[@]}"; do
  shell_start=$(date +%s%N)
  dir=$work/$shell
  mkdir -p "$dir"
  shot=()
  [ -z "$screenshot" ] || [ "$shell" != "$screenshot_shell" ] || shot=(--screenshot "$dir/screenshot.png")
  echo "test-gnome: $shell"
  if [ "$shell" = host ]; then
    # The host's Shell, 43: installed into a temporary tree, found through XDG_DATA_DIRS.
    env DESTDIR="$dir/root" "${install_layout[@]}" GNOME_SHELL_VERSION=43 \
      scripts/install-files.sh install "$bin_dir" "$build_dir" >"$dir/install.log"
    # python3-dbusmock and python3-dbus are Debian's: only /usr/bin/python3 sees them.
    status=0
    /usr/bin/python3 gnome-extension/tests/in_shell.py --root "$dir/root" --work "$dir" "${shot[@]}" || status=$?
  else
    # In the root, installed into / of the overlay. A debug restd links the toolchain's Swift
    # runtime (e.g. /opt/swift/usr/lib/swift/linux): bound at the same path; the release one in
    # the .deb carries it.
    binds=(--bind "$dir:/restd-test" --bind "$bin_dir:/restd-test-bin" --bind "$build_dir:/restd-test-gnome")
    [ -z "$swift_runtime" ] || binds+=(--bind "$swift_runtime:$swift_runtime")
    [ -z "$deb" ] || binds+=(--bind "$(dirname "$deb"):/restd-test-deb")
    [ ${#shot[@]} -eq 0 ] || shot=(--screenshot /restd-test/screenshot.png)
    german=
    if [ "$shell" = "$german_shell" ]; then
      german=de
      binds+=(--bind /usr/share/i18n:/usr/share/i18n)
      scripts/compile-catalogs.sh "$dir/catalogs" >/dev/null
    fi
    status=0
    # shellcheck disable=SC2016 # expanded by the root's shell
    scripts/in-root.sh "$shell" "${binds[@]}" -- bash -euc '
      deb=$1 shot=$2 german=$3; shift 3
      cd /src
      version=$(gnome-shell --version | grep -oE "[0-9]+" | head -n 1)
      if [ -n "$deb" ]; then
        # Without the package lists of the archive (nothing downloaded: the root must have every
        # dependency; --no-download of apt 3 refuses a local .deb), and without removals (a package
        # that would take GNOME Shell away, by Breaks or Conflicts, fails here).
        mkdir -p /tmp/no-apt-lists/partial
        DEBIAN_FRONTEND=noninteractive apt-get install -y --no-remove -o Dir::State::Lists=/tmp/no-apt-lists \
          -o Dir::Etc::SourceParts=/tmp/no-apt-lists -o Dir::Etc::SourceList=/tmp/no-apt-lists/none.list \
          "/restd-test-deb/$deb" >/restd-test/install.log 2>&1 || { cat /restd-test/install.log; exit 1; }
      else
        env DESTDIR= "$@" GNOME_SHELL_VERSION="$version" \
          scripts/install-files.sh install /restd-test-bin /restd-test-gnome >/restd-test/install.log
      fi
      /usr/bin/python3 gnome-extension/tests/in_shell.py --root / --work /restd-test ${shot:+--screenshot "$shot"}
      [ -n "$german" ] || exit 0
      localedef --inputfile=de_DE --charmap=UTF-8 de_DE.UTF-8
      /usr/bin/python3 gnome-extension/tests/in_shell.py --root / --work /restd-test/de --language de
      # The overlay copy of the installed extension (never the build bound from the checkout).
      extension=$(realpath /usr/share/gnome-shell/extensions/restd@restd.io)
      case $extension in /restd-test*) echo "error: the extension is not a copy in the overlay: $extension" >&2; exit 1 ;; esac
      for locale in "$extension/locale" /usr/share/locale; do
        mkdir -p "$locale/en@pseudo/LC_MESSAGES"
        cp "/restd-test/catalogs/en@pseudo/LC_MESSAGES/restd.mo" "$locale/en@pseudo/LC_MESSAGES/restd.mo"
      done
      exec /usr/bin/python3 gnome-extension/tests/in_shell.py --root / --work /restd-test/pseudo --language en@pseudo
    ' in-root "${deb:+$(basename "$deb")}" "${shot[1]:-}" "$german" "${install_layout[@]}" 2>"$dir/in-root.log" || status=$?
    # in-root.sh's own errors (a missing root, a failed mount) are in its log.
    [ "$status" -eq 0 ] || cat "$dir/in-root.log" >&2
  fi
  if [ ${#shot[@]} -gt 0 ] && [ "$status" -eq 0 ]; then cp "$dir/screenshot.png" "$screenshot"; fi
  timings+=("$shell $(ms_since "$shell_start") ms")
  [ "$status" -eq 0 ] || failed+=("$shell")
done
summary=$(printf '%s, ' "${timings[@]}")
echo "test-gnome: ${summary%, }; done in $(ms_since "$start") ms"
if [ ${#failed[@]} -gt 0 ]; then
  echo "test-gnome: failed in ${failed[*]}" >&2
  exit 1
fi
