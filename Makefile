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
# SWIFT (the swift driver), NO_DEPS=1 (install no Debian packages; debian/rules
# sets it, since dpkg-checkbuilddeps has checked Build-Depends).
#
# Install: `make install` (PREFIX=/usr/local), `make install PREFIX=$HOME/.local`
# for one user; DESTDIR is honoured; `make uninstall` with the same variables
# removes what it put there. Every directory below can be overridden.

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

# Build headers and libraries, the programs the tests and `make run` use, and what
# `make deb` needs (debhelper, dpkg-dev, lintian).
export DEB_PACKAGES := libdbus-1-dev libsystemd-dev libsqlite3-dev pkg-config \
	dbus-daemon dbus-bin libglib2.0-bin systemd tzdata python3-dbusmock python3-gi playerctl man-db desktop-file-utils \
	debhelper dpkg-dev lintian
NO_DEPS ?=

# Where `swift build` puts the debug executables (asked at recipe time).
BIN_DIR = $$($(SWIFT) build --show-bin-path $(SWIFT_FLAGS))
# Release binaries carry the Swift runtime and Foundation statically: restd starts in a
# third of the time and keeps less resident, restctl starts faster (docs/PERFORMANCE.md).
RELEASE_FLAGS := -c release --static-swift-stdlib
RELEASE_BIN_DIR = $$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path $(SWIFT_FLAGS))

# `$(RUN_TESTS) LOG swift test …`: runs the tests with their output also kept in LOG; when
# anything fails, the failures are printed once more at the very end, where the tail of a
# long CI log still shows which test it was and why.
RUN_TESTS = run_tests() { \
	  local log=$$1; shift; mkdir -p "$$(dirname "$$log")"; \
	  "$$@" 2>&1 | tee "$$log" && return 0; local status=$$?; \
	  echo; echo "=== what failed (the whole output is in $$log) ==="; \
	  grep -E -A6 '✘|error:|Fatal error|Test crashed|Exited with' "$$log" | grep -v '^✔' | tail -n 120; \
	  return $$status; \
	}; run_tests

# Every benchmark scenario at a tiny size, on the debug build: a check that the harness
# still works (CI runs it in `make test`), not a measurement. Under a minute.
BENCH_SMOKE = "$(BIN_DIR)/restd-bench" --smoke --json .build/bench-smoke.json

# --- Install layout ----------------------------------------------------------
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
# systemd looks for user units in /usr/lib and /usr/local/lib, but under ~/.local
# only in ~/.local/share/systemd/user.
ifeq ($(patsubst %/,%,$(PREFIX)),$(HOME)/.local)
  USERUNITDIR ?= $(DATADIR)/systemd/user
else
  USERUNITDIR ?= $(PREFIX)/lib/systemd/user
endif
DBUSSERVICEDIR ?= $(DATADIR)/dbus-1/services
DBUSINTERFACEDIR ?= $(DATADIR)/dbus-1/interfaces
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
ZSHCOMPDIR ?= $(DATADIR)/zsh/site-functions
FISHCOMPDIR ?= $(DATADIR)/fish/vendor_completions.d
APPLICATIONSDIR ?= $(DATADIR)/applications
# release: optimised, with the Swift runtime linked in (--static-swift-stdlib), so the
# installed programs do not depend on where the toolchain is. debug: the test build
# as it is (what `make install-check` installs, to spare CI a release build).
INSTALL_CONFIG ?= release
ifeq ($(INSTALL_CONFIG),release)
  INSTALL_BUILD_FLAGS := -c release --static-swift-stdlib
else ifeq ($(INSTALL_CONFIG),debug)
  INSTALL_BUILD_FLAGS :=
else
  $(error INSTALL_CONFIG must be release or debug, not $(INSTALL_CONFIG))
endif
# The date written into the man pages `make man` generates (kept fixed, so that
# regenerating unchanged help gives identical files).
MAN_DATE ?= 2026-11-21

.PHONY: help check-swift deps build release test test-calendar test-asan bench bench-smoke run with-bus clean install uninstall
.PHONY: install-check man deb deb-check format lint

# The Debian package `make deb` builds (version from debian/changelog, architecture from dpkg).
DEB_VERSION = $$(dpkg-parsechangelog -S Version)
DEB_FILE = restd_$(DEB_VERSION)_$$(dpkg --print-architecture).deb

