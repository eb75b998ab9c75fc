#!/usr/bin/env bash
# Usage: scripts/test-roots.sh [SUITE…]   (as root; default: trixie forky sid)
# Builds the minimal Debian roots the tests of today's desktops run in, and caches them outside the
# checkout, in $RESTD_TEST_ROOTS (/var/cache/restd-test/roots): trixie (Debian 13, GNOME Shell 48),
# forky (testing, 50) and sid (unstable, 51 when measured). Prints nothing but one line per root.
#
# A root is built only when it is missing, older than a week, or was built with another package list
# (kept beside it in SUITE.stamp); otherwise it is reused as it is. Tests never write into a root: they
# mount an overlay over it (scripts/in-root.sh). The mirror is the one this machine's apt sources
# name; nothing else is downloaded. The .debs stay in each root's apt cache, so that a test can
# install or reinstall a package there without the network.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cache=${RESTD_TEST_ROOTS:-/var/cache/restd-test/roots}
suites=("$@")
[ ${#suites[@]} -gt 0 ] || suites=(trixie forky sid)
[ "$(id -u)" -eq 0 ] || { echo "error: building Debian roots needs root (debootstrap, chroot)" >&2; exit 1; }

# What the tests run inside: a headless GNOME Shell with its mocked logind (python3-dbusmock),
# gjs, gsettings and a session bus; lintian for the package check; restd's own libraries, so that
# `apt install ./restd.deb` needs nothing from the network.
packages=gnome-shell,dbus,dbus-user-session,gjs,python3-dbusmock,libglib2.0-bin,lintian,libdbus-1-3,libsystemd0,libsqlite3-0,fontconfig,fonts-cantarell

# The first mirror of this machine's apt sources (deb822 `URIs:` lines, or a sources.list `deb` line).
mirror=$( { cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null || true; } \
  | awk '$1 == "URIs:" || $1 == "deb" { print $2 }' | grep -v security | head -n 1)
[ -n "$mirror" ] || { echo "error: no Debian mirror in /etc/apt/sources.list.d/*.sources or /etc/apt/sources.list" >&2; exit 1; }

DEB_PACKAGES=debootstrap scripts/install-missing-packages.sh

mkdir -p "$cache"
week=$((7 * 24 * 3600))
for suite in "${suites[@]}"; do
  root=$cache/$suite stamp=$cache/$suite.stamp
  want="packages=$packages mirror=$mirror"
  if [ -f "$stamp" ] && [ "$(sed -n 2p "$stamp")" = "$want" ] \
    && [ $(( $(date +%s) - $(sed -n 1p "$stamp") )) -lt $week ]; then
    echo "test-roots: $suite reused ($root, built $(date -u -d "@$(sed -n 1p "$stamp")" +%F))"
    continue
  fi
  start=$(date +%s)
  rm -rf "$root" "$stamp" "$root.log"
  # Bookworm's debootstrap has no script for the suites after trixie; sid's serves them.
  script=()
  [ -e "/usr/share/debootstrap/scripts/$suite" ] || script=(/usr/share/debootstrap/scripts/sid)
  if ! debootstrap --variant=minbase --include="$packages" "$suite" "$root" "$mirror" "${script[@]}" >"$root.log" 2>&1; then
    # Testing and unstable sometimes leave one dependency to be finished by apt.
    if ! chroot "$root" sh -c 'apt-get -o Acquire::Check-Valid-Until=false update && DEBIAN_FRONTEND=noninteractive apt-get -f install -y' >>"$root.log" 2>&1; then
      echo "error: debootstrap $suite failed; see $root.log" >&2
      exit 1
    fi
  fi
  chroot "$root" sh -c "dpkg --configure -a && DEBIAN_FRONTEND=noninteractive apt-get -f install -y" >>"$root.log" 2>&1
  # The mirror's release files for testing and unstable may be past Valid-Until.
  echo 'Acquire::Check-Valid-Until "false";' >"$root/etc/apt/apt.conf.d/99restd-test"
  # shellcheck disable=SC2016 # a dpkg-query format, not a shell expansion
  shell=$(chroot "$root" dpkg-query -W -f='${Version}' gnome-shell)
  printf '%s\n%s\n' "$(date +%s)" "$want" >"$stamp"
  echo "test-roots: $suite built in $(( $(date +%s) - start )) s ($root, GNOME Shell $shell)"
done
