#!/usr/bin/env bash
# Usage: scripts/update-catalogs.sh [--check]   (`make pot`; with --check, part of `make lint`)
# Writes po/restd.pot, the template of every text a person reads, from the sources, and merges it
# into each language's po/LANG.po (msgmerge), where translators then fill in what is new.
#
# The Swift sources are read by GNU xgettext in its C mode: restd's texts are plain literals at
# the calls of Localization's Catalog (`localized("…", values…)`, `localizedPlural("…", "…",
# count: n, values…)`, `localizedInContext("context", "…")`), values by position (`%1$s`), and
# a `// TRANSLATORS:` comment right above a call goes to the translators. Locations are file
# names only, so that moving a line changes nothing here.
#
# --check writes nothing: it fails when po/restd.pot or a po/LANG.po is not what this would
# write (a text added or changed without `make pot`), or when a language has a text untranslated
# or fuzzy (msgfmt --check --statistics).
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C.UTF-8

check=false
[ "${1:-}" = --check ] && check=true

# Where translators report a text that is wrong: the package's maintainers.
bugs_address=$(sed -n 's/^Maintainer: .*<\(.*\)>$/\1/p' debian/control)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# xgettext's C mode reads Swift's one-line literals and comments as C's. A multi-line literal
# (""" … """) that is the argument of localized( (opened on the call's line or the next) becomes
# one C literal on its opening line, the text as Swift gives it at run time: the closing """'s
# indentation stripped from every line, lines joined by \n except after a line ending in a
# backslash, `"` escaped, Swift's escapes kept as C's. Its other lines, and every other multi-line literal, are blanked, so that a
# warning names the right line. Sorted, so that the template does not depend on find's order.
# shellcheck disable=SC2016 # awk's program, not the shell's
swift_literals_as_c='
function as_c(text,    out, i, c) {
  out = ""
  for (i = 1; i <= length(text); i++) {
    c = substr(text, i, 1)
    if (c == "\\") { out = out c substr(text, i + 1, 1); i++ }
    else if (c == "\"") { out = out "\\\"" }
    else { out = out c }
  }
  return out
}
function print_localized(    indent, i, line, text, joined, tail) {
  match(block[count], /^[ \t]*/)
  indent = substr(block[count], 1, RLENGTH)
  text = ""
  joined = 1
  for (i = 1; i < count; i++) {
    line = block[i]
    if (substr(line, 1, length(indent)) == indent) line = substr(line, length(indent) + 1)
    if (!joined) text = text "\\n"
    joined = 0
    if (match(line, /\\+$/) && RLENGTH % 2 == 1) { line = substr(line, 1, length(line) - 1); joined = 1 }
    text = text line
  }
  print opening "\"" as_c(text) "\""
  for (i = 1; i < count; i++) print ""
  tail = block[count]
  sub(/^[ \t]*"""/, "", tail)
  print tail
}
localized { block[++count] = $0; if ($0 ~ /"""/) { print_localized(); localized = 0 }; next }
!inside && (/localized\("""[ \t]*$/ || (call_open && /^[ \t]*"""[ \t]*$/)) {
  opening = $0; sub(/"""[ \t]*$/, "", opening); localized = 1; count = 0; call_open = 0; next
}
/"""/ { print ""; inside = !inside; call_open = 0; next }
{ print (inside ? "" : $0); call_open = !inside && /localized\([ \t]*$/ }
'
mapfile -t swift_files < <(find Sources -name '*.swift' | sort)
for file in "${swift_files[@]}"; do
  mkdir -p "$work/src/$(dirname "$file")"
  awk "$swift_literals_as_c" "$file" >"$work/src/$file"
done
(cd "$work/src" && xgettext --language=C --from-code=UTF-8 --add-comments=TRANSLATORS: --add-location=file \
  --sort-by-file --keyword= --keyword=localized:1 --keyword=localizedPlural:1,2 --keyword=localizedInContext:1c,2 \
  --package-name=restd --msgid-bugs-address="$bugs_address" \
  --output="$work/restd.pot" "${swift_files[@]}") 2>"$work/xgettext.log" || { cat "$work/xgettext.log" >&2; exit 1; }
# The GNOME extension's JavaScript in xgettext's JavaScript mode: its texts are literals at the
# calls of a `texts` object (gnome-extension/src/lib/format.js): `texts.gettext('…')`,
# `texts.ngettext('…', '…', n)`, `texts.pgettext('context', '…')`, values by position (`%1$s`).
# The Plasma widget's QML and modules in the same mode, with KDE's keywords (i18n("…"),
# i18nc("context", "…"), i18np, i18ncp; values as %1): its catalog is this one, compiled under
# the widget's domain plasma_applet_io.restd.rest. The widget's links to the extension's modules
# (contents/code/*.mjs that are symbolic links) are read once, as the extension's files. Joined to
# the Swift texts' template: a text of both ("ringing") is one entry, translated once.
mapfile -t gnome_files < <(find gnome-extension/src -name '*.js' | sort)
mapfile -t plasma_files < <(find plasma/io.restd.rest \( -name '*.qml' -o -name '*.mjs' \) -type f | sort)
xgettext --language=JavaScript --from-code=UTF-8 --add-comments=TRANSLATORS: --add-location=file \
  --keyword= --keyword=gettext:1 --keyword=ngettext:1,2 --keyword=pgettext:1c,2 \
  --keyword=i18n:1 --keyword=i18nc:1c,2 --keyword=i18np:1,2 --keyword=i18ncp:1c,2,3 \
  --package-name=restd --msgid-bugs-address="$bugs_address" \
  --join-existing --output="$work/restd.pot" "${gnome_files[@]}" "${plasma_files[@]}" 2>>"$work/xgettext.log" \
  || { cat "$work/xgettext.log" >&2; exit 1; }
# The widget's name and description in its metadata.json, which Plasma's widget list shows: KDE
# translates them as Name[LANG] and Description[LANG] keys there, which make install writes from
# po/LANG.po (scripts/install-files.sh). Read as JavaScript calls (a JSON string is a JavaScript
# one), under the metadata file's own name.
metadata=plasma/io.restd.rest/metadata.json
mkdir -p "$work/metadata/$(dirname "$metadata")"
for key in Name Description; do
  echo "// TRANSLATORS: the widget's $(tr '[:upper:]' '[:lower:]' <<<"$key") in Plasma's list of widgets."
  sed -n "s/^ *\"$key\": \(\".*\"\),\{0,1\}\$/i18n(\1);/p" "$metadata"
done >"$work/metadata/$metadata"
(cd "$work/metadata" && xgettext --language=JavaScript --from-code=UTF-8 --add-comments=TRANSLATORS: --add-location=file \
  --keyword= --keyword=i18n:1 --package-name=restd --msgid-bugs-address="$bugs_address" \
  --join-existing --output="$work/restd.pot" "$metadata") 2>>"$work/xgettext.log" || { cat "$work/xgettext.log" >&2; exit 1; }
if [ -s "$work/xgettext.log" ]; then
  # A warning is a text xgettext misread (a Swift escape or interpolation in a literal, say).
  cat "$work/xgettext.log" >&2
  exit 1
fi
# The creation date would change the file at every run.
sed -i '/^"POT-Creation-Date: /d' "$work/restd.pot"

status=0
if $check; then
  if ! cmp -s "$work/restd.pot" po/restd.pot; then
    echo "error: po/restd.pot is not what the sources say: run make pot (and translate what is new)" >&2
    diff -u po/restd.pot "$work/restd.pot" | head -n 40 >&2 || true
    status=1
  fi
else
  cp "$work/restd.pot" po/restd.pot
fi

for po in po/*.po; do
  [ -e "$po" ] || continue
  msgmerge --quiet --no-fuzzy-matching --add-location=file --sort-by-file --output-file="$work/merged.po" \
    "$po" "$work/restd.pot"
  if $check; then
    if ! cmp -s "$work/merged.po" "$po"; then
      echo "error: $po is not merged with the sources' texts: run make pot (and translate what is new)" >&2
      status=1
    fi
    statistics=$(msgfmt --check --statistics --output-file=/dev/null "$po" 2>&1) || { echo "$statistics" >&2; status=1; continue; }
    if grep -qE 'untranslated|fuzzy' <<<"$statistics"; then
      echo "error: $po: $statistics: every text needs its translation" >&2
      status=1
    fi
  else
    cp "$work/merged.po" "$po"
  fi
done
exit "$status"
