#!/usr/bin/env bash
# Usage: scripts/run-on-session-bus.sh [--announce-once-owned NAME [--and-say LINE]] COMMAND [ARG…]
# Runs COMMAND on the session bus. When there is none that is usable
# (DBUS_SESSION_BUS_ADDRESS unset, or naming a unix:path= socket that does not
# exist, and no $XDG_RUNTIME_DIR/bus socket), it uses this user's private bus:
# one address that stays the same from run to run ($XDG_RUNTIME_DIR/restd-bus/bus,
# or ${TMPDIR:-/tmp}/restd-bus-UID/bus where there is no runtime directory), so the
# export line is pasted once. If another run of this script serves that bus,
# COMMAND runs on it; otherwise a dbus-daemon with a minimal configuration of its
# own is started there and stopped when COMMAND ends.
# With --announce-once-owned NAME, the lines for other terminals (the export line,
# COMMAND's pid, and LINE) are printed once COMMAND owns NAME on the bus, so nothing
# is announced for a command that gives up at start. Without it, the export line of a
# bus started here is printed at once.
# Exits with COMMAND's status; Ctrl-C (SIGINT to the process group, from the
# terminal) ends COMMAND, then the bus and this script, with status 0.

announce_name='' announce_also=''
if [ "${1:-}" = --announce-once-owned ]; then
  announce_name=$2
  shift 2
  if [ "${1:-}" = --and-say ]; then
    announce_also=$2
    shift 2
  fi
fi

session_bus_usable() {
  local address=${DBUS_SESSION_BUS_ADDRESS:-} path
  if [ -n "$address" ]; then
    case $address in
      unix:path=*)
        path=${address#unix:path=}
        path=${path%%[,;]*}
        [ -S "$path" ] && return 0
        ;;
      *) return 0 ;;
    esac
  fi
  if [ -n "${XDG_RUNTIME_DIR:-}" ] && [ -S "$XDG_RUNTIME_DIR/bus" ]; then
    export DBUS_SESSION_BUS_ADDRESS="unix:path=$XDG_RUNTIME_DIR/bus"
    return 0
  fi
  return 1
}

# This user's directory for the private bus, made if missing. Outside the runtime directory its
# name can be guessed, so another user could make it first: it is used only if it is a real
# directory (no symbolic link), this user's, with mode 0700.
private_bus_directory() {
  local base=${XDG_RUNTIME_DIR:-} dir
  if [ -n "$base" ] && [ -d "$base" ] && [ -w "$base" ]; then
    dir=$base/restd-bus
  else
    dir=${TMPDIR:-/tmp}/restd-bus-$(id -u)
  fi
  case $dir in *[!-A-Za-z0-9_/.]*) dir=/tmp/restd-bus-$(id -u) ;; esac  # keep the listen address free of escapes
  mkdir -m 0700 "$dir" 2>/dev/null
  if [ -L "$dir" ] || [ ! -d "$dir" ] || [ "$(stat -c '%u %a' "$dir")" != "$(id -u) 700" ]; then
    echo "error: $dir is not a directory of yours with mode 0700, so it cannot hold your private bus; remove it, or set XDG_RUNTIME_DIR or TMPDIR to a directory of yours." >&2
    return 1
  fi
  printf '%s\n' "$dir"
}

bus_pid='' filter_pid='' bus_dir='' export_line=''
if ! session_bus_usable; then
  command -v dbus-daemon >/dev/null || { echo "error: there is no session bus, and dbus-daemon was not found (run \`make deps\`)." >&2; exit 1; }
  bus_dir=$(private_bus_directory) || exit 1
  # Whoever holds the lock serves the bus; it is never handed to the bus or the command.
  exec 5>>"$bus_dir/lock"
  if ! flock -n 5; then
    exec 5>&-
    # Another run serves this user's bus: the command runs on it. It may be starting yet.
    for _ in $(seq 50); do [ -S "$bus_dir/bus" ] && break; sleep 0.1; done
    export DBUS_SESSION_BUS_ADDRESS="unix:path=$bus_dir/bus"
    bus_dir=''
  fi
fi

if [ -z "$bus_dir" ] && [ -z "$announce_name" ]; then
  exec "$@"
fi

# shellcheck disable=SC2317 # run by the EXIT trap, which shellcheck does not follow
stop_bus() {
  if [ -n "$bus_pid" ]; then
    kill "$bus_pid" 2>/dev/null || true
    wait "$bus_pid" 2>/dev/null || true
  fi
  # The filter of its messages ends with it: its last words are out before this script ends. It
  # is waited for a moment only: should anything else still hold the pipe, it is stopped.
  if [ -n "$filter_pid" ]; then
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$filter_pid" 2>/dev/null || break; sleep 0.1; done
    kill "$filter_pid" 2>/dev/null || true
    wait "$filter_pid" 2>/dev/null || true
  fi
  # The directory and its lock stay, for the next run at the same address.
  if [ -n "$bus_dir" ]; then rm -f "$bus_dir/bus" "$bus_dir/bus.conf" "$bus_dir/address"; fi
}
trap stop_bus EXIT
# Ctrl-C before the command runs ends the script, and the EXIT trap stops the bus.
trap 'exit 0' INT

