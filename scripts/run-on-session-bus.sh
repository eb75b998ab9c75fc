#!/usr/bin/env bash
# Usage: scripts/run-on-session-bus.sh COMMAND [ARG…]
# Runs COMMAND on the session bus. When there is none that is usable
# (DBUS_SESSION_BUS_ADDRESS unset, or naming a unix:path= socket that does not
# exist, and no $XDG_RUNTIME_DIR/bus socket), starts a private dbus-daemon
# with a minimal configuration of its own, prints the one line that points
# other terminals at it, runs COMMAND and stops the bus when COMMAND ends.
# Exits with COMMAND's status. Ctrl-C (SIGINT to the process group, from the
# terminal) ends COMMAND, then the bus and this script.

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

if session_bus_usable; then
  exec "$@"
fi

command -v dbus-daemon >/dev/null || { echo "error: there is no session bus, and dbus-daemon was not found (run \`make deps\`)." >&2; exit 1; }

base=${XDG_RUNTIME_DIR:-}
if [ -z "$base" ] || [ ! -d "$base" ] || [ ! -w "$base" ]; then base=${TMPDIR:-/tmp}; fi
case $base in *[!-A-Za-z0-9_/.]*) base=/tmp ;; esac  # keep the listen address free of escapes
bus_dir=$(mktemp -d "$base/restd-bus.XXXXXX")
bus_pid='' filter_pid=''
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
  rm -rf "$bus_dir"
}
trap stop_bus EXIT

cat >"$bus_dir/bus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=$bus_dir/bus</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
CONF
mkfifo "$bus_dir/address"
# Ctrl-C before the command runs ends the script, and the EXIT trap stops the bus.
trap 'exit 130' INT
# dbus-daemon tries to raise its descriptor limit to 65536 and says so when it may not (a hard
# limit below that and no CAP_SYS_RESOURCE): a bus for a few clients needs no such limit, so
# that one line is dropped; anything else it says is passed on.
exec 4> >(grep -v --line-buffered 'Failed to set fd limit' >&2)
filter_pid=$!
dbus-daemon --config-file="$bus_dir/bus.conf" --nofork --nopidfile --print-address=3 3>"$bus_dir/address" 2>&4 &
bus_pid=$!
exec 4>&-
address=
read -r -t 30 address <"$bus_dir/address" || true
if [ -z "$address" ]; then
  echo "error: the private dbus-daemon did not start (see its messages above)." >&2
  exit 1
fi
export DBUS_SESSION_BUS_ADDRESS=$address
echo "export DBUS_SESSION_BUS_ADDRESS=$address"
echo "# No session bus was found, so this is a private one: paste the line above into other terminals to reach it."

# The command runs as a child that keeps the terminal's stdin and Ctrl-C, which
# reaches it through the terminal as it reaches this script. The bus is stopped
# only once the command has exited. A child started with & ignores SIGINT and
# SIGQUIT (bash cannot undo that: `trap -` keeps what it inherited), so env puts
# them back to their defaults; a Ctrl-C in the instant before env has done so
# would still be lost, so this script passes every Ctrl-C on as TERM, one that
# came before the command's pid was known too. TERM sent to this script (say by
# make, when it is stopped) is passed on as well, and so is a hang-up, as TERM:
# restd takes SIGHUP as "reload the configuration", but a private bus must not
# outlive the terminal that started it.
interrupted=''
trap 'interrupted=1' INT
env --default-signal=INT,QUIT "$@" <&0 &
command_pid=$!
stop_command() { kill -TERM "$command_pid" 2>/dev/null || true; }
trap stop_command INT TERM HUP
if [ -n "$interrupted" ]; then stop_command; fi
# A trap returns from wait early, with 128 + the signal's number, so wait again while the command
# lives. Never wait for a command that has gone: bash may have reaped it in the wait a trap cut
# short, and lost its status, and a wait for it then would last as long as the bus.
while :; do
  wait "$command_pid"
  status=$?
  kill -0 "$command_pid" 2>/dev/null || break
done
exit "$status"
