#!/usr/bin/env bash
# Usage: scripts/generate-man.sh SWIFT DATE OUTPUT_DIR
# Runs swift-argument-parser's generate-manual tool on the debug build of restctl and writes
# restctl.1 (one page, subcommands included) to OUTPUT_DIR, with the blank lines it leaves
# between paragraphs made into .Pp (mdoc warns of them). restd.1 is written by hand: restd
# reads its few options itself, without swift-argument-parser.
# generate-manual drops every non-ASCII character (…, →, ♥ in restctl's help), so it reads the
# help through a filter that writes each one as an ASCII placeholder (@u2026@), and the page
# gets them back as groff glyphs (\[u2026]), each with an ASCII form for a terminal without UTF-8.
# What the help cannot say (durations, output, JSON, environment, exit statuses, diagnostics) is
# written by hand in man/restctl-sections.mdoc and takes the place of generate-manual's generic
# EXIT STATUS (".Ex -std"), its line @EXIT-STATUS@ replaced by the table of
# man/restctl-exit-status.md, which the tests hold to restctl's own (ExitStatus.swift).
# The header and footer name restd's manuals, as restd.1 and restd.conf.5 do: `.Os restd VERSION`
# is the footer in every formatter, and groff 1.22 (Debian 12) would otherwise head every mdoc
# page "BSD General Commands Manual" whatever .Dt says, so its volume string is set after .Dt
# (other formatters ignore the string).

set -euo pipefail
swift=$1 date=$2 output=$3
for product in generate-manual restctl; do "$swift" build --product "$product" >/dev/null; done
bin=$("$swift" build --show-bin-path)
work=$(mktemp -d "${TMPDIR:-/tmp}/restd-man.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$output"
program=restctl
# generate-manual runs the program it is given with --experimental-dump-help; in C's locale, so
# that the page is English whatever the language of whoever runs `make man`.
# shellcheck disable=SC2016  # the filter's own "$@" and Perl's $1, written as they are
printf '#!/bin/sh\nLC_ALL=C "%s" "$@" | perl -CS -pe '"'"'s/([^\\x00-\\x7F])/sprintf("\\@u%%04X\\@", ord($1))/ge'"'"'\n' \
  "$bin/$program" >"$work/$program"
chmod +x "$work/$program"
"$bin/generate-manual" "$work/$program" --date "$date" --output-directory "$work" >/dev/null
man=$(dirname "$0")/../man
table=$man/restctl-exit-status.md sections=$man/restctl-sections.mdoc
{
  echo '.Bl -tag -width Ds'
  sed -n 's/^ *| \([0-9][0-9]*\) | \(.*\) |$/.It \1\n\2/p' "$table"
  echo '.El'
} >"$work/exit-status"
version=$("$bin/$program" --version)
grep -q '^\.It 76$' "$work/exit-status" || { echo "generate-man.sh: no exit status table in $table" >&2; exit 1; }
[ "$(grep -c '^@EXIT-STATUS@$' "$sections")" -eq 1 ] || { echo "generate-man.sh: no line @EXIT-STATUS@ in $sections" >&2; exit 1; }
# Whatever generate-manual writes after DESCRIPTION is replaced: check that it is only its EXIT STATUS.
[ "$(sed -n '/^\.Sh "EXIT STATUS"$/,$p' "$work/$program.1")" = "$(printf '.Sh "EXIT STATUS"\n.Ex -std')" ] \
  || { echo "generate-man.sh: generate-manual's page no longer ends with its EXIT STATUS alone" >&2; exit 1; }
{
  sed '/^\.Sh "EXIT STATUS"$/,$d' "$work/$program.1" | sed 's/^$/.Pp/' | perl -pe 's/\@u([0-9A-F]{4,6})\@/\\[u$1]/g'
  sed -e '/^\.\\"/d' -e "/^@EXIT-STATUS@\$/{r $work/exit-status" -e 'd}' "$sections"
} | sed -e '/^\.Dt /a .ds doc-volume restd Manual' -e "s/^\.Os\$/.Os restd $version/" >"$work/page"
# A terminal without UTF-8 (LANG unset, or C) has none of these glyphs: groff would warn and
# leave a gap, so each is given an ASCII form there, and one without a form here is an error.
declare -A ascii=([00B7]='.' [00D7]='x' [00F7]='/' [2014]='--' [2026]='...' [2192]='->' [2588]='#' [258C]='+'
  [2665]='<3')
fallbacks=''
while read -r code; do
  [ -n "${ascii[$code]:-}" ] || { echo "generate-man.sh: no ASCII form for U+$code in $program.1: add one" >&2; exit 1; }
  fallbacks+=".if !c\\[u$code] .char \\[u$code] ${ascii[$code]}"$'\n'
done < <(grep -o '\\\[u[0-9A-F]*\]' "$work/page" | sed 's/^\\\[u\(.*\)\]$/\1/' | sort -u)
FALLBACKS=$fallbacks awk '{ print } /^\.ds doc-volume / { printf "%s", ENVIRON["FALLBACKS"] }' "$work/page" \
  >"$output/$program.1"
grep -q "^\.Os restd $version\$" "$output/$program.1" || { echo "generate-man.sh: no .Os line in $program.1" >&2; exit 1; }