if [ -n "$bus_dir" ]; then
  # A socket left by a run that was killed is nobody's now: the lock says so.
  rm -f "$bus_dir/bus" "$bus_dir/address"
  # The configuration of restd's private buses, beside this script, listening on this socket.
  config=$(<"$(dirname "${BASH_SOURCE[0]}")/private-bus.conf")
  printf '%s\n' "${config//@SOCKET@/"$bus_dir/bus"}" >"$bus_dir/bus.conf"
  mkfifo "$bus_dir/address"
  # dbus-daemon tries to raise its descriptor limit to 65536 and says so when it may not (a hard
  # limit below that and no CAP_SYS_RESOURCE): a bus for a few clients needs no such limit, so
  # that one line is dropped; anything else it says is passed on.
  exec 4> >(grep -v --line-buffered 'Failed to set fd limit' >&2 5>&-)
  filter_pid=$!
  dbus-daemon --config-file="$bus_dir/bus.conf" --nofork --nopidfile --print-address=3 \
    3>"$bus_dir/address" 2>&4 5>&- &
  bus_pid=$!
  exec 4>&-
  address=
  read -r -t 30 address <"$bus_dir/address" || true
  if [ -z "$address" ]; then
    echo "error: the private dbus-daemon did not start (see its messages above)." >&2
    exit 1
  fi
  # The address without the bus's guid, which changes at every start: the same line every time.
  export DBUS_SESSION_BUS_ADDRESS="unix:path=$bus_dir/bus"
  export_line="export DBUS_SESSION_BUS_ADDRESS=$DBUS_SESSION_BUS_ADDRESS"
fi

# The command runs as a child that keeps the terminal's stdin and Ctrl-C, which
# reaches it through the terminal as it reaches this script. The bus is stopped
# only once the command has exited. A child started with & ignores SIGINT and
# SIGQUIT (bash cannot undo that: `trap -` keeps what it inherited), so env puts
# them back to their defaults; a Ctrl-C in the instant before env has done so
# would still be lost, so this script passes every Ctrl-C on as TERM, one that
# came before the command's pid was known too. TERM sent to this script (say by
# make, when it is stopped) is passed on as well. A hang-up of the terminal is
# passed on as TERM too (a private bus must not outlive the terminal that started
# it), but a SIGHUP sent by hand while the terminal is there, meant for restd
# ("reload the configuration") and caught by a `pkill -HUP -f restd` that also
# matches this script's command line, is passed on as SIGHUP.
interrupted=''
trap 'interrupted=1' INT
env --default-signal=INT,QUIT "$@" <&0 5>&- &
command_pid=$!
stop_command() { kill -TERM "$command_pid" 2>/dev/null || true; }
# shellcheck disable=SC2317 # run by the HUP trap, which shellcheck does not follow
hang_up() {
  if (: </dev/tty) 2>/dev/null; then
    kill -HUP "$command_pid" 2>/dev/null || true
  else
    stop_command
  fi
}
trap 'interrupted=1; stop_command' INT
trap stop_command TERM
trap hang_up HUP
if [ -n "$interrupted" ]; then stop_command; fi

# Whether the command owns the name: another process may own it (a restd already serving there).
owns_name() {
  local owner
  owner=$(dbus-send --session --print-reply=literal --dest=org.freedesktop.DBus /org/freedesktop/DBus \
    org.freedesktop.DBus.GetConnectionUnixProcessID "string:$announce_name" 2>/dev/null) || return 1
  [ "${owner##* }" = "$command_pid" ]
}
if [ -n "$announce_name" ]; then
  until [ -n "$interrupted" ] || ! kill -0 "$command_pid" 2>/dev/null || owns_name; do
    sleep 0.05
  done
fi
if [ -z "$interrupted" ] && kill -0 "$command_pid" 2>/dev/null; then
  if [ -n "$export_line" ]; then
    echo "$export_line"
    echo "# No session bus was found, so this is your private one, at the same address every time: paste the line above into other terminals to reach it."
  fi
  if [ -n "$announce_name" ]; then
    echo "# $(basename "$1") runs as pid $command_pid: 'kill -HUP $command_pid' reloads its configuration; Ctrl-C stops it."
  fi
  if [ -n "$announce_also" ]; then echo "$announce_also"; fi
fi

# A trap returns from wait early, with 128 + the signal's number, so wait again while the command
# lives. Never wait for a command that has gone: bash may have reaped it in the wait a trap cut
# short, and lost its status, and a wait for it then would last as long as the bus.
while :; do
  wait "$command_pid"
  status=$?
  kill -0 "$command_pid" 2>/dev/null || break
done
# A person's Ctrl-C is a normal end.
if [ -n "$interrupted" ]; then exit 0; fi
exit "$status"
