# restd — build, test and run.
#
# On a fresh Debian 12 machine with a Swift 6 toolchain on PATH (or unpacked
# at /opt/swift), `make run` and `make test` do all the set-up themselves:
# missing Debian packages are installed (with sudo when not root), and
# `make run` starts a private D-Bus session bus when there is none.
#
# Variables: ARGS (for restd, `make run ARGS=--verbose`), SWIFT_FLAGS (for
# every swift build/test, e.g. `-j 2`), TEST_FLAGS (for swift test, e.g.
# `--filter Harness`), BENCH_ARGS (for restd-bench, e.g. `--only 1,3`), TOML_TEST (the
# toml-test suite for `make toml-conformance`, Tests/Data/toml-test),
# SWIFT (the swift driver), NO_DEPS=1 (install no Debian packages; debian/rules
# sets it, since dpkg-checkbuilddeps has checked Build-Depends).
#
# Install: `make install` (PREFIX=/usr/local), `make install PREFIX=$HOME/.local`
# for one user; DESTDIR is honoured; INSTALL_STRIP=no installs the programs unstripped;
# `make uninstall` with the same variables removes what it put there. Every directory of the
# layout can be given too ("Install layout" below).

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
# The TOML project's compliance suite: toml-test's TOML 1.0.0 files, kept in the repository.
TOML_TEST ?= Tests/Data/toml-test

# Build headers and libraries, the programs the tests, `make lint` and `make run` use, and what
# `make deb` needs (debhelper, dpkg-dev, lintian).
export DEB_PACKAGES := libdbus-1-dev libsystemd-dev libsqlite3-dev libpulse-dev libsndfile1-dev pkg-config \
	dbus-daemon dbus-bin libglib2.0-bin systemd tzdata shellcheck python3-dbusmock python3-gi playerctl man-db desktop-file-utils \
	gjs eslint sound-theme-freedesktop gettext \
	debhelper dpkg-dev lintian
# Only what the tests run, beyond that: a real GNOME Shell for test-gnome, with GNOME's default
# font (a GNOME desktop has it; the Shell alone does not pull it in), and Chromium, the browser
# that opens `restctl report`'s page in the integration tests, and the user units of both session
# buses (dbus-user-session's dbus.socket and dbus.service, dbus-broker's dbus-broker.service) for
# the tests under a systemd user manager and the dbus-broker run. Installed by `make test`,
# `make test-gnome` and `make gnome-screenshot` (test-deps), never by build or install: a
# machine without GNOME gets no GNOME Shell from `make install`. Debian's dbus-broker package
# enables itself as the machine's system and user bus (from the next boot and login) and depends
# on systemd-sysv; the tests pick their bus themselves. A real sound server for the sound tests
# (PipeWire, WirePlumber, pipewire-pulse) and the tools that drive and record it (pactl, parec);
# PulseAudio's own daemon is unpacked, not installed (scripts/unpack-pulseaudio.sh says why).
# The locales' definitions, from which scripts/test-gnome.sh generates the German locale GNOME
# Shell's own gettext needs for the extension's German session (restd itself needs none).
TEST_DEB_PACKAGES := gnome-shell fonts-cantarell chromium dbus-user-session dbus-broker \
	pipewire wireplumber pipewire-pulse pulseaudio-utils locales
NO_DEPS ?=

# Where `swift build` puts the debug executables (asked at recipe time).
BIN_DIR = $$($(SWIFT) build --show-bin-path $(SWIFT_FLAGS))
# Where a build's programs find their catalogs: share/locale beside the build's folder, as
# /usr/share/locale is beside /usr/bin (Sources/Localization). Debug and release share it.
COMPILE_CATALOGS = scripts/compile-catalogs.sh "$(BIN_DIR)/../share/locale"
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

# The integration tests tagged .everyBus (Tests/IntegrationTests/Support/Tags.swift), run again
# with dbus-broker (Fedora's and Arch's session bus) as their test bus (RESTD_TEST_BUS;
# Tests/IntegrationTests/Support/BusKind.swift).
BROKER_TESTS = env RESTD_TEST_BUS=dbus-broker RESTD_BIN_DIR="$(BIN_DIR)" \
	$(SWIFT) test --skip-build $(SWIFT_FLAGS) --filter "$$(scripts/tagged-tests.sh "$(BIN_DIR)" everyBus)"

