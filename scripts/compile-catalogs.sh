#!/usr/bin/env bash
# Usage: scripts/compile-catalogs.sh LOCALE_DIR [DOMAIN]   (`make build`, `make build-tests`,
# `make release`, scripts/build-gnome-extension.sh)
# Compiles each language's catalog, po/LANG.po, to LOCALE_DIR/LANG/LC_MESSAGES/DOMAIN.mo
# (msgfmt --check; DOMAIN restd by default), where restd and restctl find it: `make` passes the
# build's share/locale, beside its bin folder, as the installed /usr/share/locale is beside
# /usr/bin (Localization.start); the GNOME extension's builds get theirs in their own locale/.
# `make install` compiles them again into the installed tree (scripts/install-files.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
locale_dir=${1:?usage: scripts/compile-catalogs.sh LOCALE_DIR [DOMAIN]}
domain=${2:-restd}
for po in po/*.po; do
  [ -e "$po" ] || continue
  language=$(basename "$po" .po)
  mkdir -p "$locale_dir/$language/LC_MESSAGES"
  msgfmt --check --output-file="$locale_dir/$language/LC_MESSAGES/$domain.mo" "$po"
done
