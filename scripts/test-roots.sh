#!/usr/bin/env bash
# Usage: scripts/test-roots.sh [SUITE…]   (as root; default: trixie forky sid)
# Builds the minimal Debian roots the tests of today's desktops run in, and caches them outside the
# checkout, in $RESTD_TEST_ROOTS (/var/cache/restd-test/roots): trixie (Debian 13, GNOME Shell 48),
# forky (testing, 50) and sid (unstable, 51 when measured), in parallel. One line per root.
#
# A root is built only when it is missing, older than a week, or was built with another package list
# (kept beside it in SUITE.stamp); otherwise it is reused as it is. Tests never write into a root: they
# mount an overlay over it (scripts/in-root.sh). The mirror is the one this machine's apt sources
# name; nothing else is downloaded. The .debs stay in each root's apt cache, so that a test can
# install or reinstall a package there without the network. A second run waits for the first
# (`make test` starts one early, in the background, and the tests that need the roots run it again).
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
exec 9>"$cache/.lock"
flock 9
week=$((7 * 24 * 3600))
want="packages=$packages mirror=$mirror"

fresh() {  # fresh SUITE: built with this package list and mirror less than a week ago
  local stamp=$cache/$1.stamp
  [ -f "$stamp" ] && [ "$(sed -n 2p "$stamp")" = "$want" ] && [ $(( $(date +%s) - $(sed -n 1p "$stamp") )) -lt $week ]
}

build() {  # build SUITE: debootstrap it afresh; its output in SUITE.log
  local suite=$1 root=$cache/$1 start
  start=$(date +%s)
  rm -rf "$root" "$cache/$suite.stamp"
  # Bookworm's debootstrap has no script for the suites after trixie; sid's serves them.
  local script=()
  [ -e "/usr/share/debootstrap/scripts/$suite" ] || script=(/usr/share/debootstrap/scripts/sid)
  if ! debootstrap --variant=minbase --include="$packages" "$suite" "$root" "$mirror" "${script[@]}" >"$root.log" 2>&1; then
    # Testing and unstable sometimes leave one dependency for apt to finish.
    chroot "$root" sh -c 'apt-get -o Acquire::Check-Valid-Until=false update && apt-get -f install -y' >>"$root.log" 2>&1 \
      || { echo "error: debootstrap $suite failed; see $root.log" >&2; return 1; }
  fi
  chroot "$root" sh -c 'dpkg --configure -a && apt-get -f install -y' >>"$root.log" 2>&1 \
    || { echo "error: finishing $suite failed; see $root.log" >&2; return 1; }
  # The mirror's release files for testing and unstable may be past Valid-Until.
  echo 'Acquire::Check-Valid-Until "false";' >"$root/etc/apt/apt.conf.d/99restd-test"
  local shell
  # shellcheck disable=SC2016 # a dpkg-query format, not a shell expansion
  shell=$(chroot "$root" dpkg-query -W -f='${Version}' gnome-shell)
  printf '%s\n%s\n' "$(date +%s)" "$want" >"$cache/$suite.stamp"
  echo "test-roots: $suite built in $(( $(date +%s) - start )) s ($root, GNOME Shell $shell)"
}

export DEBIAN_FRONTEND=noninteractive
pids=()
for suite in "${suites[@]}"; do
  if fresh "$suite"; then
    echo "test-roots: $suite reused ($cache/$suite, built $(date -u -d "@$(sed -n 1p "$cache/$suite.stamp")" +%F))"
  else
    build "$suite" & pids+=($!)
  fi
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
exit $status