# Every benchmark scenario at a tiny size, on the debug build: a check that the harness
# still works (CI runs it in `make test`), not a measurement. Under a minute.
BENCH_SMOKE = "$(BIN_DIR)/restd-bench" --smoke --json .build/bench-smoke.json

# --- Install layout ----------------------------------------------------------
# PREFIX (/usr/local), DESTDIR and every directory of the layout (BINDIR, LIBEXECDIR, DATADIR,
# MANDIR, USERUNITDIR, DBUSSERVICEDIR, DBUSINTERFACEDIR, BASHCOMPDIR, ZSHCOMPDIR, FISHCOMPDIR,
# APPLICATIONSDIR, LOCALEDIR, GNOMEEXTDIR, GNOMEBUILDSDIR, PLASMOIDDIR, PLASMABUILDSDIR), GNOME_SHELL_VERSION
# and PLASMA_VERSION are passed on to
# scripts/install-files.sh, which holds the layout: what is not given comes from PREFIX there.
INSTALL_VARIABLES := DESTDIR PREFIX BINDIR LIBEXECDIR DATADIR MANDIR USERUNITDIR DBUSSERVICEDIR DBUSINTERFACEDIR \
	BASHCOMPDIR ZSHCOMPDIR FISHCOMPDIR APPLICATIONSDIR LOCALEDIR GNOMEEXTDIR GNOMEBUILDSDIR GNOME_SHELL_VERSION \
	PLASMOIDDIR PLASMABUILDSDIR PLASMA_VERSION INSTALL_STRIP STRIP
INSTALL_ENV = $(foreach variable,$(INSTALL_VARIABLES),$(variable)='$($(variable))')
# Where scripts/build-gnome-extension.sh writes both builds.
GNOME_BUILD_DIR := .build-gnome
# The programs `make install` installs and `make release` builds, and only they (not the benchmark,
# not the TOML conformance tool): swift build takes one --product at a time.
SHIPPED_PRODUCTS := restd restctl
build_shipped = for product in $(SHIPPED_PRODUCTS); do $(SWIFT) build $(1) $(SWIFT_FLAGS) --product "$$product"; done
# Installed programs are stripped (restctl 29 MB → 15 MB; docs/PERFORMANCE.md): INSTALL_STRIP=no
# installs them as built, for a packager that keeps the symbols apart (debian/rules: dh_strip makes
# the -dbgsym package from them). STRIP: the strip program.
INSTALL_STRIP ?= yes
STRIP ?= strip
ifneq ($(filter-out yes no,$(INSTALL_STRIP)),)
  $(error INSTALL_STRIP must be yes or no, not $(INSTALL_STRIP))
endif
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

.PHONY: help check-swift deps test-deps build release check test test-broker test-calendar test-asan toml-conformance bench bench-smoke run with-bus
.PHONY: roots-in-background build-tests test-suite test-gnome-package test-plasma-package
.PHONY: clean install uninstall
.PHONY: pot install-check man deb deb-check format lint gnome-extension test-gnome gnome-screenshot test-plasma kde-screenshot report-screenshot orderfile

# The Debian package `make deb` builds (version from debian/changelog, architecture from dpkg).
DEB_VERSION = $$(dpkg-parsechangelog -S Version)
DEB_FILE = restd_$(DEB_VERSION)_$$(dpkg --print-architecture).deb

