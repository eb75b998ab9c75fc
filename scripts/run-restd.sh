#!/usr/bin/env bash
# Usage: scripts/run-restd.sh RESTD [ARG…]
# What `make run` does: checks restd's configuration first (`restd --check-config` with the same
# options), so that a broken file is told before a private bus is started and its address
# printed, then runs restd in the foreground on the session bus (scripts/run-on-session-bus.sh).

set -euo pipefail
restd=$1
shift
"$restd" --check-config "$@" >/dev/null
exec "$(dirname "$0")/run-on-session-bus.sh" "$restd" "$@"
