#!/usr/bin/env bash
# Usage: scripts/check-docs.sh [FILE…]   (part of `make lint`)
# Checks the Markdown pages (README.md, CONTRIBUTING.md, docs/*.md; those files when none are
# given), failing with one FILE:LINE line per problem.
#
# Links: every relative link, `](path)` or `](path#anchor)`, names a file or directory that
# exists (relative to the page), and an anchor in a Markdown page is one of its headings (as
# GitHub writes them: lower case, punctuation dropped, spaces as hyphens, -1 and -2 after a
# repeated heading) or an `<a id="…">`. Links in code (fenced blocks, `spans`) are not links.
#
# Copies: the guides link to the references rather than copy their tables, so a Markdown table
# row fails that copies what a man page or the interface contract owns:
#   - a row whose first cell is an option of restctl or restd (| `--label` | …), the options read
#     from man/man1/restctl.1 and man/man1/restd.1;
#   - a row whose first cell is a configuration key (| `max_timers` | …), the keys read from the
#     KEYS of man/man5/restd.conf.5;
#   - a row of restctl's exit-status table, man/restctl-exit-status.md;
#   - a row whose first cell declares an io.restd.Rest1 member, a method or signal with its
#     arguments (| `Pause(s id)` | …) or a member the next cell calls a method, signal or property
#     (| `Version` | property s | …), the members read from dbus/io.restd.Rest1.xml.

set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$#" -gt 0 ]; then files=("$@"); else files=(README.md CONTRIBUTING.md docs/*.md); fi
export LC_ALL=C

options=$(grep -ohE '^\.It Fl (h , Fl )?-[a-z][a-z-]*' man/man1/restctl.1 man/man1/restd.1 | grep -oE -- '-[a-z][a-z-]*$' | sort -u | sed 's/^/-/')
keys=$(sed -n '/^\.Sh KEYS$/,/^\.Sh /s/^\.It Ic \([a-z_.]*\) No .*/\1/p' man/man5/restd.conf.5)
exit_rows=$(sed -n 's/^ *\(| [0-9][0-9]* | .* |\)$/\1/p' man/restctl-exit-status.md)
members=$(grep -oE '<(method|signal|property) name="[A-Za-z]+"' dbus/io.restd.Rest1.xml | grep -oE '"[A-Za-z]+"' | tr -d '"' | sort -u)
for list in options keys exit_rows members; do
  [ -n "${!list}" ] || { echo "check-docs.sh: found no $list to check against" >&2; exit 2; }
done

# The page's lines outside fenced code blocks.
prose() { awk '/^[ \t]*```/ { fenced = !fenced; next } !fenced' "$1"; }

# "LINE<TAB>TARGET" for each relative link of a page, inline code left out.
links() {
  awk '
    /^[ \t]*```/ { fenced = !fenced; next }
    fenced { next }
    {
      line = $0; gsub(/`[^`]*`/, "", line)
      while (match(line, /\]\([^)]*\)/)) {
        target = substr(line, RSTART + 2, RLENGTH - 3); line = substr(line, RSTART + RLENGTH)
        sub(/[ \t].*/, "", target)
        if (target != "" && target !~ /^[A-Za-z][A-Za-z0-9+.-]*:/) print FNR "\t" target
      }
    }' "$1"
}

# The anchors of a page, one a line: its headings' and its <a id="…">s. Characters from U+2000 to
# U+2FFF (dashes, arrows, symbols) are dropped like ASCII punctuation; other non-ASCII is kept.
anchors() {
  prose "$1" | awk '
    {
      line = $0
      while (match(line, /<a [^>]*(id|name)="[^"]+"/)) {
        anchor = substr(line, RSTART, RLENGTH); sub(/.*="/, "", anchor); sub(/"$/, "", anchor); print anchor
        line = substr(line, RSTART + RLENGTH)
      }
    }
    /^#+ / {
      slug = $0; sub(/^#+ +/, "", slug); sub(/ +#* *$/, "", slug); slug = tolower(slug)
      gsub(/\342[\200-\277][\200-\277]/, "", slug); gsub(/[^a-z0-9 _\200-\377-]/, "", slug); gsub(/ /, "-", slug)
      if (slug in seen) print slug "-" seen[slug]++; else { seen[slug] = 1; print slug }
    }'
}

declare -A anchors_of
check_links() {
  local file=$1 line target path anchor resolved
  while IFS=$'\t' read -r line target; do
    path=${target%%#*} anchor=
    [[ $target == *#* ]] && anchor=${target#*#}
    resolved=$file
    [ -n "$path" ] && resolved=$(dirname "$file")/$path
    if [ ! -e "$resolved" ]; then
      echo "$file:$line: the link $target names no file"
      status=1
    elif [ -n "$anchor" ] && [[ $resolved == *.md ]]; then
      [ -n "${anchors_of[$resolved]+set}" ] || anchors_of[$resolved]=$(anchors "$resolved")
      if ! grep -qxF -- "$anchor" <<<"${anchors_of[$resolved]}"; then
        echo "$file:$line: the link $target names no heading or anchor of $resolved"
        status=1
      fi
    fi
  done < <(links "$file")
}

status=0
for file in "${files[@]}"; do
  check_links "$file"
  awk -v file="$file" \
    -v options="$options" -v keys="$keys" -v exit_rows="$exit_rows" -v members="$members" '
    BEGIN {
      split(options, list, "\n"); for (i in list) option[list[i]] = 1
      split(keys, list, "\n"); for (i in list) key[list[i]] = 1
      split(exit_rows, list, "\n"); for (i in list) exit_row[list[i]] = 1
      split(members, list, "\n"); for (i in list) member[list[i]] = 1
    }
    function trim(text) { gsub(/^[ \t]+|[ \t]+$/, "", text); return text }
    function report(line, what) { printf "%s:%d: %s; link to the man page instead\n", file, line, what; found = 1 }
    function check(row, line,    cells, first, second, name, words, word, declared) {
      if (row in exit_row) { report(line, "copies a row of restctl(1)'"'"'s exit statuses"); return }
      split(row, cells, "|")
      first = trim(cells[2]); second = trim(cells[3])
      name = first; gsub(/`/, "", name); name = trim(name)
      split(name, words, /[ =]/)
      if (words[1] in option) { report(line, "copies the option " words[1] " of restctl(1) or restd(1)"); return }
      if (name in key) { report(line, "copies the configuration key " name " of restd.conf(5)"); return }
      if (match(first, /^`?[A-Za-z]+/)) {
        word = substr(first, RSTART, RLENGTH); sub(/^`/, "", word)
        declared = substr(first, RSTART + RLENGTH, 1) == "("
        if ((word in member) && (declared || second ~ /^(method|signal|propert)/)) {
          report(line, "copies the io.restd.Rest1 member " word " of io.restd.Rest1(5)")
        }
      }
    }
    # A row is checked once the next line shows it is not a header (a header row is followed by
    # the |---| row): a table of the formats of --format is not a table of options.
    {
      if (pending != "" && trim($0) !~ /^\|[-:| ]+\|$/) check(pending, pending_line)
      pending = ""
      if ($0 ~ /^[ \t]*\|/) { pending = trim($0); pending_line = FNR }
    }
    END { if (pending != "") check(pending, pending_line); exit found }
  ' "$file" || status=1
done
exit "$status"