help:
	@echo 'restd — make targets:'
	@echo '  make run [ARGS=--verbose]  build restd and run it in the foreground on the session bus'
	@echo '                             (on a private bus, whose address is printed, if there is none)'
	@echo '  make test [TEST_FLAGS=…]   build everything and run all tests (then again under ASan)'
	@echo '  make test-asan             the tests under AddressSanitizer only'
	@echo '  make test-calendar         the tests that read times, on other days and in other zones (part of make test)'
	@echo '  make build                 debug build'
	@echo '  make release               release build (swift build -c release --static-swift-stdlib)'
	@echo '  make bench [BENCH_ARGS=…]  release build, then every benchmark; writes bench/results.json'
	@echo '  make bench-smoke           every benchmark at a tiny size on the debug build (part of make test)'
	@echo '  make deps                  install the missing Debian packages (apt-get, sudo if not root)'
	@echo '  make install [PREFIX=…]    release build, then install programs, unit, activation file,'
	@echo '                             interface, completions and man pages (PREFIX=/usr/local; DESTDIR too)'
	@echo '  make uninstall [PREFIX=…]  remove what make install put there'
	@echo '  make install-check         install the debug build into a temporary DESTDIR and check the tree'
	@echo '  make deb                   build restd_<version>_<arch>.deb here (debian/, static release), run lintian'
	@echo '  make deb-check             make deb, dpkg -i it, test the installed restd under a systemd user'
	@echo '                             manager, dpkg -r and --purge it, check nothing is left (root; part of make test)'
	@echo '  make format                rewrite the Swift sources in the project'"'"'s layout (swift-format)'
	@echo '  make lint                  check the layout (part of make test)'
	@echo '  make man                   regenerate man/man1/restctl.1 with swift-argument-parser'"'"'s generate-manual'
	@echo '  make with-bus CMD="…"      run a command on the session bus, or on a private one'
	@echo '  make clean                 remove .build'
	@echo 'Variables: ARGS, SWIFT_FLAGS (e.g. -j 2), TEST_FLAGS (e.g. --filter Harness), BENCH_ARGS, SWIFT.'

check-swift:
	@bash -c 'eval "$$CHECK_SWIFT"' check-swift $(SWIFT)

deps: check-swift
ifeq ($(NO_DEPS),)
	@bash -c 'eval "$$INSTALL_MISSING_PACKAGES"'
endif

build: deps
	$(SWIFT) build $(SWIFT_FLAGS)

release: deps
	$(SWIFT) build $(RELEASE_FLAGS) $(SWIFT_FLAGS)

test: deps lint
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	$(RUN_TESTS) .build/test.log env RESTD_BIN_DIR="$(BIN_DIR)" $(SWIFT) test $(SWIFT_FLAGS) $(TEST_FLAGS)
	scripts/test-calendar.sh $(SWIFT) "$(BIN_DIR)" $(SWIFT_FLAGS)
	$(BENCH_SMOKE)
	$(MAKE) --no-print-directory install-check
	$(MAKE) --no-print-directory deb-check
	$(MAKE) --no-print-directory test-asan

# The tests that read the clock, the calendar or the locale, again on other days, in UTC+14 and
# UTC-11 and in German (scripts/test-calendar.sh says which and how); part of `make test`.
test-calendar: deps
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	scripts/test-calendar.sh $(SWIFT) "$(BIN_DIR)" $(SWIFT_FLAGS)

# The code's layout is swift-format's, with the project's .swift-format (120 columns, 4 spaces);
# `make format` rewrites the sources, `make lint` (part of `make test`) fails on any difference.
SWIFT_FORMAT ?= $(shell command -v swift-format 2>/dev/null || echo "$(SWIFT) format")
FORMATTED := Package.swift Sources Tests
format:
	$(SWIFT_FORMAT) format --in-place --recursive --parallel $(FORMATTED)
lint:
	$(SWIFT_FORMAT) lint --strict --recursive --parallel $(FORMATTED)

