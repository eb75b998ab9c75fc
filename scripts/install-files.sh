#!/usr/bin/env bash
# Usage: scripts/install-files.sh install BIN_DIR GNOME_BUILD_DIR | scripts/install-files.sh uninstall
# Installs (or removes) every file, into $DESTDIR; what `make install` and `make uninstall` run,
# and `make install-check` and the GNOME tests directly. The layout is here, once: every directory
# below comes from the environment when set there (the Makefile passes what was given to it),
# else from PREFIX (/usr/local). INSTALL_STRIP (yes: the programs are stripped with $STRIP; no:
# installed as built) comes from the environment too.
# GNOME_BUILD_DIR holds both builds of the GNOME Shell extension (scripts/build-gnome-extension.sh):
# both are installed under GNOMEBUILDSDIR, and the installed gnome-extension-link (LIBEXECDIR/restd)
# then links GNOMEEXTDIR/restd@restd.io to the one for this machine's GNOME Shell, or for
# GNOME_SHELL_VERSION when that is set (`none`: no link, only the folder; the Debian package links
# at configure time instead).
# The Plasma widget (plasma/io.restd.rest, its links to the GNOME extension's modules followed, and
# restd's catalogs compiled into its contents/locale under its domain plasma_applet_io.restd.rest,
# where Plasma finds a widget's own translations) is
# installed under PLASMABUILDSDIR, and the installed plasma-widget-link puts it into
# PLASMOIDDIR/io.restd.rest (hard links) when this machine has Plasma 6 or later, or as
# PLASMA_VERSION says (`none`: not there).

set -euo pipefail
action=${1:-}
bin_dir=${2:-}
gnome_build_dir=${3:-}
case $action in
  install)
    if [ ! -x "$bin_dir/restd" ] || [ ! -x "$bin_dir/restctl" ]; then
      echo "error: no built restd and restctl in \"$bin_dir\"" >&2
      exit 1
    fi
    if [ ! -f "$gnome_build_dir/legacy/restd@restd.io/metadata.json" ] || [ ! -f "$gnome_build_dir/esm/restd@restd.io/metadata.json" ]; then
      echo "error: no built GNOME Shell extension in \"$gnome_build_dir\"" >&2
      exit 1
    fi
    ;;
  uninstall) ;;
  *) echo "error: install-files.sh: unknown action \"$action\"" >&2; exit 2 ;;