help:
	@echo 'restd — make targets:'
	@echo '  make run [ARGS=--verbose]  build restd and run it in the foreground on the session bus'
	@echo '                             (on a private bus, whose address is printed, if there is none)'
	@echo '  make check [TEST_FLAGS=…]  the loop while you work: build, then the unit suites and the fast'
	@echo '                             integration suites (under 3 minutes; make test runs them all)'
	@echo '  make test [TEST_FLAGS=…]   build everything and run all tests (then again under ASan)'
	@echo '  make test-asan             the tests under AddressSanitizer only'
	@echo '  make test-broker           the bus suites again on dbus-broker (root; part of make test)'
	@echo '  make test-calendar         the tests that read times, on other days and in other zones (part of make test)'
	@echo '  make toml-conformance      the TOML reader against toml-test'"'"'s TOML 1.0.0 files in TOML_TEST'
	@echo '                             (Tests/Data/toml-test): valid files read right, invalid ones refused (part of make test)'
	@echo '  make build                 debug build'
	@echo '  make release               release build of restd and restctl (swift build -c release --static-swift-stdlib)'
	@echo '  make bench [BENCH_ARGS=…]  release build, then every benchmark; writes bench/results.json'
	@echo '                             (a full run of a clean tree also bench/history/COMMIT.json)'
	@echo '  make bench-smoke           every benchmark at a tiny size on the debug build (part of make test)'
	@echo '  make deps                  install the missing Debian packages (apt-get, sudo if not root)'
	@echo '  make test-deps             also those only the tests need (gnome-shell, dbus-broker; part of make test)'
	@echo '  make install [PREFIX=…]    release build, then install programs, unit, activation file,'
	@echo '                             interface, completions and man pages (PREFIX=/usr/local; DESTDIR too;'
	@echo '                             the programs stripped unless INSTALL_STRIP=no)'
	@echo '  make uninstall [PREFIX=…]  remove what make install put there'
	@echo '  make install-check         install the debug build into a temporary DESTDIR and check the tree'
	@echo '  make deb                   build restd_<version>_<arch>.deb here (debian/, static release), run lintian'
	@echo '  make deb-check             make deb, apt install it, test the installed restd under a systemd user'
	@echo '                             manager, remove and purge it, check nothing is left; then in Debian 13,'
	@echo '                             testing and unstable roots (root; part of make test)'
	@echo '  make gnome-extension       build the GNOME Shell extension, both forms, into .build-gnome'
	@echo '  make test-gnome            its tests: gjs -m, then real headless GNOME Shells 43, 48, 50, 51 (part of make test)'
	@echo '  make gnome-screenshot      the same, also writing docs/gnome-panel.png'
	@echo '  make test-plasma           the Plasma widget: gjs -m, then real headless Plasmas 6.3 and 6.7 (root; part of make test)'
	@echo '  make kde-screenshot        the same, also writing docs/kde-panel.png'
	@echo '  make report-screenshot     the training report of the tests'"'"' seeded history, as docs/report.png'
	@echo '  make format                rewrite the Swift sources in the project'"'"'s layout (swift-format)'
	@echo '  make lint                  check the layout, the scripts, the extension (eslint), and that no guide copies a man page'
	@echo '  make pot                   regenerate po/restd.pot from the sources and merge it into each po/LANG.po'
	@echo '  make man                   regenerate man/man1/restctl.1 with swift-argument-parser'"'"'s generate-manual'
	@echo '  make orderfile             rewrite Sources/restd/restd.order (the functions restd runs, from callgrind)'
	@echo '  make with-bus CMD="…"      run a command on the session bus, or on a private one'
	@echo '  make clean                 remove .build'
	@echo 'Variables: ARGS, SWIFT_FLAGS (e.g. -j 2), TEST_FLAGS (e.g. --filter Harness), BENCH_ARGS, TOML_TEST, SWIFT.'

check-swift:
	@scripts/check-swift.sh $(SWIFT)

deps: check-swift
ifeq ($(NO_DEPS),)
	@scripts/install-missing-packages.sh
endif

test-deps: deps
ifeq ($(NO_DEPS),)
	@DEB_PACKAGES='$(TEST_DEB_PACKAGES)' scripts/install-missing-packages.sh
	@scripts/unpack-pulseaudio.sh
endif

build: deps
	$(SWIFT) build $(SWIFT_FLAGS)
	@$(COMPILE_CATALOGS)

release: deps
	$(call build_shipped,$(RELEASE_FLAGS))
	@$(COMPILE_CATALOGS)

