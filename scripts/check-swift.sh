#!/usr/bin/env bash
# Usage: scripts/check-swift.sh SWIFT: fails with one sentence unless
# SWIFT is a Swift 6 (or later) driver.

swift=$1
if ! command -v "$swift" >/dev/null; then
  echo "error: $swift was not found: install a Swift 6 toolchain and put its usr/bin on PATH (or unpack it at /opt/swift)." >&2
  exit 1
fi
version=$("$swift" --version 2>&1 || true)
if ! [[ $version =~ Swift\ version\ ([0-9]+)\. ]] || [ "${BASH_REMATCH[1]}" -lt 6 ]; then
  echo "error: Swift 6 or later is needed, but $(command -v "$swift") says: ${version%%$'\n'*}" >&2
  exit 1
fi
