#!/usr/bin/env bash
# Usage (inside a Debian root, from scripts/deb-roots-check.sh): deb-in-root.sh DIR SUITE [--triggers]
# DIR holds restd.deb (the package under test) and old-breaks.deb (the same package with the
# `Breaks: gnome-shell (>= 45)` it used to have, to show that the check below sees a removal).
# Installs restd.deb with apt as a user would, checks that apt removes nothing, that the GNOME
# Shell extension's link names the build this root's Shell accepts, that restd and restctl run,
# and that purging leaves nothing. With --triggers (Debian 13's root): lintian, and the dpkg
# trigger with gnome-shell removed, installed after restd, and upgraded from a stand-in 43.
# No network: every package comes from the root's apt cache. One line per failure, then counts.
set -uo pipefail
dir=$1 suite=$2 triggers=${3:-}
export DEBIAN_FRONTEND=noninteractive
deb=$dir/restd.deb
ext=/usr/share/gnome-shell/extensions/restd@restd.io builds=/usr/share/restd/gnome-shell
passed=0 failed=0
check() {  # check DESCRIPTION COMMAND…
  local description=$1; shift
  if "$@" >/dev/null 2>&1; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "deb-roots-check ($suite): FAILED: $description" >&2; fi
}
removes_nothing() { apt-get install -s "$1" >"$dir/simulation" 2>&1 && ! grep -q '^Remv' "$dir/simulation"; }
# apt up to 3.0 would remove the Shell; 3.1's solver refuses to remove it and fails instead.
removes_or_refuses() { local out; out=$(apt-get install -s "$1" 2>&1) || return 0; grep -q '^Remv gnome-shell ' <<<"$out"; }
links() {  # links BUILD|nothing
  if [ "$1" = nothing ]; then [ ! -e "$ext" ] && [ ! -L "$ext" ]; else [ "$(readlink -f "$ext")" = "$builds/$1/restd@restd.io" ]; fi
}
shell_major() { dpkg-query -W -f='${Version}' gnome-shell | sed -E 's/^([0-9]+:)?([0-9]+).*/\2/'; }
# A proxy nobody listens on: whatever apt would download fails, so everything comes from the cache.
apt_quietly() { apt-get -y -q --no-install-recommends -o Acquire::http::Proxy=http://127.0.0.1:9 "$@" >>"$dir/apt.log" 2>&1; }
nothing_of_restd_left() {
  ! dpkg-query -W restd 2>/dev/null && [ ! -e /usr/bin/restd ] && [ ! -e /usr/libexec/restd ] && [ ! -e /usr/share/restd ] \
    && [ ! -e "$ext" ] && [ ! -L "$ext" ] && [ -z "$(find /etc/systemd/user /var/lib/systemd -name '*restd*' 2>/dev/null)" ]
}
runs_a_rest() {  # restctl asks for a rest on a session bus; D-Bus activates the installed restd
  dbus-run-session -- bash -c 'restctl start 90 --label Squat >/dev/null && restctl status' >"$dir/status" 2>&1 \
    && grep -q 'Squat' "$dir/status"
}

check "a package that Breaks gnome-shell (>= 45) could not be installed beside it (the check below can fail)" \
  removes_or_refuses "$dir/old-breaks.deb"
check "apt removes nothing to install restd (GNOME Shell $(shell_major))" removes_nothing "$deb"
apt_quietly install "$deb" || { cat "$dir/apt.log" >&2; echo "deb-roots-check ($suite): apt-get install failed" >&2; exit 1; }
check "gnome-shell is still installed"               dpkg-query -W gnome-shell
check "GNOME Shell $(shell_major): the extension links to the ES module build" links esm
check "restd runs here"                              restd --version
check "restctl starts a rest, D-Bus activating restd" runs_a_rest

if [ "$triggers" = --triggers ]; then
  check "lintian finds no error or warning"          lintian --fail-on error,warning "$deb"
  apt_quietly purge restd
  check "purging restd leaves nothing behind"        nothing_of_restd_left

  # GNOME Shell installed after restd, then removed, then back.
  apt_quietly remove gnome-shell
  apt_quietly install "$deb"
  check "no GNOME Shell: no link"                    links nothing
  apt_quietly install gnome-shell
  check "GNOME Shell installed after restd: the trigger links the ES module build" links esm
  apt_quietly remove gnome-shell
  check "GNOME Shell removed: the trigger leaves no link, dangling or not" links nothing
  apt_quietly install gnome-shell
  check "GNOME Shell back: linked again"             links esm

  # A dist-upgrade from Debian 12: a stand-in gnome-shell 43 (only its version and program), then
  # the real one from the cache as an upgrade.
  apt_quietly remove gnome-shell
  stand_in=$dir/stand-in
  mkdir -p "$stand_in/DEBIAN" "$stand_in/usr/bin"
  printf 'Package: gnome-shell\nVersion: 43.9-0+deb12u2\nArchitecture: all\nMaintainer: test <test@example.org>\nDescription: stand-in for GNOME Shell 43\n' \
    >"$stand_in/DEBIAN/control"
  printf '#!/bin/sh\necho "GNOME Shell 43.9"\n' >"$stand_in/usr/bin/gnome-shell"
  chmod 755 "$stand_in/usr/bin/gnome-shell"
  dpkg-deb -b "$stand_in" "$dir/gnome-shell-43.deb" >/dev/null
  dpkg -i "$dir/gnome-shell-43.deb" >>"$dir/apt.log" 2>&1
  check "GNOME Shell 43 (Debian 12's): the legacy build" links legacy
  apt_quietly install gnome-shell
  check "upgraded to GNOME Shell $(shell_major): the trigger links the ES module build" links esm
fi

apt_quietly purge restd
check "purging restd leaves nothing behind"          nothing_of_restd_left
check "gnome-shell is still installed at the end"    dpkg-query -W gnome-shell
echo "deb-roots-check ($suite): $passed passed, $failed failed"
[ "$failed" -eq 0 ]
