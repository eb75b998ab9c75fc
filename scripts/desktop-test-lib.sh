# shellcheck shell=bash
# Sourced, not run: what scripts/test-gnome.sh and scripts/test-plasma.sh both do around their
# in-session tests (gnome-extension/tests/in_shell.py, plasma/tests/in_plasma.py), each run in a
# throw-away overlay of a cached Debian root (scripts/test-roots.sh, scripts/in-root.sh).
# On this machine: desktop_test_start and make_work; per run run_start, overlay_binds,
# run_in_overlay and run_done; then desktop_test_end. In an overlay (run_in_overlay sources this
# file for the run's script there): install_restd and german_locale.

# `make install PREFIX=/usr`'s layout, which scripts/install-files.sh derives from PREFIX.
install_layout=(PREFIX=/usr)

# desktop_test_start NAME BIN_DIR GNOME_BUILD_DIR [SCREENSHOT.png] [DEB]: the arguments as absolute
# paths in bin_dir, build_dir, screenshot and deb (DEB, else $DEB), the checkout the current
# folder, the clock started; NAME (test-gnome, test-plasma) starts the lines said.
desktop_test_start() {
  desktop_test=$1 bin_dir=$(realpath -- "$2") build_dir=$(realpath -- "$3") screenshot=${4:-} deb=${5:-${DEB:-}}
  [ -z "$screenshot" ] || screenshot=$(realpath -m -- "$screenshot")
  [ -z "$deb" ] || deb=$(realpath -- "$deb")
  cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit
  start=$(date +%s%N)
  timings=() failed=()
}

ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }

# screenshot_in ROOT VARIABLE RUN…: with a screenshot asked for, exits 2 unless ROOT, where it is
# taken, is among the RUNs (which VARIABLE chooses).
screenshot_in() {
  local root=$1 variable=$2
  shift 2
  if [ -n "$screenshot" ] && [[ " $* " != *" $root "* ]]; then
    echo "error: the screenshot is taken in $root, which $variable leaves out" >&2
    exit 2
  fi
}

# make_work: work, a temporary folder for the runs; KEEP_TEST_DIRS=1 keeps it, with the logs of
# the desktops, restd and the buses (as the Swift tests do).
make_work() {
  work=$(mktemp -d "${TMPDIR:-/tmp}/restd-${desktop_test#test-}.XXXXXX")
  if [ -n "${KEEP_TEST_DIRS:-}" ]; then trap 'echo "$desktop_test: kept $work"' EXIT; else trap 'rm -rf "$work"' EXIT; fi
}

# overlay_binds [german]: binds, scripts/in-root.sh's options for the run: its folder (dir) at
# /restd-test, the build's programs at /restd-test-bin, the GNOME extension's builds at
# /restd-test-gnome, the .deb's folder at /restd-test-deb; a debug restd links the toolchain's
# Swift runtime (e.g. /opt/swift/usr/lib/swift/linux): bound at the same path (the release one in
# the .deb carries it). With german, this machine's locale definitions too, for german_locale.
overlay_binds() {
  local runtime
  binds=(--bind "$dir:/restd-test" --bind "$bin_dir:/restd-test-bin" --bind "$build_dir:/restd-test-gnome")
  runtime=$(ldd "$bin_dir/restd" | awk '$1 == "libswiftCore.so" { print $3 }')
  [ -z "$runtime" ] || binds+=(--bind "$(dirname "$runtime"):$(dirname "$runtime")")
  [ -z "$deb" ] || binds+=(--bind "$(dirname "$deb"):/restd-test-deb")
  [ "${1:-}" != german ] || binds+=(--bind /usr/share/i18n:/usr/share/i18n)
}

# run_in_overlay ROOT SCRIPT [ARG…]: SCRIPT run by `bash -euc` with ARGs as $1… in a fresh
# overlay of the Debian root ROOT with binds, in /src (the checkout) with this file sourced. Its
# messages go to the run's in-root.log, shown when it fails (in-root.sh's own too: a missing root, a
# failed mount). Returns its status.
run_in_overlay() {
  local root=$1 script=$2 status=0
  shift 2
  scripts/in-root.sh "$root" "${binds[@]}" -- bash -euc "cd /src; . scripts/desktop-test-lib.sh; $script" in-root "$@" \
    2>"$dir/in-root.log" || status=$?
  [ "$status" -eq 0 ] || cat "$dir/in-root.log" >&2
  return "$status"
}

# install_restd DEB [NAME=VALUE…] (in an overlay): restd installed as the package installs it:
# `apt-get install` of /restd-test-deb/DEB; without DEB, scripts/install-files.sh into / as `make
# install PREFIX=/usr` does, with NAME=VALUE in its environment. Its output in /restd-test/install.log.
install_restd() {
  local deb=$1
  shift
  if [ -n "$deb" ]; then
    # Without the package lists of the archive (nothing downloaded: the root must have every
    # dependency; --no-download of apt 3 refuses a local .deb), and without removals (a package
    # that would take the desktop away, by Breaks or Conflicts, fails here).
    mkdir -p /tmp/no-apt-lists/partial
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-remove -o Dir::State::Lists=/tmp/no-apt-lists \
      -o Dir::Etc::SourceParts=/tmp/no-apt-lists -o Dir::Etc::SourceList=/tmp/no-apt-lists/none.list \
      "/restd-test-deb/$deb" >/restd-test/install.log 2>&1 || { cat /restd-test/install.log; exit 1; }
  else
    env DESTDIR= "${install_layout[@]}" "$@" scripts/install-files.sh install /restd-test-bin /restd-test-gnome >/restd-test/install.log
  fi
}

# german_locale (in an overlay bound with german): the locale de_DE.UTF-8, generated from this
# machine's definitions (Debian's `locales`, TEST_DEB_PACKAGES), as a German desktop has it.
german_locale() {
  localedef --inputfile=de_DE --charmap=UTF-8 de_DE.UTF-8
}

# run_start RUN PICTURED: the run RUN begins (its name said): dir, its folder in work; shot, the
# screenshot's path there when one is asked for and RUN is PICTURED, the run that takes it.
run_start() {
  run_clock=$(date +%s%N)
  dir=$work/$1
  mkdir -p "$dir"
  shot=
  [ -z "$screenshot" ] || [ "$1" != "$2" ] || shot=$dir/screenshot.png
  echo "$desktop_test: $1"
}

# run_done RUN STATUS: the run's time and STATUS, for desktop_test_end; its screenshot copied to
# the one asked for if it passed.
run_done() {
  if [ -n "$shot" ] && [ "$2" -eq 0 ]; then cp "$shot" "$screenshot"; fi
  timings+=("$1 $(ms_since "$run_clock") ms")
  [ "$2" -eq 0 ] || failed+=("$1")
}

# desktop_test_end: the runs' times; exits 1 if one failed.
desktop_test_end() {
  local summary
  summary=$(printf '%s, ' "${timings[@]}")
  echo "$desktop_test: ${summary%, }; done in $(ms_since "$start") ms"
  if [ ${#failed[@]} -gt 0 ]; then
    echo "$desktop_test: failed in ${failed[*]}" >&2
    exit 1
  fi
}
