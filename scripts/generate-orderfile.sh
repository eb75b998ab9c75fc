#!/usr/bin/env bash
# Usage: scripts/generate-orderfile.sh RESTD OUTPUT
# Writes OUTPUT, the list of restd's functions that a day's use runs, for the
# linker to lay them out together (Package.swift: --symbol-ordering-file). The
# kernel maps a program's code in 64 KiB windows around each page it runs, so
# the hot code spread over restd's 6 MB of text cost ~6 MiB of idle RSS;
# packed together it costs a few windows (docs/PERFORMANCE.md, "Idle memory").
#
# RESTD runs under callgrind on a private bus: started on a new state, then
# restarted on it, as at every login; then asked what a desktop and a bar ask,
# and driven through timers, sets, live fields, history and stats. Every
# function of restd's own binary that ran is written once, mangled, in the
# order callgrind lists them. Functions that change later are dropped by the
# linker without harm; `make bench` shows what the layout saves.
set -euo pipefail

restd=$(realpath "$1")
output=$2
restctl=$(dirname "$restd")/restctl
command -v valgrind > /dev/null || { echo "generate-orderfile: valgrind is needed (apt-get install valgrind)" >&2; exit 1; }

work=$(mktemp -d /tmp/restd-orderfile.XXXXXX)
trap 'rm -rf "$work"' EXIT

cat > "$work/workload.sh" << 'EOF'
#!/usr/bin/env bash
set -euo pipefail
restd=$1 restctl=$2 work=$3
export XDG_CONFIG_HOME=$work/config
mkdir -p "$XDG_CONFIG_HOME"

wait_ready() {
  for _ in $(seq 300); do
    busctl --user call io.restd.Rest1 /io/restd/Rest1 org.freedesktop.DBus.Peer Ping > /dev/null 2>&1 && return 0
    sleep 0.1
  done
  echo "generate-orderfile: restd did not come up" >&2
  return 1
}

# The first start creates the state; the one measured is restarted on it.
"$restd" --state-dir "$work/state" 2> /dev/null &
wait_ready
kill $! && wait $! || true

valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/callgrind.out" \
  "$restd" --state-dir "$work/state" 2> "$work/valgrind.log" &
restd_pid=$!
wait_ready
busctl --user get-property io.restd.Rest1 /io/restd/Rest1 io.restd.Rest1.Manager Version > /dev/null
busctl --user call io.restd.Rest1 /io/restd/Rest1 org.freedesktop.DBus.ObjectManager GetManagedObjects > /dev/null
"$restctl" status > /dev/null 2>&1 || true
# What a login runs comes first in the layout: the profile so far is its own part.
callgrind_control --dump=login "$restd_pid" > /dev/null 2>&1
"$restctl" start 90 > /dev/null
"$restctl" list > /dev/null
"$restctl" status --json > /dev/null
"$restctl" pause > /dev/null
"$restctl" resume > /dev/null
"$restctl" add 30 > /dev/null
"$restctl" sub 10 > /dev/null
"$restctl" set --exercise squat --reps 5 --weight 100 > /dev/null
"$restctl" live --heart-rate 150 --done 1 --total 5 --exercise squat > /dev/null
"$restctl" set --reps 5 --weight 100 > /dev/null
"$restctl" skip > /dev/null
"$restctl" history --since 7d > /dev/null
"$restctl" stats --since 7d > /dev/null
"$restctl" live --end > /dev/null
"$restctl" cancel --all > /dev/null
kill "$restd_pid"
wait "$restd_pid" || true
EOF
chmod +x "$work/workload.sh"
dbus-run-session -- "$work/workload.sh" "$restd" "$restctl" "$work" 2> >(grep -v 'Failed to set fd limit' >&2)

# callgrind names each object (ob=) and function (fn=) once in full, then by
# number; keep the functions that ran inside restd's own binary.
python3 - "$restd" "$output" "$work/callgrind.out.1" "$work/callgrind.out" << 'EOF'
import re, sys
binary, output, *parts = sys.argv[1:]
objects, functions, current, ordered, seen = {}, {}, None, [], set()
entry = re.compile(r"^(ob|fn|cob|cfn)=\((\d+)\)(?: (.*))?$")
# The login's part, then the rest's; each part names what it numbers before using the number.
for line in (line for part in parts for line in open(part)):
    match = entry.match(line.rstrip("\n"))
    if not match:
        continue
    kind, number, name = match.groups()
    table = objects if kind.endswith("ob") else functions
    if name:
        table[number] = name
    if kind == "ob":
        current = objects[number]
    elif kind == "fn" and current == binary:
        symbol = functions[number].split("'")[0]  # "'2": callgrind's mark for a recursion depth
        if not symbol.startswith("0x") and symbol not in seen:
            seen.add(symbol)
            ordered.append(symbol)
if len(ordered) < 500:
    sys.exit(f"generate-orderfile: only {len(ordered)} functions of restd ran; is the profile complete?")
with open(output, "w") as file:
    file.write("\n".join(ordered) + "\n")
print(f"generate-orderfile: {len(ordered)} functions written to {output}")
EOF
