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
# shellcheck source=scripts/desktop-test-lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/desktop-test-lib.sh"
desktop_test_start test-gnome "$@"
read -r -a shells <<<"${GNOME_TEST_SHELLS:-host trixie forky sid}"
if [ "$(id -u)" -ne 0 ] && [[ " ${shells[*]} " != " host " ]]; then
  echo "test-gnome: not root, so only this machine's GNOME Shell is run, not those in Debian roots (CI runs as root)"
  shells=(host)
fi
# The screenshot's Shell (docs/gnome-panel.png): the newest stable Debian's, GNOME 48.
screenshot_shell=trixie
# The Shell whose extension is also checked in German and in the pseudo-language.
german_shell=trixie
screenshot_in "$screenshot_shell" GNOME_TEST_SHELLS "${shells[@]}"

gjs -m gnome-extension/tests/build.test.js
gjs -m gnome-extension/tests/pure.test.js
gjs -m gnome-extension/tests/pure.test.js "$build_dir/esm/restd@restd.io"

make_work
roots=()
for shell in "${shells[@]}"; do [ "$shell" = host ] || roots+=("$shell"); done
[ ${#roots[@]} -eq 0 ] || scripts/test-roots.sh "${roots[@]}"

for shell in "${shells[@]}"; do
  run_start "$shell" "$screenshot_shell"
  status=0
  if [ "$shell" = host ]; then
    # The host's Shell, 43: installed into a temporary tree, found through XDG_DATA_DIRS.
    env DESTDIR="$dir/root" "${install_layout[@]}" GNOME_SHELL_VERSION=43 \
      scripts/install-files.sh install "$bin_dir" "$build_dir" >"$dir/install.log"
    # python3-dbusmock and python3-dbus are Debian's: only /usr/bin/python3 sees them.
    /usr/bin/python3 gnome-extension/tests/in_shell.py --root "$dir/root" --work "$dir" ${shot:+--screenshot "$shot"} || status=$?
  else
    # In the root, installed into / of the overlay.
    german=
    if [ "$shell" = "$german_shell" ]; then
      german=de
      scripts/compile-catalogs.sh "$dir/catalogs" >/dev/null
    fi
    overlay_binds ${german:+german}
    # shellcheck disable=SC2016 # expanded by the root's shell
    run_in_overlay "$shell" '
      deb=$1 shot=$2 german=$3
      install_restd "$deb" GNOME_SHELL_VERSION="$(gnome-shell --version | grep -oE "[0-9]+" | head -n 1)"
      /usr/bin/python3 gnome-extension/tests/in_shell.py --root / --work /restd-test ${shot:+--screenshot "$shot"}
      [ -n "$german" ] || exit 0
      german_locale
      /usr/bin/python3 gnome-extension/tests/in_shell.py --root / --work /restd-test/de --language de
      # The overlay copy of the installed extension (never the build bound from the checkout).
      extension=$(realpath /usr/share/gnome-shell/extensions/restd@restd.io)
      case $extension in /restd-test*) echo "error: the extension is not a copy in the overlay: $extension" >&2; exit 1 ;; esac
      for locale in "$extension/locale" /usr/share/locale; do
        mkdir -p "$locale/en@pseudo/LC_MESSAGES"
        cp "/restd-test/catalogs/en@pseudo/LC_MESSAGES/restd.mo" "$locale/en@pseudo/LC_MESSAGES/restd.mo"
      done
      exec /usr/bin/python3 gnome-extension/tests/in_shell.py --root / --work /restd-test/pseudo --language en@pseudo
    ' "${deb:+$(basename "$deb")}" "${shot:+/restd-test/screenshot.png}" "$german" || status=$?
  fi
  run_done "$shell" "$status"
done
desktop_test_end
