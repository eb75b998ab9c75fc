#!/bin/sh
# Usage: gnome-extension-link [--root DIR] [--shell-version N|none] BUILDS_DIR EXTENSIONS_DIR
# Points EXTENSIONS_DIR/restd@restd.io at the build of restd's GNOME Shell extension, under
# BUILDS_DIR/{esm,legacy}/restd@restd.io, whose metadata.json lists the installed Shell's major
# version; where neither does (no GNOME Shell, 42 or older, a Shell newer than any build was tested
# with), the link is removed, so that it never points at a build the Shell would refuse.
#
# Installed as LIBEXECDIR/restd/gnome-extension-link; `make install` runs it, and so does the Debian
# package, at configure time and from its dpkg trigger on /usr/bin/gnome-shell (the Shell installed,
# upgraded or removed, a dist-upgrade included). The Shell's version is dpkg's, else what
# `gnome-shell --version` says; --shell-version overrides both (none: as if no Shell). --root
# prefixes every path (a DESTDIR). Plain sh: it runs in maintainer scripts.
set -eu
root=
shell_version=
while [ $# -gt 2 ]; do
  case $1 in
    --root) root=$2; shift 2 ;;
    --shell-version) shell_version=$2; shift 2 ;;
    *) echo "gnome-extension-link: unknown option $1" >&2; exit 2 ;;
  esac
done
[ $# -eq 2 ] || { echo "usage: gnome-extension-link [--root DIR] [--shell-version N|none] BUILDS_DIR EXTENSIONS_DIR" >&2; exit 2; }
builds=$1 extensions=$2
uuid=restd@restd.io
link=$root$extensions/$uuid

# The installed Shell's major version, or nothing.
if [ -z "$shell_version" ]; then
  # shellcheck disable=SC2016 # a dpkg-query format, not a shell expansion
  state=$(dpkg-query -W -f='${db:Status-Abbrev}${Version}' gnome-shell 2>/dev/null || true)
  case $state in
    # Wanted (or held) and unpacked (a trigger may run before the Shell is configured).
    [ih][iUFWt]*) shell_version=$(printf '%s\n' "$state" | sed -E 's/^...([0-9]+:)?([0-9]+).*/\2/') ;;
    *) shell_version=$(gnome-shell --version 2>/dev/null | sed -nE 's/^GNOME Shell ([0-9]+).*/\1/p' || true) ;;
  esac
fi
[ "$shell_version" != none ] || shell_version=

# The build whose metadata.json lists that version.
flavour=
if [ -n "$shell_version" ]; then
  for candidate in esm legacy; do
    metadata=$root$builds/$candidate/$uuid/metadata.json
    [ -f "$metadata" ] || continue
    if tr -d ' \n' <"$metadata" | grep -o '"shell-version":\[[^]]*\]' | grep -q "\"$shell_version\""; then
      flavour=$candidate
      break
    fi
  done
fi

# A real directory there (unpacked by hand, or from extensions.gnome.org) is not ours: left alone.
if [ -d "$link" ] && [ ! -L "$link" ]; then
  echo "gnome-extension-link: $link is a directory, not restd's link: left as it is" >&2
  exit 0
fi
if [ -z "$flavour" ]; then
  rm -f "$link"
  if [ -n "$shell_version" ]; then
    echo "gnome-extension-link: restd's extension was not tested with GNOME Shell $shell_version, so it is not linked (see restd's GNOME guide)"
  fi
  exit 0
fi
mkdir -p "$root$extensions"
ln -sfn "$(realpath -m --relative-to="$root$extensions" "$root$builds/$flavour/$uuid")" "$link"
echo "gnome-extension-link: $extensions/$uuid -> the $flavour build (GNOME Shell $shell_version)"
