#!/usr/bin/env bash
# Usage: scripts/run-restd.sh RESTD [ARG…]
# What `make run` does: checks restd's configuration first (`restd --check-config` with the same
# options), so that a broken file is told before a private bus is started, then runs restd in
# the foreground on the session bus (scripts/run-on-session-bus.sh), which says once restd serves
# its pid, the private bus's address if there is one, and how to reach restctl and the man pages
# from this checkout.

set -euo pipefail
restd=$1
shift
"$restd" --check-config "$@" >/dev/null
checkout=$(cd "$(dirname "$0")/.." && pwd)
paths="export PATH=\"$(cd "$(dirname "$restd")" && pwd):\$PATH\" MANPATH=\"$checkout/man:\""
exec "$(dirname "$0")/run-on-session-bus.sh" --announce-once-owned io.restd.Rest1 \
  --and-say "# restctl and its man pages from this checkout, in another terminal: $paths" "$restd" "$@"
