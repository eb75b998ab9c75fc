#!/usr/bin/env bash
# Usage: scripts/build-gnome-extension.sh OUT_DIR
# Builds both forms of the GNOME Shell extension restd@restd.io from gnome-extension/src:
# OUT_DIR/esm/restd@restd.io (GNOME Shell 45 and later, the ES modules as written) and
# OUT_DIR/legacy/restd@restd.io (43 and 44, the modules translated by
# gnome-extension/tools/legacy.js), each with its own entry point (src/extension.esm.js or
# src/extension.legacy.js) as extension.js, its settings schema compiled and restd's catalogs
# (po/LANG.po) compiled into its own locale/LANG/LC_MESSAGES/restd.mo: GNOME Shell binds an
# extension's gettext-domain to its locale/ folder when it has one, so the extension speaks the
# language wherever it is installed (/usr, /usr/local, ~/.local or unpacked from a zip), while
# Shell looks only in its own prefix's share/locale otherwise.
set -euo pipefail
out=${1:?usage: scripts/build-gnome-extension.sh OUT_DIR}
# Relative to where it was called from, not to the checkout this script moves to.
out=$(realpath -m -- "$out")
cd "$(dirname "${BASH_SOURCE[0]}")/.."
rm -rf "$out"
gjs -m gnome-extension/tools/build.js gnome-extension/src "$out" >/dev/null
for flavour in esm legacy; do
  glib-compile-schemas --strict "$out/$flavour/restd@restd.io/schemas"
  scripts/compile-catalogs.sh "$out/$flavour/restd@restd.io/locale" restd
done
echo "built $out/esm/restd@restd.io (GNOME Shell 45+) and $out/legacy/restd@restd.io (43-44)"
