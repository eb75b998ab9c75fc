#!/usr/bin/env bash
# Usage: scripts/compile-catalogs.sh LOCALE_DIR   (`make build`, `make build-tests`, `make release`)
# Compiles each language's catalog, po/LANG.po, to LOCALE_DIR/LANG/LC_MESSAGES/restd.mo
# (msgfmt --check), where restd and restctl find it: `make` passes the build's share/locale,
# beside its bin folder, as the installed /usr/share/locale is beside /usr/bin (Localization.start).
# `make install` compiles them again into the installed tree (scripts/install-files.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
locale_dir=${1:?usage: scripts/compile-catalogs.sh LOCALE_DIR}
for po in po/*.po; do
  [ -e "$po" ] || continue
  language=$(basename "$po" .po)
  mkdir -p "$locale_dir/$language/LC_MESSAGES"
  msgfmt --check --output-file="$locale_dir/$language/LC_MESSAGES/restd.mo" "$po"
done

# en@pseudo, for the tests only (never installed: scripts/install-files.sh compiles po/*.po):
# every text of the template, its own English wrapped in ⟦ ⟧. A test run in it that shows a
# word outside the marks has found a text that bypasses the catalog (PseudoLanguageTests).
mkdir -p "$locale_dir/en@pseudo/LC_MESSAGES"
msgen po/restd.pot \
  | sed -e '/^#, fuzzy$/d' -e 's/charset=CHARSET/charset=UTF-8/' -e 's/^"Language: .*"$/"Language: en@pseudo\\n"/' \
    -e 's/^"Plural-Forms: .*"$/"Plural-Forms: nplurals=2; plural=(n != 1);\\n"/' \
  | msgfilter --keep-header --input=- --output-file=- sed -z -e 's/^/⟦/' -e 's/$/⟧/' \
  | msgfmt --output-file="$locale_dir/en@pseudo/LC_MESSAGES/restd.mo" -