# The whole suite once more under AddressSanitizer, against an instrumented restd and restctl
# (a build folder of its own). Leak detection is off: at exit the Swift runtime and XCTest hold
# allocations that LeakSanitizer reports, and that would change the exit statuses the tests
# check. RSS means nothing under ASan's quarantine, so the tests leave memory growth to the
# plain run when RESTD_SANITIZER is set.
ASAN_FLAGS = --sanitize=address --scratch-path .build-asan
test-asan: deps
	$(SWIFT) build --build-tests $(ASAN_FLAGS) $(SWIFT_FLAGS)
	$(RUN_TESTS) .build-asan/test.log env RESTD_SANITIZER=address ASAN_OPTIONS=detect_leaks=0 \
	RESTD_BIN_DIR="$$($(SWIFT) build $(ASAN_FLAGS) --show-bin-path)" \
	$(SWIFT) test --skip-build $(ASAN_FLAGS) $(SWIFT_FLAGS) $(TEST_FLAGS)

# The install layout, for the install script (passed explicitly rather than exported,
# so that the sub-makes of install-check compute their own).
INSTALL_DIRS = DESTDIR='$(DESTDIR)' BINDIR='$(BINDIR)' USERUNITDIR='$(USERUNITDIR)' \
	DBUSSERVICEDIR='$(DBUSSERVICEDIR)' DBUSINTERFACEDIR='$(DBUSINTERFACEDIR)' BASHCOMPDIR='$(BASHCOMPDIR)' \
	ZSHCOMPDIR='$(ZSHCOMPDIR)' FISHCOMPDIR='$(FISHCOMPDIR)' MANDIR='$(MANDIR)' APPLICATIONSDIR='$(APPLICATIONSDIR)'

# Builds (release unless INSTALL_CONFIG=debug) and installs every file.
install: deps
	$(SWIFT) build $(INSTALL_BUILD_FLAGS) $(SWIFT_FLAGS)
	@$(INSTALL_DIRS) bash -c 'eval "$$INSTALL_FILES"' make-install install "$$($(SWIFT) build $(INSTALL_BUILD_FLAGS) $(SWIFT_FLAGS) --show-bin-path)"

uninstall:
	@$(INSTALL_DIRS) bash -c 'eval "$$INSTALL_FILES"' make-uninstall uninstall

# Installs the debug build into a temporary DESTDIR (twice: PREFIX=/usr/local and
# PREFIX=$$HOME/.local), checks the tree, uninstalls, and checks nothing is left;
# also checks that man/man1 matches what `make man` would generate now.
install-check: deps
	@bash -c 'eval "$$INSTALL_CHECK"' install-check "$(MAKE)" "$(SWIFT)" "$(MAN_DATE)"

man: deps
	@bash -c 'eval "$$GENERATE_MAN"' make-man "$(SWIFT)" "$(MAN_DATE)" man/man1

# The Debian way, without dpkg-buildpackage only so that the .deb lands here rather than in
# the parent directory (with it: `dpkg-buildpackage -b -us -uc` puts it in ..). debian/rules
# runs `make release` and `make install DESTDIR=debian/restd PREFIX=/usr`.
deb: deps
	dpkg-checkbuilddeps
	debian/rules clean
	DEB_DESTDIR="$(CURDIR)" debian/rules binary
	lintian --fail-on error,warning "$(DEB_FILE)"
	@echo "built $(DEB_FILE): sudo apt install ./$(DEB_FILE)"

# Installs the package into this machine (root only: CI), runs SystemdUserManagerTests against
# the installed /usr/bin/restd and unit, removes and purges it, and checks what is left.
deb-check: deb
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	@bash -c 'eval "$$DEB_CHECK"' deb-check "$(DEB_FILE)" "$(DEB_VERSION)" "$(SWIFT)" "$(BIN_DIR)" $(SWIFT_FLAGS)

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
# (which reaches it through the terminal); TERM sent to this script (say by
# make, when it is stopped) is passed on to it, and so is a hang-up, as TERM:
# restd takes SIGHUP as "reload the configuration", but a private bus must not
# outlive the terminal that started it. The bus is stopped only once the
# command has exited.
( trap - INT QUIT; exec "$@" ) <&0 &
command_pid=$!
trap ':' INT
trap 'kill -TERM "$command_pid" 2>/dev/null || true' TERM
trap 'kill -TERM "$command_pid" 2>/dev/null || true' HUP
while kill -0 "$command_pid" 2>/dev/null; do
  wait "$command_pid" || true
done
wait "$command_pid"
endef

