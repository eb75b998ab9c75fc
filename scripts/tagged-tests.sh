#!/usr/bin/env bash
# The tests that carry any of the given tags, as one regular expression for `swift test --filter`
# or `--skip`: the tags are declared beside the tests (Tests/IntegrationTests/Support/Tags.swift),
# and swift-testing itself lists them, so no list of names is kept by hand.
#
#   scripts/tagged-tests.sh BIN_DIR TAG…      e.g. scripts/tagged-tests.sh .build/debug realTime slow
#
# BIN_DIR holds the built test bundle (restdPackageTests.xctest). A suite's tag covers its tests.
# A tag that no test carries is an error, so that a misspelt tag (or a swift-testing whose list
# no longer shows tags) cannot make a run select nothing, or skip nothing, without a word.
set -euo pipefail

bin_dir=$1
shift
bundle=$bin_dir/restdPackageTests.xctest
[ -x "$bundle" ] || { echo "tagged-tests: no test bundle at $bundle (swift build --build-tests first)" >&2; exit 1; }
list=$(mktemp "${TMPDIR:-/tmp}/restd-tests.XXXXXX")
trap 'rm -f "$list"' EXIT
# The event stream's test records carry their tags ("_tags": not yet part of its schema).
"$bundle" --testing-library swift-testing --list-tests \
  --event-stream-output-path "$list" --event-stream-version 0 >/dev/null

ids=()
for tag in "$@"; do
  # One record per line; the id has no quotes, and its slashes are written \/.
  found=$(grep -F "\"kind\":\"test\"" "$list" | grep -F "\"_tags\":[" | grep -E "\"_tags\":\[[^]]*\"\.$tag\"" \
    | sed -E 's/.*"id":"([^"]*)".*/\1/; s#\\/#/#g' || true)
  [ -n "$found" ] || { echo "tagged-tests: no test is tagged .$tag" >&2; exit 1; }
  while IFS= read -r id; do ids+=("$id"); done <<<"$found"
done
# Each id whole (a suite's covers its tests), its regular expression characters escaped.
# shellcheck disable=SC2016 # the $ and ^ are the regular expression's, not the shell's
printf '%s\n' "${ids[@]}" | sort -u | sed -E 's/[][\.*^$(){}+?|]/\\&/g' | paste -sd '|' | sed -E 's/.*/^(&)$/'
