#!/usr/bin/env bash
# Usage: scripts/in-root.sh SUITE [--bind HOST_DIR:ROOT_DIR]… -- COMMAND [ARG…]   (as root)
# Runs COMMAND as root inside a fresh overlay over the cached Debian root SUITE
# (scripts/test-roots.sh), in a private mount namespace, and throws the overlay away afterwards:
# the cached root is never written. The checkout is mounted read-only at /src, and each --bind
# HOST_DIR at ROOT_DIR (made if missing), read-write: a test's work directory, a .deb to install.
# The root's /tmp is a fresh directory of the host's (printed on stderr as "in-root: tmp is …"),
# so that a process on the host can reach a socket the root makes there. Exits with COMMAND's status.
# SUITE-plasma is the root SUITE with its Plasma layer stacked over it.
set -euo pipefail
checkout=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cache=${RESTD_TEST_ROOTS:-/var/cache/restd-test/roots}
suite=${1:?usage: scripts/in-root.sh SUITE [--bind HOST_DIR:ROOT_DIR]… -- COMMAND [ARG…]}
shift
binds=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
  case $1 in
    --bind) binds+=("$2"); shift 2 ;;
    *) echo "error: in-root.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[ "${1:-}" = -- ] || { echo "error: in-root.sh: no -- before the command" >&2; exit 2; }
shift
[ $# -gt 0 ] || { echo "error: in-root.sh: no command" >&2; exit 2; }
lower=$cache/${suite%-plasma}
[ -d "$lower/usr" ] || { echo "error: no Debian root $lower: run scripts/test-roots.sh $suite" >&2; exit 1; }
if [ "$suite" != "${suite%-plasma}" ]; then
  [ -f "$cache/$suite.stamp" ] || { echo "error: no Plasma layer $cache/$suite.layer: run scripts/test-roots.sh $suite" >&2; exit 1; }
  lower=$cache/$suite.layer:$lower
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/restd-root-$suite.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/upper" "$work/work" "$work/merged" "$work/tmp"
chmod 1777 "$work/tmp"
echo "in-root: tmp is $work/tmp" >&2

# Inside the namespace: the overlay, the kernel's file systems, the binds, then the command.
# Every mount dies with the namespace, so nothing needs unmounting on any exit path.
# shellcheck disable=SC2016 # expanded by the inner shell
unshare -m --propagation private bash -euc '
  lower=$1 work=$2 checkout=$3 nbinds=$4; shift 4
  m=$work/merged
  mount -t overlay overlay -o "lowerdir=$lower,upperdir=$work/upper,workdir=$work/work" "$m"
  mount -t proc proc "$m/proc"
  mount --rbind /dev "$m/dev"
  mount --rbind /sys "$m/sys"
  mount -t tmpfs tmpfs "$m/run"
  mount --bind "$work/tmp" "$m/tmp"
  mkdir -p "$m/src"
  mount --bind "$checkout" "$m/src"
  mount -o remount,bind,ro "$m/src"
  for ((i = 0; i < nbinds; i++)); do
    host=${1%%:*} inside=${1#*:}; shift
    mkdir -p "$m$inside"
    mount --bind "$host" "$m$inside"
  done
  [ "$1" = -- ] && shift
  exec chroot "$m" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/root LANG=C.UTF-8 TERM="${TERM:-dumb}" "$@"
' in-root "$lower" "$work" "$checkout" "${#binds[@]}" "${binds[@]}" -- "$@"
