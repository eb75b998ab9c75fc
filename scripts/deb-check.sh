#!/usr/bin/env bash
# Usage: scripts/deb-check.sh DEB VERSION SWIFT [SWIFT_FLAGS…]
# What `make deb-check` does after `make deb` (root only): installs DEB, checks its files and
# programs, runs SystemdUserManagerTests against the installed restd and unit, removes and purges
# it, and checks that nothing is left.

set -uo pipefail
deb=$1 version=$2 swift=$3; shift 3
if [ "$(id -u)" -ne 0 ]; then
  echo "deb-check: not root, so $deb was built and checked by lintian but not installed and tested (CI runs as root)"
  exit 0
fi
if dpkg-query -W -f='${Status}' restd 2>/dev/null | grep -q 'installed'; then
  echo "deb-check: a restd package is already installed here; remove it first (dpkg -r restd): make test does not replace it" >&2
  exit 1
fi
passed=0 failed=0
check() {  # check DESCRIPTION COMMAND…
  local description=$1; shift
  if "$@" >/dev/null 2>&1; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "deb-check: FAILED: $description" >&2; fi
}
nothing_left() {  # every file of the list is gone
  local path
  while read -r path; do [ -e "$path" ] || [ -L "$path" ] && [ ! -d "$path" ] && return 1; done <"$1"
  return 0
}
no_restd_under() { [ -z "$(find "$@" -name '*restd*' 2>/dev/null)" ]; }
work=$(mktemp -d "${TMPDIR:-/tmp}/restd-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT

# As a user installs it: apt, which would remove whatever the package breaks or conflicts with.
apt-get install -s "$(realpath "$deb")" >"$work/simulation" 2>&1
check "apt would remove nothing to install it"      bash -c "! grep -q '^Remv' '$work/simulation'"
DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$(realpath "$deb")" >"$work/apt.log" 2>&1 \
  || { cat "$work/apt.log" >&2; echo "deb-check: apt-get install $deb failed" >&2; exit 1; }
dpkg -L restd >"$work/files"
for path in /usr/bin/restd /usr/bin/restctl /usr/lib/systemd/user/restd.service     /usr/share/dbus-1/services/io.restd.Rest1.service /usr/share/dbus-1/interfaces/io.restd.Rest1.xml     /usr/share/man/man1/restd.1.gz /usr/share/man/man1/restctl.1.gz /usr/share/man/man5/restd.conf.5.gz /usr/share/man/man5/io.restd.Rest1.5.gz /usr/share/bash-completion/completions/restctl     /usr/share/zsh/vendor-completions/_restctl /usr/share/fish/vendor_completions.d/restctl.fish     /usr/share/applications/restd.desktop /usr/share/doc/restd/copyright /usr/share/doc/restd/README.md.gz \
    /usr/libexec/restd/gnome-extension-link /usr/share/restd/gnome-shell/legacy/restd@restd.io/extension.js \
    /usr/share/restd/gnome-shell/esm/restd@restd.io/extension.js; do
  check "the package installs $path" grep -qx "$path" "$work/files"
done
check "restd --version is the package's version"    test "$(/usr/bin/restd --version)" = "$version"
check "restctl --version is the package's version"  test "$(/usr/bin/restctl --version)" = "$version"
check "the programs carry the Swift runtime"        bash -c '! ldd /usr/bin/restd /usr/bin/restctl | grep -q libswift'
check "ExecStart= names /usr/bin/restd"             grep -qx 'ExecStart=/usr/bin/restd' /usr/lib/systemd/user/restd.service
check "Exec= names /usr/bin/restd"                  grep -qx 'Exec=/usr/bin/restd' /usr/share/dbus-1/services/io.restd.Rest1.service
check "restd.service is enabled for every user"     test "$(systemctl --global is-enabled restd.service)" = enabled
check "the GNOME Shell extension is the legacy build (Debian 12's GNOME Shell 43)" \
  test "$(readlink -f /usr/share/gnome-shell/extensions/restd@restd.io)" = "/usr/share/restd/gnome-shell/legacy/restd@restd.io"
check "the package names no gnome-shell version"    test -z "$(dpkg-query -W -f='${Breaks}${Conflicts}${Depends}' restd | grep gnome-shell)"

# The user-manager suite against the package's restd, restctl, unit and activation file.
if ! env RESTD_INSTALLED_PREFIX=/usr RESTD_BIN_DIR=/usr/bin "$swift" test --skip-build "$@"     --filter SystemdUserManagerTests >"$work/test.log" 2>&1; then
  cat "$work/test.log" >&2
  failed=$((failed + 1)); echo "deb-check: FAILED: SystemdUserManagerTests against the installed package" >&2
else
  passed=$((passed + 1)); grep -E '^✔ Test run|returned in' "$work/test.log"
fi

dpkg -r restd >/dev/null
check "dpkg -r removes every file it installed"     nothing_left "$work/files"
check "dpkg -r leaves no link to the extension"     test ! -L /usr/share/gnome-shell/extensions/restd@restd.io
dpkg --purge restd >/dev/null
check "dpkg --purge: restd is not enabled any more"  no_restd_under /etc/systemd/user
check "dpkg --purge: no deb-systemd-helper state"    no_restd_under /var/lib/systemd/deb-systemd-user-helper-enabled /var/lib/systemd/deb-systemd-user-helper-masked
check "dpkg knows nothing of restd"                  bash -c '! dpkg-query -W restd'

echo "deb-check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