# Usage: bash -c 'eval "$INSTALL_FILES"' NAME install BIN_DIR | NAME uninstall
# Installs (or removes) every file, into $DESTDIR; the directories come from the
# make variables exported below.
define install_files
set -euo pipefail
action=${1:-}
bin_dir=${2:-}
case $action in
  install) [ -x "$bin_dir/restd" ] && [ -x "$bin_dir/restctl" ] || { echo "error: no built restd and restctl in \"$bin_dir\"" >&2; exit 1; } ;;
  uninstall) ;;
  *) echo "error: install_files: unknown action \"$action\"" >&2; exit 2 ;;
esac
root=${DESTDIR:-}
# source, mode, target (relative to $root)
files=(
  "bin:restd 755 $BINDIR/restd"
  "bin:restctl 755 $BINDIR/restctl"
  "unit:systemd/restd.service 644 $USERUNITDIR/restd.service"
  "activation:dbus/io.restd.Rest1.service 644 $DBUSSERVICEDIR/io.restd.Rest1.service"
  "file:dbus/io.restd.Rest1.xml 644 $DBUSINTERFACEDIR/io.restd.Rest1.xml"
  "completion:bash 644 $BASHCOMPDIR/restctl"
  "completion:zsh 644 $ZSHCOMPDIR/_restctl"
  "completion:fish 644 $FISHCOMPDIR/restctl.fish"
  "file:man/man1/restd.1 644 $MANDIR/man1/restd.1"
  "file:man/man1/restctl.1 644 $MANDIR/man1/restctl.1"
  "desktop:data/restd.desktop 644 $APPLICATIONSDIR/restd.desktop"
)
for entry in "${files[@]}"; do
  read -r source mode target <<<"$entry"
  kind=${source%%:*}
  name=${source#*:}
  path=$root$target
  if [ "$action" = uninstall ]; then
    if [ -e "$path" ] || [ -L "$path" ]; then rm -f "$path" && echo "removed $path"; fi
    continue
  fi
  mkdir -p "$(dirname "$path")"
  tmp=$(mktemp "$(dirname "$path")/.install.XXXXXX")
  case $kind in
    bin) cp "$bin_dir/$name" "$tmp" ;;
    file) cp "$name" "$tmp" ;;
    unit) sed "s|^ExecStart=.*|ExecStart=$BINDIR/restd|" "$name" >"$tmp" ;;
    activation) sed "s|^Exec=.*|Exec=$BINDIR/restd|" "$name" >"$tmp" ;;
    desktop) sed "s|^Exec=restctl |Exec=$BINDIR/restctl |" "$name" >"$tmp" ;;
    # A completion is sourced, not run: no #! line (lintian warns of one).
    completion) "$bin_dir/restctl" --generate-completion-script "$name" | sed '1{/^#!/d}' >"$tmp" ;;
  esac
  chmod "$mode" "$tmp"
  mv -f "$tmp" "$path"
  echo "installed $path"
done
if [ "$action" = install ]; then
  echo "As the user who runs it: systemctl --user daemon-reload && systemctl --user enable --now restd"
fi
endef

