#!/usr/bin/env bash
# Usage: scripts/compile-catalogs.sh LOCALE_DIR [DOMAIN]   (`make build`, `make build-tests`,
# `make release`, scripts/build-gnome-extension.sh)
# Compiles each language's catalog, po/LANG.po, to LOCALE_DIR/LANG/LC_MESSAGES/DOMAIN.mo
# (msgfmt --check; DOMAIN restd by default), where restd and restctl find it: `make` passes the
# build's share/locale, beside its bin folder, as the installed /usr/share/locale is beside
# /usr/bin (Localization.start); the GNOME extension's builds get theirs in their own locale/, and
# the Plasma widget's install in its contents/locale (a DOMAIN given: the real languages only,
# since those folders are installed as they are).
# `make install` compiles them again into the installed tree (scripts/install-files.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
# msgfilter reads the catalogs in the locale's charset: UTF-8, whatever the caller's (CI sets none).
export LC_ALL=C.UTF-8
locale_dir=${1:?usage: scripts/compile-catalogs.sh LOCALE_DIR [DOMAIN]}
domain=${2:-}
for po in po/*.po; do
  [ -e "$po" ] || continue
  language=$(basename "$po" .po)
  mkdir -p "$locale_dir/$language/LC_MESSAGES"
  msgfmt --check --output-file="$locale_dir/$language/LC_MESSAGES/${domain:-restd}.mo" "$po"
done
[ -z "$domain" ] || exit 0

# en@pseudo, for the tests only (never installed: scripts/install-files.sh compiles po/*.po):
# every text of the template, its own English wrapped in ⟦ ⟧. A test run in it that shows a
# word outside the marks has found a text that bypasses the catalog (PseudoLanguageTests).
mkdir -p "$locale_dir/en@pseudo/LC_MESSAGES"
msgen po/restd.pot \
  | sed -e '/^#, fuzzy$/d' -e 's/charset=CHARSET/charset=UTF-8/' -e 's/^"Language: .*"$/"Language: en@pseudo\\n"/' \
    -e 's/^"Plural-Forms: .*"$/"Plural-Forms: nplurals=2; plural=(n != 1);\\n"/' \
  | msgfilter --keep-header --input=- --output-file=- sed -z -e 's/^/⟦/' -e 's/$/⟧/' \
  | msgfmt --output-file="$locale_dir/en@pseudo/LC_MESSAGES/restd.mo" -
