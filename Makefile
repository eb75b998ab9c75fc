# restd — build, test and run.
#
# On a fresh Debian 12 machine with a Swift 6 toolchain on PATH (or unpacked
# at /opt/swift), `make run` and `make test` do all the set-up themselves:
# missing Debian packages are installed (with sudo when not root), and
# `make run` starts a private D-Bus session bus when there is none.
#
# Variables: ARGS (for restd, `make run ARGS=--verbose`), SWIFT_FLAGS (for
# every swift build/test, e.g. `-j 2`), TEST_FLAGS (for swift test, e.g.
# `--filter Harness`), BENCH_ARGS (for restd-bench, e.g. `--only 1,3`),
# SWIFT (the swift driver).

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

# Use the toolchain in /opt/swift when there is no swift on PATH.
ifeq ($(shell command -v swift 2>/dev/null),)
  ifneq ($(wildcard /opt/swift/usr/bin/swift),)
    export PATH := /opt/swift/usr/bin:$(PATH)
  endif
endif

SWIFT ?= swift
SWIFT_FLAGS ?=
TEST_FLAGS ?=
BENCH_ARGS ?=
ARGS ?=
CMD ?=

# Build headers and libraries, and the programs the tests and `make run` use.
export DEB_PACKAGES := libdbus-1-dev libsystemd-dev libsqlite3-dev pkg-config \
	dbus-daemon dbus-bin libglib2.0-bin systemd python3-dbusmock

# Where `swift build` puts the debug executables (asked at recipe time).
BIN_DIR = $$($(SWIFT) build --show-bin-path $(SWIFT_FLAGS))
# Release binaries carry the Swift runtime and Foundation statically: restd starts in a
# third of the time and keeps less resident, restctl starts faster (docs/PERFORMANCE.md).
RELEASE_FLAGS := -c release --static-swift-stdlib
RELEASE_BIN_DIR = $$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path $(SWIFT_FLAGS))

# Every benchmark scenario at a tiny size, on the debug build: a check that the harness
# still works (CI runs it in `make test`), not a measurement. Under a minute.
BENCH_SMOKE = "$(BIN_DIR)/restd-bench" --smoke --json .build/bench-smoke.json

.PHONY: help check-swift deps build release test bench bench-smoke run with-bus clean

help:
	@echo 'restd — make targets:'
	@echo '  make run [ARGS=--verbose]  build restd and run it in the foreground on the session bus'
	@echo '                             (on a private bus, whose address is printed, if there is none)'
	@echo '  make test [TEST_FLAGS=…]   build everything and run all tests'
	@echo '  make build                 debug build'
	@echo '  make release               release build (swift build -c release --static-swift-stdlib)'
	@echo '  make bench [BENCH_ARGS=…]  release build, then every benchmark; writes bench/results.json'
	@echo '  make bench-smoke           every benchmark at a tiny size on the debug build (part of make test)'
	@echo '  make deps                  install the missing Debian packages (apt-get, sudo if not root)'
	@echo '  make with-bus CMD="…"      run a command on the session bus, or on a private one'
	@echo '  make clean                 remove .build'
	@echo 'Variables: ARGS, SWIFT_FLAGS (e.g. -j 2), TEST_FLAGS (e.g. --filter Harness), SWIFT.'

check-swift:
	@bash -c 'eval "$$CHECK_SWIFT"' check-swift $(SWIFT)

deps: check-swift
	@bash -c 'eval "$$INSTALL_MISSING_PACKAGES"'

build: deps
	$(SWIFT) build $(SWIFT_FLAGS)

release: deps
	$(SWIFT) build $(RELEASE_FLAGS) $(SWIFT_FLAGS)

test: deps
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	RESTD_BIN_DIR="$(BIN_DIR)" $(SWIFT) test $(SWIFT_FLAGS) $(TEST_FLAGS)
	$(BENCH_SMOKE)

