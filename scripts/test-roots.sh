#!/usr/bin/env bash
# Usage: scripts/test-roots.sh [SUITE…]   (as root; default: trixie forky sid trixie-plasma forky-plasma)
# Builds the minimal Debian roots the tests of today's desktops run in, and caches them outside the
# checkout, in $RESTD_TEST_ROOTS (/var/cache/restd-test/roots): trixie (Debian 13, GNOME Shell 48),
# forky (testing, 50) and sid (unstable, 51 when measured), in parallel. One line per root.
# SUITE-plasma is a layer over SUITE: KDE Plasma 6 installed into an overlay over the GNOME root,
# kept as the overlay's upper directory (SUITE-plasma.layer); scripts/in-root.sh stacks it over SUITE.
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
[ ${#suites[@]} -gt 0 ] || suites=(trixie forky sid trixie-plasma forky-plasma)
[ "$(id -u)" -eq 0 ] || { echo "error: building Debian roots needs root (debootstrap, chroot)" >&2; exit 1; }

# What the tests run inside: a headless GNOME Shell with its mocked logind (python3-dbusmock),
# gjs, gsettings and a session bus; lintian for the package check; restd's own libraries, so that
# `apt install ./restd.deb` needs nothing from the network.
packages=gnome-shell,dbus,dbus-user-session,gjs,python3-dbusmock,libglib2.0-bin,lintian,libdbus-1-3,libsystemd0,libsqlite3-0,fontconfig,fonts-cantarell
# The Plasma layer: the smallest set that runs a headless plasmashell under kwin_wayland
# (kactivitymanagerd: plasmashell aborts without it), Breeze, and AT-SPI with its Python client, which
# reads and presses the widgets; Xvfb, the screen kwin_wayland draws into, read as a file for pictures
# (kwin's own screenshot needs OpenGL, which has no device here).
plasma_packages="plasma-workspace kwin-wayland plasma-desktop kactivitymanagerd breeze at-spi2-core python3-pyatspi gir1.2-atspi-2.0 qt6-tools-dev-tools xvfb"

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

wanted() {  # wanted SUITE: what its stamp's second line must say
  case $1 in
    *-plasma) echo "layer=$plasma_packages over=$(sed -n 1p "$cache/${1%-plasma}.stamp" 2>/dev/null)" ;;
    *) echo "$want" ;;
  esac
}

fresh() {  # fresh SUITE: built with this package list and mirror (a layer: over this base) less than a week ago
  local stamp=$cache/$1.stamp
  [ -f "$stamp" ] && [ "$(sed -n 2p "$stamp")" = "$(wanted "$1")" ] && [ $(( $(date +%s) - $(sed -n 1p "$stamp") )) -lt $week ]
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

build_layer() {  # build_layer SUITE-plasma: Plasma installed into an overlay over SUITE; its output in SUITE-plasma.log
  local layer=$1 base=$cache/${1%-plasma} dir=$cache/$1.layer start
  start=$(date +%s)
  rm -rf "$dir" "$cache/$layer.stamp" "$cache/$layer.work"
  mkdir -p "$dir" "$cache/$layer.work"
  # shellcheck disable=SC2016 # expanded by the inner shell
  if ! unshare -m --propagation private bash -euc '
    base=$1 dir=$2 work=$3 packages=$4
    mkdir -p "$work/merged" "$work/work"
    mount -t overlay overlay -o "lowerdir=$base,upperdir=$dir,workdir=$work/work" "$work/merged"
    mount -t proc proc "$work/merged/proc"
    mount --rbind /dev "$work/merged/dev"
    mount --rbind /sys "$work/merged/sys"
    # shellcheck disable=SC2086 # a list of package names
    chroot "$work/merged" sh -c "apt-get update && apt-get install -y --no-install-recommends $packages"
  ' build-layer "$base" "$dir" "$cache/$layer.work" "$plasma_packages" >"$cache/$layer.log" 2>&1; then
    echo "error: the Plasma layer over ${layer%-plasma} failed; see $cache/$layer.log" >&2
    return 1
  fi
  rm -rf "$cache/$layer.work"
  local plasma
  plasma=$(awk '/^Package: plasma-workspace$/ { p = 1 } p && /^Version:/ { print $2; exit }' "$dir/var/lib/dpkg/status")
  printf '%s\n%s\n' "$(date +%s)" "$(wanted "$layer")" >"$cache/$layer.stamp"
  echo "test-roots: $layer built in $(( $(date +%s) - start )) s ($dir over $base, Plasma $plasma)"
}

reused() {  # reused SUITE: says so
  local dir=$cache/$1
  [ "${1%-plasma}" = "$1" ] || dir=$dir.layer
  echo "test-roots: $1 reused ($dir, built $(date -u -d "@$(sed -n 1p "$cache/$1.stamp")" +%F))"
}

chain() {  # chain BASE [LAYER…]: the base root if it is not fresh, then each layer over it that is not
  local base=$1 layer
  shift
  if fresh "$base"; then
    [ -z "${want_base[$base]:-}" ] || reused "$base"
  else
    build "$base" || return 1
  fi
  for layer in "$@"; do
    if fresh "$layer"; then reused "$layer"; else build_layer "$layer" || return 1; fi
  done
}

export DEBIAN_FRONTEND=noninteractive
# Each base root with the layers asked over it, one chain per base, the chains in parallel.
declare -A want_base=() layers=()
bases=()
for suite in "${suites[@]}"; do
  base=${suite%-plasma}
  [[ " ${bases[*]} " == *" $base "* ]] || bases+=("$base")
  if [ "$suite" = "$base" ]; then want_base[$base]=1; else layers[$base]+=" $suite"; fi
done
pids=()
for base in "${bases[@]}"; do
  # shellcheck disable=SC2086 # a list of layer names
  chain "$base" ${layers[$base]:-} & pids+=($!)
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
exit $status