# Usage: bash -c 'eval "$GENERATE_MAN"' man SWIFT DATE OUTPUT_DIR
# Runs swift-argument-parser's generate-manual tool on the debug build of restctl and writes
# restctl.1 (one page, subcommands included) to OUTPUT_DIR, with the blank lines it leaves
# between paragraphs made into .Pp (mdoc warns of them). restd.1 is written by hand: restd
# reads its few options itself, without swift-argument-parser.
# generate-manual drops every non-ASCII character (…, →, ♥ in restctl's help), so it reads the
# help through a filter that writes each one as an ASCII placeholder (@u2026@), and the page
# gets them back as groff glyphs (\[u2026]), which man renders in any locale.
define generate_man
set -euo pipefail
swift=$1 date=$2 output=$3
for product in generate-manual restctl; do "$swift" build --product "$product" >/dev/null; done
bin=$("$swift" build --show-bin-path)
work=$(mktemp -d "${TMPDIR:-/tmp}/restd-man.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$output"
program=restctl
# generate-manual runs the program it is given with --experimental-dump-help.
printf '#!/bin/sh\n"%s" "$@" | perl -CS -pe '"'"'s/([^\\x00-\\x7F])/sprintf("\\@u%%04X\\@", ord($1))/ge'"'"'\n' \
  "$bin/$program" >"$work/$program"
chmod +x "$work/$program"
"$bin/generate-manual" "$work/$program" --date "$date" --output-directory "$work" >/dev/null
sed 's/^$/.Pp/' "$work/$program.1" | perl -pe 's/\@u([0-9A-F]{4,6})\@/\\[u$1]/g' >"$output/$program.1"
endef

# Usage: bash -c 'eval "$INSTALL_CHECK"' install-check MAKE SWIFT MAN_DATE
define install_check
set -uo pipefail
make=$1 swift=$2 man_date=$3
passed=0 failed=0
check() {  # check DESCRIPTION COMMAND…
  local description=$1; shift
  if "$@" >/dev/null 2>&1; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "install-check: FAILED: $description" >&2; fi
}
no_files_under() { [ -z "$(find "$1" -type f -o -type l)" ]; }
restd_page_lists_options() {  # restd_page_lists_options RESTD PAGE: the hand-written page is complete
  local option
  for option in $("$1" --help | grep -oE '^ +(-h, )?--[a-z-]+' | grep -oE -- '--[a-z-]+'); do
    grep -q "^\.It Fl ${option#-}" "$2" || grep -q "^\.It Fl h , Fl ${option#-}" "$2" || return 1
  done
}
renders_cleanly() {  # renders_cleanly MANPATH PAGE: man prints no warning
  local warnings
  warnings=$(MANPATH=$1 MANWIDTH=80 man --warnings=all "$2" 2>&1 >/dev/null) && [ -z "$warnings" ]
}
shows_glyphs() {  # shows_glyphs MANPATH: restctl(1) as man renders it has the three characters
  local page
  page=$(MANPATH=$1 MANWIDTH=200 LC_ALL=C.UTF-8 man restctl 2>/dev/null)
  [[ $page == *'"…"'* && $page == *'Squat → Bench press ♥142'* ]]
}
verifies() {  # verifies UNIT DESTDIR MANPATH: systemd-analyze verify, the binary looked up inside DESTDIR
  local copy=$work/verify/restd.service
  mkdir -p "$work/verify"
  sed "s|^ExecStart=|ExecStart=$2|" "$1" >"$copy"
  local errors
  errors=$(MANPATH=$3 systemd-analyze verify "$copy" 2>&1) && [ -z "$errors" ]
}
uninstall_leaves_nothing() {  # uninstall_leaves_nothing DESTDIR PREFIX
  "$make" --no-print-directory uninstall DESTDIR="$1" PREFIX="$2" && no_files_under "$1"
}
work=$(mktemp -d "${TMPDIR:-/tmp}/restd-install.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The system-wide layout.
dest=$work/system
"$make" --no-print-directory install INSTALL_CONFIG=debug DESTDIR="$dest" PREFIX=/usr/local >"$work/install.log" 2>&1   || { cat "$work/install.log" >&2; echo "install-check: make install failed" >&2; exit 1; }
p=$dest/usr/local
check "restd is installed, executable"           test -x "$p/bin/restd"
check "restctl is installed, executable"         test -x "$p/bin/restctl"
check "the installed restctl runs"               "$p/bin/restctl" --version
printf 'default_duration = "2m"\n' >"$work/restd.toml"
check "the installed restd checks a config"      "$p/bin/restd" --check-config --config "$work/restd.toml"
check "the user unit is in lib/systemd/user"     test -f "$p/lib/systemd/user/restd.service"
check "ExecStart= names the installed restd"     grep -qx 'ExecStart=/usr/local/bin/restd' "$p/lib/systemd/user/restd.service"
check "the unit is otherwise the committed one"  diff <(grep -v '^ExecStart=' systemd/restd.service) <(grep -v '^ExecStart=' "$p/lib/systemd/user/restd.service")
check "systemd-analyze verify accepts the installed unit (ExecStart= inside DESTDIR)" \
  verifies "$p/lib/systemd/user/restd.service" "$dest" "$p/share/man"
check "Exec= names the installed restd"          grep -qx 'Exec=/usr/local/bin/restd' "$p/share/dbus-1/services/io.restd.Rest1.service"
check "the activation file names the unit"       grep -qx 'SystemdService=restd.service' "$p/share/dbus-1/services/io.restd.Rest1.service"
check "the interface XML is installed as is"     cmp dbus/io.restd.Rest1.xml "$p/share/dbus-1/interfaces/io.restd.Rest1.xml"
check "the bash completion parses"               bash -n "$p/share/bash-completion/completions/restctl"
check "the bash completion knows the commands"   grep -q 'start pause resume' "$p/share/bash-completion/completions/restctl"
check "the bash completion knows the training commands" grep -q 'sensors set skip history stats' "$p/share/bash-completion/completions/restctl"
check "the zsh completion knows restctl history --csv" grep -q -- '--csv' "$p/share/zsh/site-functions/_restctl"
check "the fish completion knows restctl set --weight" grep -q -- "-l 'weight'" "$p/share/fish/vendor_completions.d/restctl.fish"
check "the zsh completion is a #compdef file"    grep -q '^#compdef restctl' "$p/share/zsh/site-functions/_restctl"
check "the fish completion completes restctl"    grep -q "complete -c 'restctl'" "$p/share/fish/vendor_completions.d/restctl.fish"
check "restd.1 is installed"                     test -f "$p/share/man/man1/restd.1"
check "restctl.1 is installed"                   test -f "$p/share/man/man1/restctl.1"
check "man finds and renders restd(1) cleanly"   renders_cleanly "$p/share/man" restd
check "man finds and renders restctl(1) cleanly" renders_cleanly "$p/share/man" restctl
check "restd(1) names every option of restd --help" restd_page_lists_options "$p/bin/restd" "$p/share/man/man1/restd.1"
check "restctl.1 keeps …, → and ♥ (as groff glyphs)" \
  test "$(grep -o -e '\\\[u2026\]' -e '\\\[u2192\]' -e '\\\[u2665\]' "$p/share/man/man1/restctl.1" | sort -u | wc -l)" -eq 3
check "man shows them as …, → and ♥ in a UTF-8 locale" shows_glyphs "$p/share/man"
check "the desktop entry is valid"              desktop-file-validate "$p/share/applications/restd.desktop"
check "its Exec= names the installed restctl"    grep -qx 'Exec=/usr/local/bin/restctl watch' "$p/share/applications/restd.desktop"
check "nothing is installed with other modes"    test -z "$(find "$dest" -type f ! -perm 644 ! -perm 755)"
check "uninstall removes every file"            uninstall_leaves_nothing "$dest" /usr/local

# The per-user layout: units under share/, where systemd looks in ~/.local.
dest=$work/user
home_prefix=$HOME/.local
"$make" --no-print-directory install INSTALL_CONFIG=debug DESTDIR="$dest" PREFIX="$home_prefix" >"$work/install-user.log" 2>&1   || { cat "$work/install-user.log" >&2; echo "install-check: make install PREFIX=~/.local failed" >&2; exit 1; }
check "under ~/.local the unit is in share/systemd/user" test -f "$dest$home_prefix/share/systemd/user/restd.service"
check "under ~/.local ExecStart= names ~/.local/bin/restd" grep -qx "ExecStart=$home_prefix/bin/restd" "$dest$home_prefix/share/systemd/user/restd.service"
check "under ~/.local Exec= names ~/.local/bin/restd" grep -qx "Exec=$home_prefix/bin/restd" "$dest$home_prefix/share/dbus-1/services/io.restd.Rest1.service"
check "uninstall under ~/.local removes every file" uninstall_leaves_nothing "$dest" "$home_prefix"

# The committed man pages are what the current help text generates.
bash -c "$GENERATE_MAN" generate-man "$swift" "$man_date" "$work/man" >"$work/man.log" 2>&1 || cat "$work/man.log" >&2
if diff -u man/man1/restctl.1 "$work/man/restctl.1"; then
  passed=$((passed + 1))
else
  failed=$((failed + 1))
  echo "install-check: FAILED: man/man1 is out of date with the help text; run \`make man\` and commit the result" >&2
fi

echo "install-check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
endef

# Usage: bash -c 'eval "$DEB_CHECK"' deb-check DEB VERSION SWIFT BIN_DIR [SWIFT_FLAGS…]
define deb_check
set -uo pipefail
deb=$1 version=$2 swift=$3 bin_dir=$4; shift 4
if [ "$(id -u)" -ne 0 ]; then
  echo "deb-check: not root, so $deb was built and checked by lintian but not installed and tested (CI runs as root)"
  exit 0
fi
if dpkg-query -W -f='${Status}' restd 2>/dev/null | grep -q 'installed'; then
  echo "deb-check: a restd package is already installed here; remove it first (dpkg -r restd): make test does not replace it" >&2
  exit 1
fi
passed=0 failed=0
check() {  # check DESCRIPTION COMMAND…
  local description=$1; shift
  if "$@" >/dev/null 2>&1; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "deb-check: FAILED: $description" >&2; fi
}
nothing_left() {  # every file of the list is gone
  local path
  while read -r path; do [ -e "$path" ] || [ -L "$path" ] && [ ! -d "$path" ] && return 1; done <"$1"
  return 0
}
no_restd_under() { [ -z "$(find "$@" -name '*restd*' 2>/dev/null)" ]; }
work=$(mktemp -d "${TMPDIR:-/tmp}/restd-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT

dpkg -i "$deb" || { echo "deb-check: dpkg -i $deb failed" >&2; exit 1; }
dpkg -L restd >"$work/files"
for path in /usr/bin/restd /usr/bin/restctl /usr/lib/systemd/user/restd.service     /usr/share/dbus-1/services/io.restd.Rest1.service /usr/share/dbus-1/interfaces/io.restd.Rest1.xml     /usr/share/man/man1/restd.1.gz /usr/share/man/man1/restctl.1.gz /usr/share/bash-completion/completions/restctl     /usr/share/zsh/vendor-completions/_restctl /usr/share/fish/vendor_completions.d/restctl.fish     /usr/share/applications/restd.desktop /usr/share/doc/restd/copyright /usr/share/doc/restd/README.md.gz; do
  check "the package installs $path" grep -qx "$path" "$work/files"
done
check "restd --version is the package's version"    test "$(/usr/bin/restd --version)" = "$version"
check "restctl --version is the package's version"  test "$(/usr/bin/restctl --version)" = "$version"
check "the programs carry the Swift runtime"        bash -c '! ldd /usr/bin/restd /usr/bin/restctl | grep -q libswift'
check "ExecStart= names /usr/bin/restd"             grep -qx 'ExecStart=/usr/bin/restd' /usr/lib/systemd/user/restd.service
check "Exec= names /usr/bin/restd"                  grep -qx 'Exec=/usr/bin/restd' /usr/share/dbus-1/services/io.restd.Rest1.service
check "restd.service is enabled for every user"     test "$(systemctl --global is-enabled restd.service)" = enabled

# The user-manager suite against the package's restd, restctl, unit and activation file.
if ! env RESTD_INSTALLED_PREFIX=/usr RESTD_BIN_DIR=/usr/bin "$swift" test --skip-build "$@"     --filter SystemdUserManagerTests >"$work/test.log" 2>&1; then
  cat "$work/test.log" >&2
  failed=$((failed + 1)); echo "deb-check: FAILED: SystemdUserManagerTests against the installed package" >&2
else
  passed=$((passed + 1)); grep -E '^✔ Test run|returned in' "$work/test.log"
fi

dpkg -r restd >/dev/null
check "dpkg -r removes every file it installed"     nothing_left "$work/files"
dpkg --purge restd >/dev/null
check "dpkg --purge: restd is not enabled any more"  no_restd_under /etc/systemd/user
check "dpkg --purge: no deb-systemd-helper state"    no_restd_under /var/lib/systemd/deb-systemd-user-helper-enabled /var/lib/systemd/deb-systemd-user-helper-masked
check "dpkg knows nothing of restd"                  bash -c '! dpkg-query -W restd'

echo "deb-check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
endef

# Exported unexpanded ($(value …)), so the scripts above stay plain bash.
check-swift: export CHECK_SWIFT := $(value check_swift)
deps: export INSTALL_MISSING_PACKAGES := $(value install_missing_packages)
run with-bus: export RUN_ON_SESSION_BUS := $(value run_on_session_bus)
install uninstall install-check: export INSTALL_FILES := $(value install_files)
man install-check: export GENERATE_MAN := $(value generate_man)
install-check: export INSTALL_CHECK := $(value install_check)
deb-check: export DEB_CHECK := $(value deb_check)