esac
root=${DESTDIR:-}
PREFIX=${PREFIX:-/usr/local}
PREFIX=${PREFIX%/}
BINDIR=${BINDIR:-$PREFIX/bin}
LIBEXECDIR=${LIBEXECDIR:-$PREFIX/libexec}
DATADIR=${DATADIR:-$PREFIX/share}
MANDIR=${MANDIR:-$DATADIR/man}
# systemd looks for user units in /usr/lib and /usr/local/lib, but under ~/.local only in
# ~/.local/share/systemd/user.
if [ "$PREFIX" = "$HOME/.local" ]; then USERUNITDIR=${USERUNITDIR:-$DATADIR/systemd/user}; fi
USERUNITDIR=${USERUNITDIR:-$PREFIX/lib/systemd/user}
DBUSSERVICEDIR=${DBUSSERVICEDIR:-$DATADIR/dbus-1/services}
DBUSINTERFACEDIR=${DBUSINTERFACEDIR:-$DATADIR/dbus-1/interfaces}
BASHCOMPDIR=${BASHCOMPDIR:-$DATADIR/bash-completion/completions}
ZSHCOMPDIR=${ZSHCOMPDIR:-$DATADIR/zsh/site-functions}
FISHCOMPDIR=${FISHCOMPDIR:-$DATADIR/fish/vendor_completions.d}
APPLICATIONSDIR=${APPLICATIONSDIR:-$DATADIR/applications}
# The compiled catalogs, where restd and restctl look: share/locale beside their bin folder.
LOCALEDIR=${LOCALEDIR:-$DATADIR/locale}
# The GNOME Shell extension: both builds under GNOMEBUILDSDIR, and in GNOMEEXTDIR a link to the
# one this machine's GNOME Shell accepts (GNOME_SHELL_VERSION: the Shell to link for instead;
# `none`: no link).
GNOMEEXTDIR=${GNOMEEXTDIR:-$DATADIR/gnome-shell/extensions}
GNOMEBUILDSDIR=${GNOMEBUILDSDIR:-$DATADIR/restd/gnome-shell}
# The Plasma widget: under PLASMABUILDSDIR, and in PLASMOIDDIR (hard links) from the installed
# plasma-widget-link when Plasma 6 or later is there (PLASMA_VERSION: the Plasma to link for
# instead; `none`: not there).
PLASMOIDDIR=${PLASMOIDDIR:-$DATADIR/plasma/plasmoids}
PLASMABUILDSDIR=${PLASMABUILDSDIR:-$DATADIR/restd/plasma}
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
  "file:man/man5/restd.conf.5 644 $MANDIR/man5/restd.conf.5"
  "file:man/man5/io.restd.Rest1.5 644 $MANDIR/man5/io.restd.Rest1.5"
  "file:scripts/gnome-extension-link.sh 755 $LIBEXECDIR/restd/gnome-extension-link"
  "desktop:data/restd.desktop 644 $APPLICATIONSDIR/restd.desktop"
  "tree:esm/restd@restd.io 644 $GNOMEBUILDSDIR/esm/restd@restd.io"
  "tree:legacy/restd@restd.io 644 $GNOMEBUILDSDIR/legacy/restd@restd.io"
  "extension:restd@restd.io 777 $GNOMEEXTDIR/restd@restd.io"
  "file:scripts/plasma-widget-link.sh 755 $LIBEXECDIR/restd/plasma-widget-link"
  "widget:plasma/io.restd.rest 644 $PLASMABUILDSDIR/io.restd.rest"
  "plasmoid:io.restd.rest 777 $PLASMOIDDIR/io.restd.rest"
)
# Each language's catalog, compiled from po/LANG.po.
for po in po/*.po; do
  [ -e "$po" ] || continue
  language=$(basename "$po" .po)
  files+=("catalog:$po 644 $LOCALEDIR/$language/LC_MESSAGES/restd.mo")
done
# The extension's path holds our link; a real directory there (an extension unpacked by hand, or
# from extensions.gnome.org) is not ours: neither replaced (ln would put the link inside it) nor
# removed. The same for the widget's folder without plasma-widget-link's mark.
extension_path=$root$GNOMEEXTDIR/restd@restd.io
if [ -d "$extension_path" ] && [ ! -L "$extension_path" ]; then
  echo "error: $extension_path is a directory, not the link to restd's build: move it away (or set GNOMEEXTDIR), then run this again" >&2
  exit 1
fi
widget_path=$root$PLASMOIDDIR/io.restd.rest
if [ -d "$widget_path" ] && [ ! -f "$widget_path/.restd-widget" ]; then
  echo "error: $widget_path is not restd's widget: move it away (or set PLASMOIDDIR), then run this again" >&2
  exit 1
fi
# translate_metadata FILE: after the widget's "Name" and "Description" lines, their translations
# from each po/LANG.po as "Name[LANG]" and "Description[LANG]" (KDE's keys), JSON-escaped.
translate_metadata() {
  local po language key text translated
  for po in po/*.po; do
    [ -e "$po" ] || continue
    language=$(basename "$po" .po)
    for key in Name Description; do
      # The source text as the file has it (a JSON string), then as the catalog has it.
      text=$(sed -n "s/^ *\"$key\": \"\(.*\)\",\{0,1\}\$/\1/p" "$1" | sed 's/\\"/"/g; s/\\\\/\\/g')
      # shellcheck disable=SC2016 # expanded by msgexec's shell, once per message
      translated=$(msggrep --msgid -F -e "$text" "$po" | msgexec -i - sh -c '[ "$MSGEXEC_MSGID" = "$1" ] && cat' sh "$text" || true)
      [ -n "$translated" ] || continue
      translated=$(printf '%s' "$translated" | sed 's/\\/\\\\/g; s/"/\\"/g')
      KEY=$key LANGUAGE_KEY="${key}[$language]" VALUE=$translated awk '
        { print }
        $0 ~ "^ *\"" ENVIRON["KEY"] "\": " {
          indent = $0; sub(/[^ ].*/, "", indent)
          print indent "\"" ENVIRON["LANGUAGE_KEY"] "\": \"" ENVIRON["VALUE"] "\","
        }' "$1" >"$1.new"
      mv "$1.new" "$1"
    done
  done
}
for entry in "${files[@]}"; do
  read -r source mode target <<<"$entry"
  kind=${source%%:*}
  name=${source#*:}
  path=$root$target
  if [ "$action" = uninstall ]; then
    if { [ "$kind" = tree ] || [ "$kind" = widget ]; } && [ -d "$path" ] && [ ! -L "$path" ]; then rm -rf "$path" && echo "removed $path"
    elif [ "$kind" = plasmoid ] && [ -f "$path/.restd-widget" ]; then rm -rf "$path" && echo "removed $path"
    elif [ -e "$path" ] || [ -L "$path" ]; then rm -f "$path" && echo "removed $path"; fi
    continue
  fi
  mkdir -p "$(dirname "$path")"
  case $kind in
    tree|widget)  # a directory, replaced whole: files $mode, folders 755; the checkout's with its links followed
      tmp=$(mktemp -d "$(dirname "$path")/.install.XXXXXX")
      from=$gnome_build_dir/$name
      [ -d "$from" ] || from=$name
      cp -RL "$from/." "$tmp"
      # The widget's own catalogs, from the same po/LANG.po as restd's, and its name and
      # description in each language in its metadata.json, where Plasma's list of widgets reads them.
      if [ "$kind" = widget ]; then
        scripts/compile-catalogs.sh "$tmp/contents/locale" "plasma_applet_$(basename "$name")"
        translate_metadata "$tmp/metadata.json"
      fi
      find "$tmp" -type d -exec chmod 755 {} + && find "$tmp" -type f -exec chmod "$mode" {} +
      rm -rf "$path" && mv "$tmp" "$path"
      echo "installed $path"
      continue ;;
    extension)  # a relative link to the build the Shell accepts, made by the installed script
      "$root$LIBEXECDIR/restd/gnome-extension-link" --root "$root" ${GNOME_SHELL_VERSION:+--shell-version "$GNOME_SHELL_VERSION"} \
        "$GNOMEBUILDSDIR" "$GNOMEEXTDIR"
      continue ;;
    plasmoid)  # the widget's folder where Plasma 6 is, made by the installed script
      "$root$LIBEXECDIR/restd/plasma-widget-link" --root "$root" ${PLASMA_VERSION:+--plasma-version "$PLASMA_VERSION"} \
        "$PLASMABUILDSDIR" "$PLASMOIDDIR"
      continue ;;
  esac
  tmp=$(mktemp "$(dirname "$path")/.install.XXXXXX")
  case $kind in
    # Stripped unless INSTALL_STRIP=no (a packager that keeps the symbols apart).
    bin) cp "$bin_dir/$name" "$tmp"; if [ "${INSTALL_STRIP:-yes}" = yes ]; then "${STRIP:-strip}" "$tmp"; fi ;;
    file) cp "$name" "$tmp" ;;
    catalog) msgfmt --check --output-file="$tmp" "$name" ;;
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
if [ "$action" = uninstall ]; then
  # The builds' folders, once empty (nothing else of restd lives under them).
  dirs=("$root$GNOMEBUILDSDIR/esm" "$root$GNOMEBUILDSDIR/legacy" "$root$GNOMEBUILDSDIR" "$root$PLASMABUILDSDIR" "$root$LIBEXECDIR/restd")
  [ "$(basename "$(dirname "$GNOMEBUILDSDIR")")" = restd ] && dirs+=("$(dirname "$root$GNOMEBUILDSDIR")")
  for dir in "${dirs[@]}"; do
    if [ -d "$dir" ] && rmdir "$dir" 2>/dev/null; then echo "removed $dir"; fi
  done
fi
if [ "$action" = install ]; then
  echo "As the user who runs it: systemctl --user daemon-reload && systemctl --user enable --now restd"
fi
