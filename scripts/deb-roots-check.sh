#!/usr/bin/env bash
# Usage: scripts/deb-roots-check.sh DEB [SUITE…]   (as root; default: trixie forky sid)
# The Debian package on the releases after Debian 12: in a throw-away overlay of each cached root
# (scripts/test-roots.sh, scripts/in-root.sh), scripts/deb-in-root.sh installs DEB with apt and
# checks it; in trixie (Debian 13) also lintian and the dpkg trigger on gnome-shell.
set -euo pipefail
deb=$(realpath "${1:?usage: scripts/deb-roots-check.sh DEB [SUITE…]}")
shift
suites=("$@")
[ ${#suites[@]} -gt 0 ] || suites=(trixie forky sid)
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ "$(id -u)" -ne 0 ]; then
  echo "deb-roots-check: not root, so $deb was not tried in Debian 13, testing and unstable (CI runs as root)"
  exit 0
fi
scripts/test-roots.sh "${suites[@]}"
work=$(mktemp -d "${TMPDIR:-/tmp}/restd-deb-roots.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The same package with the relation it used to have, for the check that would see apt remove the Shell.
dpkg-deb -R "$deb" "$work/old"
sed -i '/^Depends:/a Breaks: gnome-shell (>= 45)' "$work/old/DEBIAN/control"
dpkg-deb -b "$work/old" "$work/old-breaks.deb" >/dev/null
rm -rf "$work/old"

status=0
for suite in "${suites[@]}"; do
  dir=$work/$suite
  mkdir -p "$dir"
  cp "$deb" "$dir/restd.deb"
  cp "$work/old-breaks.deb" "$dir/"
  triggers=()
  [ "$suite" = trixie ] && triggers=(--triggers)
  scripts/in-root.sh "$suite" --bind "$dir:/deb" -- bash /src/scripts/deb-in-root.sh /deb "$suite" "${triggers[@]}" 2>&1 \
    | grep -v '^in-root: tmp is' || status=1
done
exit $status