# The loop while you work (CONTRIBUTING.md): the build, every unit suite, and the integration
# suites that take seconds, in under 3 minutes. Left to `make test`: the tests tagged .realTime
# (they wait for real time on purpose) and .slow (long random runs; systemd, the journal, Chromium,
# `make run`'s wrapper): Tests/IntegrationTests/Support/Tags.swift.
check: build-tests
	$(RUN_TESTS) .build/check.log env RESTD_BIN_DIR="$(BIN_DIR)" \
	$(SWIFT) test --skip-build $(SWIFT_FLAGS) --skip "$$(scripts/tagged-tests.sh "$(BIN_DIR)" realTime slow)" $(TEST_FLAGS)

# `make test`, what CI runs (.ci/run): these steps, in this order, each a target of its own that
# `make STEP` runs alone. Nothing here runs in parallel, whatever -j says: a step's prerequisites
# are made in the order they are listed, each once.
.NOTPARALLEL:
TEST_STEPS := test-deps roots-in-background lint build-tests test-suite test-broker test-calendar \
	toml-conformance bench-smoke install-check deb-check test-gnome-package test-plasma-package test-asan
test: $(TEST_STEPS)

# The Debian roots (minutes, mostly downloading and unpacking) build while Swift compiles;
# deb-check and the GNOME tests wait for them (scripts/test-roots.sh takes a lock). Root only.
roots-in-background:
	@if [ "$$(id -u)" -eq 0 ]; then mkdir -p .build; (scripts/test-roots.sh >.build/test-roots.log 2>&1 &); fi

# Everything, the tests included.
build-tests: deps
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	@$(COMPILE_CATALOGS)

# Every test once, on dbus-daemon; the output also in .build/test.log.
test-suite: build-tests
	$(RUN_TESTS) .build/test.log env RESTD_BIN_DIR="$(BIN_DIR)" $(SWIFT) test --skip-build $(SWIFT_FLAGS) $(TEST_FLAGS)

# The bus suites on dbus-broker only (root: the broker runs under a systemd user manager in a
# mount namespace); part of `make test`.
test-broker: test-deps build-tests
	$(RUN_TESTS) .build/test-broker.log $(BROKER_TESTS)

# The tests that read the clock, the calendar or the locale, again on other days, in UTC+14 and
# UTC-11 and in German (scripts/test-calendar.sh says which and how); part of `make test`.
test-calendar: build-tests
	scripts/test-calendar.sh $(SWIFT) "$(BIN_DIR)" $(SWIFT_FLAGS)

# The TOML reader against the TOML project's compliance suite (part of `make test`): builds
# toml-conformance only, and fails unless every file of toml-test's TOML 1.0.0 list passes.
toml-conformance: deps
	scripts/toml-conformance.sh $(SWIFT) "$(TOML_TEST)" $(SWIFT_FLAGS)

# The code's layout is swift-format's, with the project's .swift-format (120 columns, 4 spaces);
# `make format` rewrites the sources, `make lint` (part of `make test`) fails on any difference,
# on anything shellcheck finds in scripts/ or eslint in the GNOME extension and the Plasma widget
# (their rules are GNOME Shell's: gnome-extension/.eslintrc.json), on a guide that copies a
# man page's table, and on a catalog behind the sources (po/: `make pot`, then translate). The widget's QML is checked by loading it in plasmashell (make test-plasma).
SWIFT_FORMAT ?= $(shell command -v swift-format 2>/dev/null || echo "$(SWIFT) format")
FORMATTED := Package.swift Sources Tests
format:
	$(SWIFT_FORMAT) format --in-place --recursive --parallel $(FORMATTED)