# restd-bench starts its own dbus-daemon and the restd built next to it; see docs/PERFORMANCE.md.
bench: release
	"$(RELEASE_BIN_DIR)/restd-bench" $(BENCH_ARGS)

bench-smoke: build
	$(BENCH_SMOKE)

run: build
	@bash -c 'eval "$$RUN_ON_SESSION_BUS"' make-run "$(BIN_DIR)/restd" $(ARGS)

with-bus:
ifeq ($(strip $(CMD)),)
	@echo 'usage: make with-bus CMD="command [args…]"' >&2; exit 2
endif
	@bash -c 'eval "$$RUN_ON_SESSION_BUS"' make-with-bus $(CMD)

clean:
	rm -rf .build

# --- Shell scripts used above (plain bash: make does not expand them) -------

# Usage: bash -c 'eval "$CHECK_SWIFT"' NAME SWIFT: fails with one sentence unless
# SWIFT is a Swift 6 (or later) driver.
define check_swift
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
endef

# Installs those of $DEB_PACKAGES that are not installed, and only then runs
# apt-get (update once, then install).
define install_missing_packages
if ! command -v dpkg-query >/dev/null; then
  echo "error: dpkg-query was not found: \`make deps\` installs packages on Debian only; install these yourself: $DEB_PACKAGES" >&2
  exit 1
fi
missing=()
for pkg in $DEB_PACKAGES; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  [ "$status" = "install ok installed" ] || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null; then
    echo "error: these Debian packages are missing and sudo was not found (run \`make deps\` as root): ${missing[*]}" >&2
    exit 1
  fi
  sudo=(sudo)
fi
echo "deps: installing missing Debian packages: ${missing[*]}"
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
endef

# Usage: bash -c 'eval "$RUN_ON_SESSION_BUS"' NAME COMMAND [ARG…]
# Runs COMMAND on the session bus. When there is none that is usable
# (DBUS_SESSION_BUS_ADDRESS unset, or naming a unix:path= socket that does not
# exist, and no $XDG_RUNTIME_DIR/bus socket), starts a private dbus-daemon
# with a minimal configuration of its own, prints the one line that points
# other terminals at it, runs COMMAND and stops the bus when COMMAND ends.
# Exits with COMMAND's status.
define run_on_session_bus
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
bus_pid=
stop_bus() {
  if [ -n "$bus_pid" ]; then
    kill "$bus_pid" 2>/dev/null || true
    wait "$bus_pid" 2>/dev/null || true
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
dbus-daemon --config-file="$bus_dir/bus.conf" --nofork --nopidfile --print-address=3 3>"$bus_dir/address" &
bus_pid=$!
address=
read -r -t 30 address <"$bus_dir/address" || true
if [ -z "$address" ]; then
  echo "error: the private dbus-daemon did not start (see its messages above)." >&2
  exit 1
fi
export DBUS_SESSION_BUS_ADDRESS=$address
echo "export DBUS_SESSION_BUS_ADDRESS=$address"
echo "# No session bus was found, so this is a private one: paste the line above into other terminals to reach it."

# The command runs as a child that keeps the terminal's stdin and Ctrl-C
# (which reaches it through the terminal); TERM and HUP sent to this script
# (say by make, when it is stopped) are passed on to it. The bus is stopped
# only once the command has exited.
( trap - INT QUIT; exec "$@" ) <&0 &
command_pid=$!
trap ':' INT
trap 'kill -TERM "$command_pid" 2>/dev/null || true' TERM
trap 'kill -HUP "$command_pid" 2>/dev/null || true' HUP
while kill -0 "$command_pid" 2>/dev/null; do
  wait "$command_pid" || true
done
wait "$command_pid"
endef

# Exported unexpanded ($(value …)), so the scripts above stay plain bash.
check-swift: export CHECK_SWIFT := $(value check_swift)
deps: export INSTALL_MISSING_PACKAGES := $(value install_missing_packages)
run with-bus: export RUN_ON_SESSION_BUS := $(value run_on_session_bus)
