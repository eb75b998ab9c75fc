#!/usr/bin/env bash
# The TOML reader (Sources/TOML) against the TOML project's compliance suite, toml-test: every
# document of its TOML 1.0.0 list, the valid ones compared with their expected JSON, the invalid ones
# to be refused. Prints each failure and the counts; fails unless everything passes.
#
#   scripts/toml-conformance.sh SWIFT SUITE_DIR [SWIFT_FLAGS…]
#
# SUITE_DIR holds toml-test's files (`make toml-conformance` passes Tests/Data/toml-test, the copy
# kept in the repository). Builds only the toml-conformance program and the TOML module it reads with.
set -euo pipefail

swift=$1
suite=$2
shift 2

if [ ! -f "$suite/files-toml-1.0.0" ]; then
  echo "error: toml-test is not at $suite (no files-toml-1.0.0 there)" >&2
  exit 1
fi
"$swift" build --product toml-conformance "$@"
"$("$swift" build --show-bin-path "$@")/toml-conformance" "$suite"
