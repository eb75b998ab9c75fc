#!/bin/sh
# Usage: plasma-widget-link [--root DIR] [--plasma-version N|none] PACKAGE_DIR PLASMOIDS_DIR
# Puts restd's Plasma widget, PACKAGE_DIR/io.restd.rest, into PLASMOIDS_DIR/io.restd.rest when
# Plasma 6 or later is installed; otherwise (no Plasma, or Plasma 5, which cannot load a Plasma 6
# widget and would list it anyway) takes it away.
#
# Plasma lists no widget whose folder is a symbolic link, and refuses a widget's file that resolves
# outside its folder: so PLASMOIDS_DIR/io.restd.rest is a real folder of hard links to the installed
# files (copies where PLASMOIDS_DIR is on another file system), marked as restd's by the empty file
# .restd-widget, and made afresh on every run (an upgrade replaces the files it links to).
#
# Installed as LIBEXECDIR/restd/plasma-widget-link; `make install` runs it, and so does the Debian
# package, at configure time and from its dpkg trigger on /usr/bin/plasmashell (Plasma installed,
# upgraded or removed, a dist-upgrade from Debian 12's Plasma 5 included). Plasma's version is
# dpkg's (plasma-workspace), else what `plasmashell --version` says; --plasma-version overrides
# both (none: as if no Plasma). --root prefixes every path (a DESTDIR). Plain sh: it runs in
# maintainer scripts.
set -eu
root=
plasma_version=
while [ $# -gt 2 ]; do
  case $1 in
    --root) root=$2; shift 2 ;;
    --plasma-version) plasma_version=$2; shift 2 ;;
    *) echo "plasma-widget-link: unknown option $1" >&2; exit 2 ;;
  esac
done
[ $# -eq 2 ] || { echo "usage: plasma-widget-link [--root DIR] [--plasma-version N|none] PACKAGE_DIR PLASMOIDS_DIR" >&2; exit 2; }
packages=$1 plasmoids=$2
id=io.restd.rest
target=$root$plasmoids/$id
marker=.restd-widget

# The installed Plasma's major version, or nothing.
if [ -z "$plasma_version" ]; then
  # shellcheck disable=SC2016 # a dpkg-query format, not a shell expansion
  state=$(dpkg-query -W -f='${db:Status-Abbrev}${Version}' plasma-workspace 2>/dev/null || true)
  case $state in
    # Wanted (or held) and unpacked (a trigger may run before Plasma is configured).
    [ih][iUFWt]*) plasma_version=$(printf '%s\n' "$state" | sed -E 's/^...([0-9]+:)?([0-9]+).*/\2/') ;;
    *) plasma_version=$(plasmashell --version 2>/dev/null | sed -nE 's/^plasmashell ([0-9]+).*/\1/p' || true) ;;
  esac
fi
[ "$plasma_version" != none ] || plasma_version=

# A folder there without the mark (installed by hand or from the KDE Store) is not ours: left alone.
if [ -d "$target" ] && [ ! -L "$target" ] && [ ! -f "$target/$marker" ]; then
  echo "plasma-widget-link: $target is not restd's: left as it is" >&2
  exit 0
fi
rm -rf "$target"
if [ -z "$plasma_version" ] || [ "$plasma_version" -lt 6 ]; then
  if [ -n "$plasma_version" ]; then
    echo "plasma-widget-link: restd's widget needs Plasma 6 or later, not $plasma_version, so it is not put into $plasmoids (see restd's KDE guide)"
  fi
  exit 0
fi
mkdir -p "$root$plasmoids"
tmp=$(mktemp -d "$root$plasmoids/.$id.XXXXXX")
if ! cp -Rl "$root$packages/$id/." "$tmp" 2>/dev/null; then
  rm -rf "$tmp" && mkdir "$tmp"
  cp -R "$root$packages/$id/." "$tmp"
fi
: >"$tmp/$marker"
chmod 755 "$tmp"
mv "$tmp" "$target"
echo "plasma-widget-link: $plasmoids/$id: restd's widget (Plasma $plasma_version)"
