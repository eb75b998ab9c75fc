#!/usr/bin/env bash
# Usage: scripts/install-missing-packages.sh (DEB_PACKAGES in the environment; `make deps`)
# Installs those of $DEB_PACKAGES that are not installed, and only then runs
# apt-get (update once, then install).

if ! command -v dpkg-query >/dev/null; then
  echo "error: dpkg-query was not found: \`make deps\` installs packages on Debian only; install these yourself: $DEB_PACKAGES" >&2
  exit 1
fi
missing=()
for pkg in $DEB_PACKAGES; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  [ "$status" = "install ok installed" ] || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null; then
    echo "error: these Debian packages are missing and sudo was not found (run \`make deps\` as root): ${missing[*]}" >&2
    exit 1
  fi
  sudo=(sudo)
fi
echo "deps: installing missing Debian packages: ${missing[*]}"
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
