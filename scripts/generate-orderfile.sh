#!/usr/bin/env bash
# Usage: scripts/generate-orderfile.sh RESTD OUTPUT
# Writes OUTPUT, the functions of restd's own binary that a login and then
# common use run, for the linker to place together (Package.swift:
# --symbol-ordering-file; `make orderfile`). The kernel maps a program's code
# in 64 KiB windows around each page it runs, so restd's few hundred KiB of hot
# code, spread over its 6 MB of text, kept most of that text resident; placed
# together, far fewer windows are touched (docs/PERFORMANCE.md, "How restd is
# linked").
#
# RESTD runs twice under callgrind on a private bus, on a state it made at a
# first start. The login run: what a desktop and a bar ask at login. The use
# run: the same, then timers (one ends, with its notification), sets, live
# fields, history, stats and a reload. The login's functions come first, then
# the use run's others, each once, mangled, in the order callgrind lists them.
# A name the binary no longer has is ignored by the linker.
set -euo pipefail

restd=$(realpath "$1")
output=$2
restctl=$(dirname "$restd")/restctl
for tool in valgrind busctl dbus-run-session python3; do
  command -v "$tool" > /dev/null || { echo "generate-orderfile: $tool is needed (make orderfile installs valgrind)" >&2; exit 1; }
done

work=$(mktemp -d /tmp/restd-orderfile.XXXXXX)
trap 'rm -rf "$work"' EXIT

cat > "$work/run.sh" << 'EOF'
#!/usr/bin/env bash
# Usage: run.sh RESTD RESTCTL WORK login|use — on a private bus.
set -euo pipefail
restd=$1 restctl=$2 work=$3 phase=$4
export XDG_CONFIG_HOME=$work/config
mkdir -p "$XDG_CONFIG_HOME"
restd_pid=
trap '[ -z "$restd_pid" ] || { kill "$restd_pid" 2> /dev/null; wait "$restd_pid" 2> /dev/null; } || true' EXIT

wait_ready() {
  for _ in $(seq 300); do
    busctl --user call io.restd.Rest1 /io/restd/Rest1 org.freedesktop.DBus.Peer Ping > /dev/null 2>&1 && return 0
    sleep 0.1
  done
  echo "generate-orderfile: restd did not come up (see $work/valgrind-$phase.log)" >&2
  cat "$work/valgrind-$phase.log" >&2 || true
  return 1
}

# The state of a first start: the runs measured are restarts on it, as at every login.
if [ ! -d "$work/state" ]; then
  "$restd" --state-dir "$work/state" 2> /dev/null &
  restd_pid=$!
  wait_ready
  kill "$restd_pid"
  wait "$restd_pid" || true
fi

valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/callgrind-$phase.out" \
  "$restd" --state-dir "$work/state" 2> "$work/valgrind-$phase.log" &
restd_pid=$!
wait_ready
busctl --user get-property io.restd.Rest1 /io/restd/Rest1 io.restd.Rest1.Manager Version > /dev/null
busctl --user call io.restd.Rest1 /io/restd/Rest1 org.freedesktop.DBus.ObjectManager GetManagedObjects > /dev/null
"$restctl" status > /dev/null 2>&1 || true
if [ "$phase" = use ]; then
  "$restctl" start 90 > /dev/null
  "$restctl" list > /dev/null
  "$restctl" status --json > /dev/null
  "$restctl" pause > /dev/null
  "$restctl" toggle > /dev/null
  "$restctl" add 30 > /dev/null
  "$restctl" sub 10 > /dev/null
  "$restctl" restart > /dev/null
  "$restctl" start 1 --id short > /dev/null
  timeout 60 "$restctl" wait --id short > /dev/null
  "$restctl" set --exercise squat --reps 5 --weight 100 > /dev/null
  "$restctl" live --heart-rate 150 --done 1 --total 5 --exercise squat > /dev/null
  "$restctl" set --reps 5 --weight 100 > /dev/null
  "$restctl" skip > /dev/null
  "$restctl" history --since 7d > /dev/null
  "$restctl" stats --since 7d > /dev/null
  "$restctl" live --end > /dev/null
  kill -HUP "$restd_pid"
  "$restctl" clear > /dev/null
  "$restctl" cancel --all > /dev/null
fi
kill "$restd_pid"
wait "$restd_pid" || true
restd_pid=
EOF
chmod +x "$work/run.sh"
for phase in login use; do
  dbus-run-session -- "$work/run.sh" "$restd" "$restctl" "$work" "$phase" 2> >(grep -v 'Failed to set fd limit' >&2)
done

# callgrind names each object (ob=) and function (fn=) in full once, then by
# number; keep the functions that ran inside restd's own binary.
python3 - "$restd" "$output" "$work/callgrind-login.out" "$work/callgrind-use.out" << 'EOF'
import re, sys
binary, output, *profiles = sys.argv[1:]
ordered, seen = [], set()
entry = re.compile(r"^(ob|fn|cob|cfn)=\((\d+)\)(?: (.*))?$")
for profile in profiles:
    objects, functions, current = {}, {}, None
    for line in open(profile):
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
            # Addresses without a symbol, and valgrind's own names such as "(below main)".
            if symbol.startswith(("0x", "(")) or symbol in seen:
                continue
            seen.add(symbol)
            ordered.append(symbol)
if len(ordered) < 500:
    sys.exit(f"generate-orderfile: only {len(ordered)} functions of restd ran; is the profile complete?")
with open(output, "w") as file:
    file.write("\n".join(ordered) + "\n")
print(f"generate-orderfile: {len(ordered)} functions written to {output}")
EOF