lint: deps
	$(SWIFT_FORMAT) lint --strict --recursive --parallel $(FORMATTED)
	shellcheck scripts/*.sh
	@# Debian's eslint: its modules are where Debian's node looks (/usr/share/nodejs), which a
	@# node from elsewhere (NodeSource's) does not without NODE_PATH; the unix format, since the
	@# default one needs a module Debian 12 does not package (chalk).
	NODE_PATH=/usr/share/nodejs eslint --format unix --ext .js,.mjs gnome-extension plasma
	scripts/check-docs.sh
	scripts/update-catalogs.sh --check

# The whole suite once more under AddressSanitizer, against an instrumented restd and restctl
# (a build folder of its own). Leak detection is off: at exit the Swift runtime and XCTest hold
# allocations that LeakSanitizer reports, and that would change the exit statuses the tests
# check. RSS means nothing under ASan's quarantine, so the tests leave memory growth to the
# plain run when RESTD_SANITIZER is set.
ASAN_FLAGS = --sanitize=address --scratch-path .build-asan
test-asan: deps
	$(SWIFT) build --build-tests $(ASAN_FLAGS) $(SWIFT_FLAGS)
	scripts/compile-catalogs.sh "$$($(SWIFT) build $(ASAN_FLAGS) --show-bin-path)/../share/locale"
	$(RUN_TESTS) .build-asan/test.log env RESTD_SANITIZER=address ASAN_OPTIONS=detect_leaks=0 \
	RESTD_BIN_DIR="$$($(SWIFT) build $(ASAN_FLAGS) --show-bin-path)" \
	$(SWIFT) test --skip-build $(ASAN_FLAGS) $(SWIFT_FLAGS) $(TEST_FLAGS)

# Builds restd and restctl (release unless INSTALL_CONFIG=debug) and installs every file, the
# programs stripped unless INSTALL_STRIP=no.
install: deps gnome-extension
	$(call build_shipped,$(INSTALL_BUILD_FLAGS))
	@$(INSTALL_ENV) scripts/install-files.sh install "$$($(SWIFT) build $(INSTALL_BUILD_FLAGS) $(SWIFT_FLAGS) --show-bin-path)" $(GNOME_BUILD_DIR)

uninstall:
	@$(INSTALL_ENV) scripts/install-files.sh uninstall

# make itself, for install-check to read what `make install` would run (make -n); not named
# MAKE in the recipe, where make would take the line for a sub-make and run it under -n too.
MAKE_PROGRAM = $(MAKE)
# Installs the debug build into temporary DESTDIRs, as `make install` would (PREFIX=/usr/local,
# PREFIX=$$HOME/.local, and PREFIX=/usr unstripped, as debian/rules does), checks each tree,
# uninstalls, and checks nothing is left; also that man/man1 is what `make man` would write now.
install-check: deps build gnome-extension
	@scripts/install-check.sh "$(MAKE_PROGRAM)" "$(SWIFT)" "$(MAN_DATE)" "$(BIN_DIR)" $(GNOME_BUILD_DIR)

# po/restd.pot from the sources' texts, merged into every po/LANG.po (scripts/update-catalogs.sh).
pot: deps
	scripts/update-catalogs.sh

man: deps
	@scripts/generate-man.sh "$(SWIFT)" "$(MAN_DATE)" man/man1

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
# the installed /usr/bin/restd and unit, removes and purges it, and checks what is left; then the
# same in Debian 13, testing and unstable roots (built and cached by scripts/test-roots.sh), with
# lintian and the dpkg trigger on gnome-shell in Debian 13's.
deb-check: deb build-tests
	@scripts/deb-check.sh "$(DEB_FILE)" "$(DEB_VERSION)" "$(SWIFT)" $(SWIFT_FLAGS)
	@scripts/deb-roots-check.sh "$(DEB_FILE)"

# The functions restd runs at a login and in common use, listed for the linker to place together
# (Package.swift): a release restd under callgrind (valgrind, installed when missing), driven by restctl
# and busctl on a private bus. After a large change to restd's code, run it, then `make bench` (scenario 7).
orderfile: release
ifeq ($(NO_DEPS),)
	@DEB_PACKAGES=valgrind scripts/install-missing-packages.sh
endif
	scripts/generate-orderfile.sh "$(RELEASE_BIN_DIR)/restd" Sources/restd/restd.order
	@# The file is not an input SwiftPM tracks: without restd, the next build links it again.
	rm -f "$(RELEASE_BIN_DIR)/restd"

# restd-bench starts its own dbus-daemon and the restd built next to it; see docs/PERFORMANCE.md.
# A full run of a clean tree is also kept as bench/history/COMMIT.json, to commit with the run's
# figures when docs/PERFORMANCE.md records it.
bench: release
	$(SWIFT) build $(RELEASE_FLAGS) $(SWIFT_FLAGS) --product restd-bench
	"$(RELEASE_BIN_DIR)/restd-bench" $(BENCH_ARGS)
	@if [ -z "$(strip $(BENCH_ARGS))" ] && commit=$$(git rev-parse --short HEAD 2>/dev/null) \
	  && [ -z "$$(git status --porcelain --untracked-files=no)" ]; then \
	  mkdir -p bench/history && cp bench/results.json "bench/history/$$commit.json" \
	  && echo "Kept as bench/history/$$commit.json."; fi

bench-smoke: build
	$(BENCH_SMOKE)

# Both builds of the GNOME Shell extension restd@restd.io from gnome-extension/src: the ES
# modules for GNOME Shell 45+ and the legacy form for 43-44, generated (gnome-extension/tools).
gnome-extension:
	@scripts/build-gnome-extension.sh $(GNOME_BUILD_DIR)

# The extension's tests (part of `make test`): its pure modules under gjs -m, in both builds,
# then real headless GNOME Shells with the real restd on private buses: 43 here (the legacy
# build), 48, 50 and 51 in cached Debian roots (scripts/test-roots.sh; the ES modules).
test-gnome: build test-deps gnome-extension
	@scripts/test-gnome.sh "$(BIN_DIR)" $(GNOME_BUILD_DIR)

# The same, with GNOME 48, 50 and 51 running the extension as the Debian package installs it
# (part of `make test`).
test-gnome-package: build test-deps gnome-extension deb
	@scripts/test-gnome.sh "$(BIN_DIR)" $(GNOME_BUILD_DIR) "" "$(DEB_FILE)"

# The same run, also writing docs/gnome-panel.png (the README's picture).
gnome-screenshot: build test-deps gnome-extension
	@scripts/test-gnome.sh "$(BIN_DIR)" $(GNOME_BUILD_DIR) docs/gnome-panel.png

# The Plasma widget's tests (part of `make test`, there with the .deb): its pure module under
# gjs -m, then real headless Plasmas with the real restd on a private bus, 6.3 and 6.7 in cached
# Debian roots with their Plasma layers (scripts/test-roots.sh), restd installed by install-files.sh.
test-plasma: build test-deps gnome-extension
	@scripts/test-plasma.sh "$(BIN_DIR)" $(GNOME_BUILD_DIR)

# The same, with the widget as the Debian package installs it (part of `make test`).
test-plasma-package: build test-deps gnome-extension deb
	@scripts/test-plasma.sh "$(BIN_DIR)" $(GNOME_BUILD_DIR) "" "$(DEB_FILE)"

# The same run, also writing docs/kde-panel.png (docs/kde.md's picture), taken in Plasma 6.3.
kde-screenshot: build test-deps gnome-extension
	@scripts/test-plasma.sh "$(BIN_DIR)" $(GNOME_BUILD_DIR) docs/kde-panel.png

# The training report of the integration tests' seeded history, as Chromium shows it, written
# to docs/report.png (the README's picture).
report-screenshot: test-deps build-tests
	RESTD_REPORT_SCREENSHOT="$(CURDIR)/docs/report.png" RESTD_BIN_DIR="$(BIN_DIR)" \
		$(SWIFT) test --skip-build $(SWIFT_FLAGS) --filter seededHistoryInChromium

run: build
	@scripts/run-restd.sh "$(BIN_DIR)/restd" $(ARGS)

with-bus:
ifeq ($(strip $(CMD)),)
	@echo 'usage: make with-bus CMD="command [args…]"' >&2; exit 2
endif
	@scripts/run-on-session-bus.sh $(CMD)

clean:
	rm -rf .build $(GNOME_BUILD_DIR)
