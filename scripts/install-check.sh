#!/usr/bin/env bash
# Usage: scripts/install-check.sh MAKE SWIFT MAN_DATE BIN_DIR GNOME_BUILD_DIR
# What `make install-check` does: installs the debug build in BIN_DIR and the GNOME Shell extension
# in GNOME_BUILD_DIR with scripts/install-files.sh, as `make install` does, into a temporary DESTDIR
# (PREFIX=/usr/local and PREFIX=$HOME/.local, stripped; PREFIX=/usr with INSTALL_STRIP=no, as
# debian/rules does), checks the tree, uninstalls, checks nothing is left, and checks that man/man1
# is what `make man` would generate now. MAKE only reads what `make install` would run (make -n).
# One line per failure, then the counts.

set -uo pipefail
make=$1 swift=$2 man_date=$3 bin_dir=$4 gnome_build_dir=$5
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
renders_cleanly() {  # renders_cleanly MANPATH PAGE: man prints no warning, with UTF-8 or without
  local warnings locale
  for locale in C.UTF-8 C; do
    warnings=$(MANPATH=$1 MANWIDTH=80 LC_ALL=$locale man --warnings=all "$2" 2>&1 >/dev/null) && [ -z "$warnings" ] \
      || return 1
  done
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
links_to() {  # links_to LINK TARGET: LINK is a relative symbolic link that resolves to TARGET
  [ -L "$1" ] && [[ $(readlink "$1") != /* ]] && [ "$(readlink -f "$1")" = "$(readlink -f "$2")" ]
}
lists_versions() {  # lists_versions METADATA VERSION…: shell-version is exactly these
  local want
  want=$(printf '"%s",' "${@:2}")
  [ "$(tr -d ' \n' <"$1" | grep -o '"shell-version":\[[^]]*\]')" = "\"shell-version\":[${want%,}]" ]
}
no_module_syntax() {  # no_module_syntax DIR: no import/export statement left in the legacy build
  ! grep -rqE '^\s*(import|export)\b' --include='*.js' "$1"
}
has_symbols() {  # has_symbols PROGRAM: a symbol table is there (what strip removes)
  # grep reads to the end: with -q it could exit first, and readelf's SIGPIPE fail the pipeline.
  readelf -S "$1" | grep ' \.symtab ' >/dev/null
}
stripped() { ! has_symbols "$1"; }
builds_only_what_it_installs() {  # every swift build `make install` runs is of restd or restctl
  local recipe
  recipe=$("$make" --no-print-directory -n install INSTALL_CONFIG=debug NO_DEPS=1)
  [[ $recipe == *'for product in restd restctl; do '* ]] \
    && ! grep 'swift build' <<<"$recipe" | grep -v -e '--show-bin-path' -e '--product' | grep . >/dev/null
}
passes_the_layout() {  # what `make install` is given reaches scripts/install-files.sh, which this script runs
  local recipe
  recipe=$("$make" --no-print-directory -n install INSTALL_CONFIG=debug NO_DEPS=1 PREFIX=/opt/x BINDIR=/opt/b ZSHCOMPDIR=/opt/z)
  [[ $recipe == *"PREFIX='/opt/x' BINDIR='/opt/b' "*"ZSHCOMPDIR='/opt/z' "*'scripts/install-files.sh install '* ]]
}
installs() {  # installs LOG VARIABLE=VALUE…: what `make install VARIABLE=VALUE…` installs, of the debug build
  local log=$1; shift
  env "$@" scripts/install-files.sh install "$bin_dir" "$gnome_build_dir" >"$log" 2>&1
}
uninstall_leaves_nothing() {  # uninstall_leaves_nothing DESTDIR PREFIX
  DESTDIR=$1 PREFIX=$2 scripts/install-files.sh uninstall && no_files_under "$1"
}
work=$(mktemp -d "${TMPDIR:-/tmp}/restd-install.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The system-wide layout.
dest=$work/system
installs "$work/install.log" DESTDIR="$dest" PREFIX=/usr/local GNOME_SHELL_VERSION=43 PLASMA_VERSION=6 \
  || { cat "$work/install.log" >&2; echo "install-check: the install failed" >&2; exit 1; }
p=$dest/usr/local
check "restd is installed, executable"           test -x "$p/bin/restd"
check "restctl is installed, executable"         test -x "$p/bin/restctl"
check "restd is installed stripped"              stripped "$p/bin/restd"
check "restctl is installed stripped"            stripped "$p/bin/restctl"
check "make install builds restd and restctl, nothing else" builds_only_what_it_installs
check "make install passes PREFIX and the directories to install-files.sh" passes_the_layout
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
check "the bash completion knows the training commands" grep -q 'sensors set skip silence history stats records' "$p/share/bash-completion/completions/restctl"
check "the zsh completion knows restctl history --csv" grep -q -- '--csv' "$p/share/zsh/site-functions/_restctl"
check "the fish completion knows restctl set --weight" grep -q -- "-l 'weight'" "$p/share/fish/vendor_completions.d/restctl.fish"
check "the zsh completion is a #compdef file"    grep -q '^#compdef restctl' "$p/share/zsh/site-functions/_restctl"
check "the fish completion completes restctl"    grep -q "complete -c 'restctl'" "$p/share/fish/vendor_completions.d/restctl.fish"
check "restd.1 is installed"                     test -f "$p/share/man/man1/restd.1"
check "restctl.1 is installed"                   test -f "$p/share/man/man1/restctl.1"
check "man finds and renders restd(1) cleanly"   renders_cleanly "$p/share/man" restd
check "man finds and renders restctl(1) cleanly" renders_cleanly "$p/share/man" restctl
check "restd.conf.5 is installed"                test -f "$p/share/man/man5/restd.conf.5"
check "man finds and renders restd.conf(5) cleanly" renders_cleanly "$p/share/man" restd.conf
check "io.restd.Rest1.5 is installed"            test -f "$p/share/man/man5/io.restd.Rest1.5"
check "man finds and renders io.restd.Rest1(5) cleanly" renders_cleanly "$p/share/man" io.restd.Rest1
check "restd(1) names every option of restd --help" restd_page_lists_options "$p/bin/restd" "$p/share/man/man1/restd.1"
check "restctl.1 keeps …, → and ♥ (as groff glyphs)" \
  test "$(grep -o -e '\\\[u2026\]' -e '\\\[u2192\]' -e '\\\[u2665\]' "$p/share/man/man1/restctl.1" | sort -u | wc -l)" -eq 3
check "man shows them as …, → and ♥ in a UTF-8 locale" shows_glyphs "$p/share/man"
check "the desktop entry is valid"              desktop-file-validate "$p/share/applications/restd.desktop"
check "its Exec= names the installed restctl"    grep -qx 'Exec=/usr/local/bin/restctl watch' "$p/share/applications/restd.desktop"
check "the German catalog is installed, compiled" msgunfmt --output-file=/dev/null "$p/share/locale/de/LC_MESSAGES/restd.mo"
speaks_german() {  # the installed restctl finds the installed catalog (share/locale beside its bin)
  local said
  # LOCPATH names no locales: German must not need one generated.
  said=$(env -u LC_ALL -u LC_MESSAGES -u LANGUAGE LANG=de_DE.UTF-8 LOCPATH=/nonexistent \
    DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent "$p/bin/restctl" status 2>&1 || true)
  [[ $said == *"D-Bus-Sitzungsbus ist nicht erreichbar"* ]] || { echo "$said" >&2; return 1; }
}
check "the installed restctl speaks German under LANG=de_DE.UTF-8, no locale generated" speaks_german
ext=$p/share/gnome-shell/extensions/restd@restd.io builds=$p/share/restd/gnome-shell
check "GNOME Shell 43: the extension links to the legacy build" links_to "$ext" "$builds/legacy/restd@restd.io"
check "the legacy build is for GNOME Shell 43 and 44"     lists_versions "$builds/legacy/restd@restd.io/metadata.json" 43 44
check "the ES module build is for GNOME Shell 45 to 51"   lists_versions "$builds/esm/restd@restd.io/metadata.json" 45 46 47 48 49 50 51
check "45+ choose a dark or a light stylesheet, 43-44 have the dark one" \
  cmp "$builds/esm/restd@restd.io/stylesheet-dark.css" "$builds/legacy/restd@restd.io/stylesheet.css"
check "the ES module build has the light stylesheet"     test -f "$builds/esm/restd@restd.io/stylesheet-light.css"
check "the legacy build has no import or export left"     no_module_syntax "$builds/legacy/restd@restd.io"
link_script=$p/libexec/restd/gnome-extension-link
check "gnome-extension-link is installed, executable"     test -x "$link_script"
relinked_to() {  # relinked_to VERSION BUILD|nothing: the link gnome-extension-link makes for that Shell
  "$link_script" --root "$dest" --shell-version "$1" /usr/local/share/restd/gnome-shell /usr/local/share/gnome-shell/extensions || return 1
  if [ "$2" = nothing ]; then [ ! -e "$ext" ] && [ ! -L "$ext" ]; else links_to "$ext" "$builds/$2/restd@restd.io"; fi
}
check "GNOME Shell 48: gnome-extension-link links the ES module build" relinked_to 48 esm
for unsupported in 42 52 none; do
  check "GNOME Shell $unsupported: gnome-extension-link leaves no link" relinked_to "$unsupported" nothing
done
check "GNOME Shell 43 again: the legacy build"           relinked_to 43 legacy
mkdir -p "$work/own/restd@restd.io"
check "a real folder in its place is left alone" \
  bash -c "'$link_script' --root '$work/own' --shell-version 48 /b / && [ -d '$work/own/restd@restd.io' ] && [ ! -L '$work/own/restd@restd.io' ]"
check "the legacy build defines init()"                  grep -q '^function init(metadata)' "$builds/legacy/restd@restd.io/extension.js"
check "the ES module build exports the extension class"  grep -q '^export default class RestExtension extends Extension' "$builds/esm/restd@restd.io/extension.js"
check "each build carries its own entry point only"    test -z "$(find "$builds" -name 'extension.*.js')"
check "both builds carry their compiled settings schema" test -f "$builds/legacy/restd@restd.io/schemas/gschemas.compiled" -a -f "$builds/esm/restd@restd.io/schemas/gschemas.compiled"
check "both builds carry the German catalog in their locale/, and no pseudo-language" \
  bash -c "msgunfmt -o /dev/null '$builds/esm/restd@restd.io/locale/de/LC_MESSAGES/restd.mo' && msgunfmt -o /dev/null '$builds/legacy/restd@restd.io/locale/de/LC_MESSAGES/restd.mo' && [ -z \"\$(find '$builds' -path '*pseudo*')\" ]"
widget=$p/share/plasma/plasmoids/io.restd.rest package=$p/share/restd/plasma/io.restd.rest
widget_in_place() {  # widget_in_place: PLASMOIDDIR's io.restd.rest is restd's folder of hard links to the installed widget
  [ -f "$widget/.restd-widget" ] && [ ! -L "$widget" ] && [ -z "$(find "$widget" -type l)" ] &&
    [ "$(stat -c %i "$widget/contents/ui/main.qml")" = "$(stat -c %i "$package/contents/ui/main.qml")" ] &&
    diff -r -x .restd-widget "$widget" "$package"
}
check "Plasma 6: the widget is in share/plasma/plasmoids, hard links to share/restd/plasma" widget_in_place
check "the widget's id is io.restd.rest"          grep -q '"Id": "io.restd.rest"' "$package/metadata.json"
check "the widget carries the GNOME extension's modules as files" \
  bash -c "cmp gnome-extension/src/lib/format.js '$package/contents/code/format.mjs' && cmp gnome-extension/src/lib/timers.js '$package/contents/code/timers.mjs' && [ -z \"\$(find '$package' -type l)\" ]"
check "the widget carries the German catalog under its domain, and no pseudo-language" \
  bash -c "msgunfmt -o /dev/null '$package/contents/locale/de/LC_MESSAGES/plasma_applet_io.restd.rest.mo' && [ -z \"\$(find '$package' -path '*pseudo*')\" ]"
check "the widget's metadata.json names it in German too, and is still JSON" \
  python3 -c 'import json, sys; m = json.load(open(sys.argv[1]))["KPlugin"]; sys.exit(m["Name[de]"] != "Pausentimer" or "Description[de]" not in m)' "$package/metadata.json"
widget_link=$p/libexec/restd/plasma-widget-link
check "plasma-widget-link is installed, executable" test -x "$widget_link"
widget_relinked() {  # widget_relinked VERSION yes|no: whether plasma-widget-link links the widget for that Plasma
  "$widget_link" --root "$dest" --plasma-version "$1" /usr/local/share/restd/plasma /usr/local/share/plasma/plasmoids >/dev/null || return 1
  if [ "$2" = yes ]; then widget_in_place; else [ ! -e "$widget" ] && [ ! -L "$widget" ]; fi
}
check "Plasma 5: plasma-widget-link takes the widget away" widget_relinked 5 no
check "no Plasma: not there"                        widget_relinked none no
check "Plasma 7: there again"                       widget_relinked 7 yes
mkdir -p "$work/own-plasma/io.restd.rest"
check "a real widget folder in its place is left alone" \
  bash -c "'$widget_link' --root '$work/own-plasma' --plasma-version 6 /b / && [ -d '$work/own-plasma/io.restd.rest' ] && [ ! -L '$work/own-plasma/io.restd.rest' ]"
check "nothing is installed with other modes"    test -z "$(find "$dest" -type f ! -perm 644 ! -perm 755)"
check "uninstall removes every file"            uninstall_leaves_nothing "$dest" /usr/local

# The per-user layout: units under share/, where systemd looks in ~/.local.
dest=$work/user
home_prefix=$HOME/.local
installs "$work/install-user.log" DESTDIR="$dest" PREFIX="$home_prefix" GNOME_SHELL_VERSION=46 \
  || { cat "$work/install-user.log" >&2; echo "install-check: the install with PREFIX=~/.local failed" >&2; exit 1; }
check "under ~/.local the unit is in share/systemd/user" test -f "$dest$home_prefix/share/systemd/user/restd.service"
check "under ~/.local ExecStart= names ~/.local/bin/restd" grep -qx "ExecStart=$home_prefix/bin/restd" "$dest$home_prefix/share/systemd/user/restd.service"
check "under ~/.local Exec= names ~/.local/bin/restd" grep -qx "Exec=$home_prefix/bin/restd" "$dest$home_prefix/share/dbus-1/services/io.restd.Rest1.service"
check "GNOME Shell 46, under ~/.local: the extension is a user extension linking to the ES module build" \
  links_to "$dest$home_prefix/share/gnome-shell/extensions/restd@restd.io" "$dest$home_prefix/share/restd/gnome-shell/esm/restd@restd.io"
check "uninstall under ~/.local removes every file" uninstall_leaves_nothing "$dest" "$home_prefix"

# INSTALL_STRIP=no, as debian/rules installs: the programs as built, for dh_strip to keep their symbols.
dest=$work/unstripped
installs "$work/install-unstripped.log" INSTALL_STRIP=no DESTDIR="$dest" PREFIX=/usr GNOME_SHELL_VERSION=43 \
  || { cat "$work/install-unstripped.log" >&2; echo "install-check: the install with INSTALL_STRIP=no failed" >&2; exit 1; }
check "INSTALL_STRIP=no installs restd with its symbols"   has_symbols "$dest/usr/bin/restd"
check "INSTALL_STRIP=no installs restctl with its symbols" has_symbols "$dest/usr/bin/restctl"
check "uninstall after INSTALL_STRIP=no removes every file" uninstall_leaves_nothing "$dest" /usr

# The committed man pages are what the current help text generates.
scripts/generate-man.sh "$swift" "$man_date" "$work/man" >"$work/man.log" 2>&1 || cat "$work/man.log" >&2
if diff -u man/man1/restctl.1 "$work/man/restctl.1"; then
  passed=$((passed + 1))
else
  failed=$((failed + 1))
  echo "install-check: FAILED: man/man1 is out of date with the help text; run \`make man\` and commit the result" >&2
fi

echo "install-check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
