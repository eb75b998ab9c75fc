#!/usr/bin/python3
"""The extension in a real headless GNOME Shell (43 to 51), against the real restd and restctl.

Run by scripts/test-gnome.sh, which installs everything into --root first (a temporary tree on
this machine, or / of a Debian root's overlay). One Shell start for every case: a private system
bus with python-dbusmock's logind (the Shell aborts without logind), a private session bus,
keyfile GSettings, and mutter's hidden --unsafe-mode option, so that org.gnome.Shell.Eval and the
screenshot API answer. GNOME's own version check stays on: the extension must be listed for the
Shell it runs in. The same checks run in every Shell; where the Shell's own API differs, they ask
for it by version. Every check waits on a condition with a deadline (polling Eval); nothing
sleeps to assert timing.

With --language de, a short second session instead: the Shell, restd and restctl in German
(LANG=de_DE.UTF-8, a locale the caller generated, as a German desktop has; the Shell's own gettext
needs it), and the extension's label and menu in German from its catalog (its locale/ folder).
With --language en@pseudo, another short session: LANGUAGE=en@pseudo:de over that German locale
(glibc's gettext ignores LANGUAGE under C.UTF-8, and GLib's translates nothing at all in a process
whose own domain, gnome-shell, has no catalog for the locale: German is there), the test-only
pseudo-language, which the caller
put into the installed extension's locale/ and restd's share/locale of a throw-away root; every
text of the catalog is there wrapped in ⟦ ⟧, and the label and every menu item the walk shows must
have no word outside them but the values the test typed: a word outside is a text that bypasses
the catalog.
"""

import argparse
import glob
import json
import os
import re
import shutil
import signal
import subprocess
import time

import dbus

from desktop_session import Session, check, finish, wait_until

UUID = 'restd@restd.io'
# The indicator, as the Shell's Eval sees it.
IND = f"Main.panel.statusArea['{UUID}']"
# The symbolic icons the panel shows (lib/format.js).
PAUSE_ICON = 'media-playback-pause-symbolic'
RINGING_ICON = 'audio-volume-high-symbolic'
IDLE_ICON = 'alarm-symbolic'
# What the extension logs when the report could not be written (the test makes it so, once).
REPORT_WARNING = 'restd@restd.io: the history opens in a terminal: could not write the report'

class ShellSession(Session):
    """The Shell's session: GSettings in a keyfile, the installed tree's data first, fake terminals
    first on PATH, and the user's browsers (remove_browsers, install_browser)."""

    def __init__(self, args):
        super().__init__(args.work)
        self.args = args
        self.env.update({
            'GSETTINGS_BACKEND': 'keyfile',
            # The installed tree first: the extension, and the interface file it reads.
            'XDG_DATA_DIRS': '/usr/share' if args.root == '/' else f'{args.root}/usr/share:/usr/share',
            'PATH': f"{self.fake_terminals()}:{args.root}/usr/bin:{os.environ['PATH']}",
            'NO_AT_BRIDGE': '1',
        })
        # Made before the Shell starts, so that GIO watches it for the stand-in browser.
        self.applications = os.path.join(self.env['XDG_DATA_HOME'], 'applications')
        os.makedirs(self.applications)
        self.remove_browsers()

    def remove_browsers(self):
        """No browser for the Shell, whatever is installed (chromium here, for the report's own
        tests): each installed handler of web pages taken off them in the user's mimeapps.list, as
        GNOME's Settings does. text/html then falls back to text/plain's handler (an editor)."""
        types = ('text/html', 'x-scheme-handler/http', 'x-scheme-handler/https')
        removed = {t: [] for t in types}
        for data_dir in self.env['XDG_DATA_DIRS'].split(':'):
            folder = os.path.join(data_dir, 'applications')
            for path in glob.glob(f'{folder}/**/*.desktop', recursive=True):
                found = re.search(r'^MimeType=(.*)$', open(path, errors='replace').read(), re.M)
                desktop_id = os.path.relpath(path, folder).replace('/', '-')
                for t in types:
                    if found and t in found.group(1).split(';'):
                        removed[t].append(desktop_id)
        with open(os.path.join(self.env['XDG_CONFIG_HOME'], 'mimeapps.list'), 'w') as f:
            f.write('[Removed Associations]\n' + ''.join(f'{t}={";".join(ids)};\n' for t, ids in removed.items() if ids))

    def install_browser(self):
        """A stand-in browser in the user's applications, installed as a browser installs itself
        there: its desktop file, then the folder's mimeinfo.cache as update-desktop-database
        writes it (GIO takes the associations from that file). It writes the URI it is given to
        browser_args."""
        self.browser_args = os.path.join(self.work, 'browser.args')
        script = os.path.join(self.work, 'browser')
        with open(script, 'w') as f:
            f.write(f'#!/bin/sh\nprintf %s "$1" >{self.browser_args}.tmp && mv {self.browser_args}.tmp {self.browser_args}\n')
        os.chmod(script, 0o755)
        with open(os.path.join(self.applications, 'restd-test-browser.desktop'), 'w') as f:
            f.write(f'[Desktop Entry]\nType=Application\nName=Test browser\nExec={script} %u\n'
                    'MimeType=text/html;x-scheme-handler/http;\n')
        with open(os.path.join(self.applications, 'mimeinfo.cache'), 'w') as f:
            f.write('[MIME Cache]\ntext/html=restd-test-browser.desktop;\nx-scheme-handler/http=restd-test-browser.desktop;\n')

    def fake_terminals(self):
        """A folder of fake terminals under every name GIO looks for, first on the Shell's PATH: each
        writes how it was called to terminal_args and runs its command, output to terminal_out."""
        folder = os.path.join(self.work, 'terminals')
        os.makedirs(folder)
        self.terminal_args = os.path.join(self.work, 'terminal.args')
        self.terminal_out = os.path.join(self.work, 'terminal.out')
        script = (f'#!/bin/sh\necho "${{0##*/}} $1" >{self.terminal_args}\ncase $1 in -e|-x|--) shift ;; esac\n'
                  f'exec "$@" >{self.terminal_out} 2>&1 </dev/null\n')
        # GLib 2.74's list (43) and 2.80's (xdg-terminal-exec, kgx first).
        for name in ('xdg-terminal-exec', 'kgx', 'gnome-terminal', 'mate-terminal', 'xfce4-terminal', 'tilix',
                     'konsole', 'nxterm', 'color-xterm', 'rxvt', 'dtterm', 'xterm'):
            with open(os.path.join(folder, name), 'w') as f:
                f.write(script)
            os.chmod(os.path.join(folder, name), 0o755)
        return folder

    def uninstall_browser(self):
        for name in ('restd-test-browser.desktop', 'mimeinfo.cache'):
            os.remove(os.path.join(self.applications, name))

def theme_icon(evaluate, name):
    """The file of icon `name` in the Shell's icon theme, looked up as the icon theme
    specification says (the theme, the themes it inherits, hicolor; in the Shell's data
    directories), or None. The Shell draws a missing icon as image-missing, so that an St.Icon
    with an image proves nothing."""
    theme, dirs = evaluate("[imports.gi.St.Settings.get().gtk_icon_theme, GLib.get_system_data_dirs()]")
    themes, seen = [theme], set()
    while themes:
        current = themes.pop(0)
        if current in seen:
            continue
        seen.add(current)
        for data_dir in dirs:
            folder = os.path.join(data_dir, 'icons', current)
            for path in glob.glob(f'{folder}/**/{name}.*', recursive=True):
                if path.endswith(('.svg', '.png')):
                    return path
            index = os.path.join(folder, 'index.theme')
            if os.path.exists(index):
                inherits = re.search(r'^Inherits=(.*)$', open(index).read(), re.M)
                themes += [t.strip() for t in inherits.group(1).split(',')] if inherits else []
        if not themes and 'hicolor' not in seen:
            themes.append('hicolor')
    return None


def shell_version(env):
    """The major version of the gnome-shell on PATH ("GNOME Shell 48.7" → 48)."""
    out = subprocess.run(['gnome-shell', '--version'], env=env, capture_output=True, text=True, check=True).stdout
    return int(re.search(r'(\d+)\.', out).group(1))


class ShellApi:
    """The JavaScript for what the tests do that the Shell spells differently by version."""

    def __init__(self, version):
        self.version = version
        # 51 takes the menus' animation as {animate}; before, as a BoxPointer.PopupAnimation (0: none).
        self.menu_open = 'open({animate: false})' if version >= 51 else 'open(false)'
        self.menu_close = 'close({animate: false})' if version >= 51 else 'close(false)'
        # 43-44 load the legacy build, whose modules are on the extension's imports; 45+ import.
        self.legacy = version < 45


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--root', required=True)
    parser.add_argument('--work', required=True)
    parser.add_argument('--screenshot')
    parser.add_argument('--language', choices=['de', 'en@pseudo'], help='the short session in this language instead')
    args = parser.parse_args()
    session = ShellSession(args)
    session.env.pop('LANGUAGE', None)
    if args.language:
        # A German desktop's locale, not the C.UTF-8 of the other checks; the pseudo-language
        # before German in LANGUAGE (see above).
        session.env.pop('LC_ALL', None)
        session.env['LANG'] = 'de_DE.UTF-8'
        if args.language == 'en@pseudo':
            session.env['LANGUAGE'] = 'en@pseudo:de'
    try:
        run(session, args)
    finally:
        session.close()
    finish('in-shell', 'gnome-shell log', open(os.path.join(args.work, 'shell.log'), errors='replace').read().splitlines())


def run(session, args):
    env = session.env
    started = time.monotonic()
    # The system bus with logind, and the session bus.
    env['DBUS_SYSTEM_BUS_ADDRESS'] = session.bus('system')
    env['DBUS_SESSION_BUS_ADDRESS'] = session.bus('session')
    session.spawn(['/usr/bin/python3', '-m', 'dbusmock', '--template', 'logind'], 'logind.log')
    system = dbus.bus.BusConnection(env['DBUS_SYSTEM_BUS_ADDRESS'])
    wait_until(lambda: system.name_has_owner('org.freedesktop.login1'), 'logind', 10)
    bus = dbus.bus.BusConnection(env['DBUS_SESSION_BUS_ADDRESS'])

    version = shell_version(env)
    gsettings = [('org.gnome.shell', 'enabled-extensions', f"['{UUID}']"),
                 # What users have: a Shell not listed in metadata.json leaves the extension out of date.
                 ('org.gnome.shell', 'disable-extension-version-validation', 'false'),
                 ('org.gnome.shell', 'welcome-dialog-last-shown-version', "'999'"),
                 ('org.gnome.desktop.interface', 'enable-animations', 'false'),
                 # GNOME's old terminal setting, whatever this machine has: one that does not exist.
                 ('org.gnome.desktop.default-applications.terminal', 'exec', "'restd-test-no-such-terminal'")]
    for schema, key, value in gsettings:
        subprocess.run(['gsettings', 'set', schema, key, value], env=env, check=True)

    shell = session.spawn(['gnome-shell', '--unsafe-mode', '--headless', '--virtual-monitor', '1280x720',
                           '--wayland', '--no-x11'], 'shell.log')
    shell_object = None

    def evaluate(code):
        """Runs code in the Shell; returns the parsed JSON result, or raises."""
        nonlocal shell_object
        if shell_object is None:
            shell_object = bus.get_object('org.gnome.Shell', '/org/gnome/Shell', introspect=False)
        ok, out = shell_object.Eval(code, dbus_interface='org.gnome.Shell', timeout=10)
        if not ok:
            raise RuntimeError(f'Eval failed: {out}')
        return json.loads(out) if out else None

    def evaluates(code):
        try:
            return evaluate(code)
        except (dbus.DBusException, RuntimeError):
            return None

    up = wait_until(lambda: bus.name_has_owner('org.gnome.Shell') and evaluates('1 + 1') == 2,
                    'the Shell', 60)
    check(up, f'GNOME Shell {version} is up and Eval answers ({time.monotonic() - started:.1f} s)')
    if not up:
        return
    # The Shell starts in the overview, whose panel is transparent and drawn in other colours:
    # left for the desktop once the start-up (which shows it) is over.
    check(wait_until(lambda: evaluates("""Main.layoutManager._startingUp || Main.overview.visible
        ? (Main.layoutManager._startingUp || Main.overview.hide(), false) : !Main.panel.has_style_pseudo_class('overview')"""),
        'overview', 20), 'start-up over and the overview hidden: the panel is the desktop\'s')
    # State 1 is ENABLED up to 45, ACTIVE from 46 on; 4 is OUT_OF_DATE (not in shell-version).
    # Waited for until it settles: while its module loads, 45+ keep it in 3 (ERROR) without an
    # error message, then 2 (INACTIVE) and 8 (ACTIVATING).
    last = [None, '']

    def settled():
        got = evaluates(f"""(() => {{ const e = Main.extensionManager.lookup('{UUID}');
            return e ? [e.state, e.error ?? ''] : null; }})()""")
        last[:] = got or last
        return got and (got[0] in (1, 4) or got[1]) and got
    state, error = wait_until(settled, 'enabled', 10) or last
    link = os.path.join(args.root, 'usr/share/gnome-shell/extensions', UUID)
    build = os.path.basename(os.path.dirname(os.path.realpath(link)))
    check(state == 1, f'the installed extension is {"ACTIVE" if version >= 46 else "ENABLED"} '
          f'(state {state}, from the link to the {build} build, version check on){": " + error if error else ""}')
    api = ShellApi(version)

    # restd not running: nothing in the panel, no source ticking.
    check(evaluates(f'{IND} !== undefined && !{IND}.visible && {IND}._tickId === 0') is True,
          'restd not running: the indicator is hidden, no tick source')

    restd_env = dict(env)
    bin_dir = f'{args.root}/usr/bin'

    def start_restd():
        process = session.spawn([f'{bin_dir}/restd'], 'restd.log', env=restd_env)
        ok = wait_until(lambda: bus.name_has_owner('io.restd.Rest1'), 'restd', 10)
        return process if ok else None

    def restctl(*argv):
        return subprocess.run([f'{bin_dir}/restctl', *argv], env=env, capture_output=True, text=True)

    def label():
        return evaluates(f'{IND}.visible ? {IND}._label.text : null')

    def wait_label(pattern, timeout=5.0):
        return wait_until(lambda: (text := label()) and re.fullmatch(pattern, text) and text, pattern, timeout)

    def timer_property(timer_id, name):
        props = dbus.Interface(bus.get_object('io.restd.Rest1', f'/io/restd/Rest1/timer/{timer_id}', introspect=False),
                               'org.freedesktop.DBus.Properties')
        return props.Get('io.restd.Rest1.Timer', name)

    def label_agrees(timer_id, suffix):
        """The label if it shows the time left by restd's EndsAtUSec for timer_id, then suffix
        (a regex); else None. The time and the label are read in one Eval: the label was drawn
        at the last second boundary or a moment after it, so it shows that time or one second
        more."""
        try:
            ends = int(timer_property(timer_id, 'EndsAtUSec'))
        except dbus.DBusException:
            return None
        got = evaluates(f"""(() => {{ const clock = s => `${{Math.floor(s / 60)}}:${{String(s % 60).padStart(2, '0')}}`;
            const left = Math.ceil(({ends} - GLib.get_real_time()) / 1e6);
            return [{IND}.visible ? {IND}._label.text : null, [left, left + 1].map(clock)]; }})()""")
        if not got or not got[0]:
            return None
        text, expected = got
        return text if any(re.fullmatch(re.escape(e) + suffix, text) for e in expected) else None

    def wait_agrees(timer_id, suffix, timeout=5.0):
        return wait_until(lambda: label_agrees(timer_id, suffix), f'{timer_id} {suffix}', timeout)

    paused_mark = f"({IND}._stateIcon.mapped && {IND}._stateIcon.icon_name === '{PAUSE_ICON}')"

    restd = start_restd()
    check(restd is not None, 'restd owns io.restd.Rest1 on the session bus')
    connected = wait_until(lambda: evaluates(f'{IND}._client.connected'), 'connected', 5)
    check(connected, 'the extension sees restd appear (watch_name)')
    check(evaluates(f'!{IND}.visible') is True, 'no timer: nothing in the panel')
    if args.language == 'de':
        check_german(evaluate, evaluates, restctl, timer_property, wait_label, api)
        session.stop(restd)
        return
    if args.language == 'en@pseudo':
        check_pseudo(session, bus, evaluate, evaluates, restctl, api, lambda: session.stop(restd))
        return

    # A rest: the label's first text, checked against EndsAtUSec at the instant it was drawn. How
    # long it took from restd's StartedAtUSec (both wall-clock µs on this machine, so neither
    # restctl's own start nor the polling here counts) is reported, not asserted: a speed target
    # on a loaded machine is a benchmark's job, not a test's.
    evaluate(f"""(() => {{ const label = {IND}._label; globalThis.restdTestShown = null;
        const id = label.connect('notify::text', () => {{ if (label.text) {{
            globalThis.restdTestShown = [label.text, GLib.get_real_time()]; label.disconnect(id); }} }});
        return true; }})()""")
    result = restctl('start', '90', '--label', 'Squat')
    shown = wait_until(lambda: evaluates('globalThis.restdTestShown'), 'the first label', 5)
    started = int(timer_property('default', 'StartedAtUSec')) if shown else 0
    ends = int(timer_property('default', 'EndsAtUSec')) if shown else 0
    text, at = shown or (None, 0)
    left = -(-(ends - at) // 1_000_000)
    expected = [f'{s // 60}:{s % 60:02d} Squat' for s in (left, left + 1)]
    latency = at - started
    check(result.returncode == 0 and text in expected and 0 <= latency,
          f'restctl start 90 --label Squat: "{text}" (expected one of {expected}), {latency / 1000:.0f} ms after restd started the rest')
    check(evaluates(f"{IND}._tickId !== 0 && {IND}._timer.has_style_class_name('restd-running')") is True,
          'running: a tick source is armed, style class restd-running')

    # The label off screen (its panel box hidden): no source; back on screen: ticking again.
    check(evaluate(f'(() => {{ {IND}.container.hide(); return !{IND}._label.mapped && {IND}._tickId === 0; }})()') is True,
          'label not mapped: no tick source')
    check(evaluate(f'(() => {{ {IND}.container.show(); return {IND}._label.mapped && {IND}._tickId !== 0; }})()') is True,
          'label mapped again: ticking again')

    restctl('pause')
    text = wait_until(lambda: evaluates(paused_mark) and wait_label(r'\d+:\d\d Squat'), 'paused', 5)
    icon_file = theme_icon(evaluate, PAUSE_ICON)
    check(text and icon_file, f'pause: the pause mark, {PAUSE_ICON} of the Shell\'s icon theme ({icon_file}), and "{text}"')
    check(evaluates(f"{IND}._tickId === 0 && {IND}._timer.has_style_class_name('restd-paused')") is True,
          'paused: no tick source, style class restd-paused')
    # No font here has ⏸ (U+23F8): as text it was drawn as a box.
    check(evaluates(f'{IND}._label.clutter_text.get_layout().get_unknown_glyphs_count()') == 0,
          'paused: no unknown glyph in the label')
    restctl('resume')
    check(wait_until(lambda: evaluates(f'!{IND}._stateIcon.visible') and wait_label(r'\d+:\d\d Squat'), 'resumed', 5),
          'resume: the pause mark is gone')
    before = int(timer_property('default', 'EndsAtUSec'))
    restctl('add', '30')
    moved = wait_until(lambda: int(timer_property('default', 'EndsAtUSec')) - before, 'add', 5)
    text = wait_agrees('default', ' Squat')
    check(text and moved and abs(moved - 30_000_000) <= 1000,
          f'add 30: EndsAtUSec moved {(moved or 0) / 1e6} s, and the label agrees with it: "{text}"')
    restctl('live', '--heart-rate', '128', '--done', '3', '--total', '5')
    text = wait_label(r'\d+:\d\d Squat ♥128 3/5')
    check(text, f'restctl live --heart-rate 128 --done 3 --total 5: "{text}"')
    # ♥ stays text: every glyph of the label is in the panel's font or in the one fontconfig
    # falls back to (Pango counts those it found in neither).
    glyphs = evaluate(f"""(() => {{ const layout = {IND}._label.clutter_text.get_layout();
        const fonts = new Set(); const iter = layout.get_iter();
        do {{ const run = iter.get_run(); if (run) fonts.add(run.item.analysis.font.describe().get_family()); }} while (iter.next_run());
        return [layout.get_unknown_glyphs_count(), [...fonts], {IND}._label.get_theme_node().get_font().to_string()]; }})()""")
    check(glyphs[0] == 0, f'"{text}" has no unknown glyph ({glyphs[0]}): the panel\'s font {glyphs[2]}, drawn in {glyphs[1]}')

    # A menu item pressed through Eval reaches restd.
    timer_path = '/io/restd/Rest1/timer/default'

    def ends_at():
        props = dbus.Interface(bus.get_object('io.restd.Rest1', timer_path, introspect=False),
                               'org.freedesktop.DBus.Properties')
        return int(props.Get('io.restd.Rest1.Timer', 'EndsAtUSec'))

    def press(text):
        return evaluate(f"""(() => {{
            const menu = {IND}.menu;
            menu.{api.menu_close};
            menu.{api.menu_open};
            const item = menu._getMenuItems().find(i => i.label && i.label.text === {json.dumps(text)});
            if (!item) return false;
            item.activate(null);
            return true;
        }})()""")

    before = ends_at()
    check(press('+30 s'), 'the menu has "+30 s"')
    # restd keeps deadlines on CLOCK_BOOTTIME: EndsAtUSec, a wall-clock instant, may move by a µs.
    check(wait_until(lambda: abs(ends_at() - before - 30_000_000) <= 1000, '+30 s', 5),
          f'"+30 s" pressed in the menu: restd added 30 s ({(ends_at() - before) / 1e6} s)')
    before = ends_at()
    check(press('−15 s'), 'the menu has "−15 s"')
    check(wait_until(lambda: abs(before - ends_at() - 15_000_000) <= 1000, '-15 s', 5),
          f'"−15 s" pressed: restd took 15 s off ({(before - ends_at()) / 1e6} s)')
    # A failing call shows restd's sentence: "Set done" with no exercise and no set before it.
    check(press('Set done'), 'the menu has "Set done"')
    error = wait_until(lambda: evaluates(f"""(() => {{ {IND}.menu.{api.menu_open};
        const item = {IND}.menu._getMenuItems().find(i => i.label && i.label.has_style_class_name('restd-menu-error'));
        return item ? item.label.text : null; }})()"""), 'error', 5)
    check(error and 'GDBus' not in error and len(error) > 10, f'a refused call shows the daemon\'s sentence in the menu: "{error}"')
    result = restctl('set', '--exercise', 'Squat', '--reps', '5')
    text = wait_agrees('default', r' Squat( ♥128)?( \d+/\d+)?')
    check(result.returncode == 0 and text, f'restctl set --exercise Squat: its rest is in the label: "{text or label()}" {result.stderr.strip()}')
    check(press('Set done'), '"Set done" again (now the exercise of the previous set)')
    next_rest = wait_until(lambda: evaluates(f"""(() => {{ {IND}.menu.{api.menu_open};
        return {IND}.menu._getMenuItems().map(i => i.label?.text).find(t => t?.startsWith('Next rest')) ?? null; }})()"""),
        'next rest', 5)
    check(next_rest, f'"Set done" pressed: CompleteSet reached restd and the menu shows "{next_rest}"')
    # Pounds and a record: the Manager's WeightUnit is followed (PropertiesChanged after a reload),
    # and the menu says the record of the set that started the rest, in pounds.
    os.makedirs(f"{env['XDG_CONFIG_HOME']}/restd", exist_ok=True)
    with open(f"{env['XDG_CONFIG_HOME']}/restd/config.toml", 'w') as f:
        f.write('[history]\nweight_unit = "lb"\n')
    restd.send_signal(signal.SIGHUP)
    check(wait_until(lambda: evaluates(f'{IND}._client.weightUnit') == 'lb', 'WeightUnit', 5),
          '[history] weight_unit = "lb" and a reload: the extension follows the Manager\'s WeightUnit')
    restctl('set', '--exercise', 'Squat', '--reps', '5', '--weight', '225', '--rest', '90')
    result = restctl('set', '--reps', '3', '--weight', '245', '--rest', '90')
    record = 'record: Squat 245 lb × 3, heaviest (was 225 lb), estimated 1RM 269.5 lb (was 262.5)'
    shown = wait_until(lambda: evaluates(f"""(() => {{ {IND}.menu.{api.menu_open};
        return {IND}.menu._getMenuItems().map(i => i.label?.text).find(t => t?.startsWith('record: ')) ?? null; }})()"""),
        'record line', 5)
    check(shown == record and record in result.stdout,
          f'a record set: the menu says its record under the rest it started, in pounds: "{shown}"')
    # Both sets taken back and kilograms again, so that what follows (and the screenshot) is as before.
    for _ in range(2):
        restctl('undo')
    with open(f"{env['XDG_CONFIG_HOME']}/restd/config.toml", 'w') as f:
        f.write('')
    restd.send_signal(signal.SIGHUP)
    check(wait_until(lambda: evaluates(f'{IND}._client.weightUnit') == 'kg', 'WeightUnit', 5)
          and evaluates(f"{IND}.menu._getMenuItems().every(i => !i.label?.text?.startsWith('record: '))"),
          'undone and kilograms again: the menu has no record line')
    # "Open history", whenever restctl is on PATH. With no history-terminal set, GIO picks the
    # terminal, as it does for a Terminal=true application: the test's fakes, first on the Shell's
    # PATH, under every name GIO looks for. GNOME's old terminal setting names one that does not
    # exist (GNOME 49 ignores that setting; an extension that reads it has no terminal).
    def set_history_terminal(value):
        subprocess.run(['gsettings', '--schemadir', f'{args.root}/usr/share/gnome-shell/extensions/{UUID}/schemas',
                        'set', 'org.gnome.shell.extensions.restd', 'history-terminal', value], env=env, check=True)

    def ran_history(path):
        return wait_until(lambda: os.path.exists(path) and 'Squat' in (text := open(path).read()) and text, 'history', 5)

    def menu_error():
        return evaluates(f"""(() => {{ {IND}.menu.{api.menu_open};
            const item = {IND}.menu._getMenuItems().find(i => i.label?.has_style_class_name('restd-menu-error'));
            return item ? item.label.text : null; }})()""")
    check(wait_until(lambda: press('Open history'), 'history item', 5),
          'no terminal set and GNOME\'s terminal setting naming none: "Open history" is there and pressed')
    picked = wait_until(lambda: os.path.exists(session.terminal_args) and open(session.terminal_args).read().strip(),
                        'terminal', 5)
    check(picked and ran_history(session.terminal_out),
          f'GIO opened its terminal ("{picked}"), which ran restctl history (through less, which copies when its '
          'output is not a terminal): it lists the Squat set')
    history_out = os.path.join(session.work, 'history.out')
    set_history_terminal(f"['sh', '-c', '\"$0\" \"$@\" >{history_out}']")
    check(press('Open history') and ran_history(history_out),
          'history-terminal set: "Open history" ran restctl history in that command instead')
    set_history_terminal('[]')
    # No terminal that GIO knows installed (the fakes' folder off the Shell's PATH, restctl still
    # on it): pressing "Open history" says so in the menu.
    evaluate(f"""(() => {{ globalThis.restdTestPath = GLib.getenv('PATH');
        GLib.setenv('PATH', {json.dumps(f'{args.root}/usr/bin'.replace('//', '/'))}, true); return true; }})()""")
    check(press('Open history'), 'no terminal GIO knows of on the Shell\'s PATH: "Open history" is still there and pressed')
    error = wait_until(menu_error, 'error', 5)
    check(error and error.startswith('Could not open the history in a terminal: ') and 'terminal' in error[42:],
          f'the menu says why: "{error}"')
    evaluate("(() => { GLib.setenv('PATH', globalThis.restdTestPath, true); delete globalThis.restdTestPath; return true; })()")
    os.remove(session.terminal_out)
    check(press('Open history') and ran_history(session.terminal_out) and wait_until(lambda: menu_error() is None, 'no error', 5),
          'the terminals back on PATH: GIO\'s terminal again, and the error is gone')
    # A browser installed (the stand-in, GIO's only handler of web pages; GIO sees the new desktop
    # file by itself): the item becomes "Open report", restctl report writes the page into the
    # cache, and the browser gets its file:// URI.
    session.install_browser()
    report = os.path.join(env['XDG_CACHE_HOME'], 'restd', 'report.html')
    report_item = wait_until(lambda: press('Open report'), 'report item', 10)
    check(report_item, 'a browser installed: the item is "Open report", and pressed')
    uri = wait_until(lambda: os.path.exists(session.browser_args) and open(session.browser_args).read(), 'browser', 10)
    page = open(report, errors='replace').read() if os.path.exists(report) else ''
    # The extension hands GIO the file:// URI; for a local file, GIO fills %u with the path.
    check(uri in (f'file://{report}', report) and '<title>Training report, ' in page and 'Squat' in page,
          f'"Open report" wrote the report ({len(page)} bytes, its title and the Squat set in it) and the browser got "{uri}"')
    # The report cannot be written (a folder where it goes, which restctl does not replace): the
    # terminal opens instead, the log says why, and the browser gets nothing.
    for path in (session.browser_args, report, session.terminal_out):
        if os.path.exists(path):
            os.remove(path)
    os.makedirs(os.path.join(report, 'in-the-way'))
    shell_log = os.path.join(args.work, 'shell.log')
    check(press('Open report') and ran_history(session.terminal_out),
          'the report not written: "Open report" opened the terminal instead, which ran restctl history')
    warning = wait_until(lambda: [line for line in open(shell_log, errors='replace').read().splitlines()
                                  if REPORT_WARNING in line], 'warning', 5)
    check(warning and 'restctl: ' in warning[0] and not os.path.exists(session.browser_args),
          f'the Shell\'s log says why, the browser got nothing: {warning}')
    shutil.rmtree(report)
    # The browser removed: "Open history" again (and in the picture of the menu).
    session.uninstall_browser()
    history_item = wait_until(lambda: evaluates(f"""(() => {{ {IND}.menu.{api.menu_close}; {IND}.menu.{api.menu_open};
        return {IND}.menu._getMenuItems().some(i => i.label?.text === 'Open history'); }})()"""), 'history item', 10)
    check(report_item and history_item,
          'the item follows the browser: "Open report" while one was installed, "Open history" once it is removed')
    evaluates(f'{IND}.menu.{api.menu_close}')
    # A workout: "Set done" takes the plan's next set; the menu shows where the workout is.
    plan = os.path.join(session.work, 'push.toml')
    with open(plan, 'w') as f:
        f.write('name = "Push day"\n[[exercise]]\nname = "Squat"\nsets = 5\nreps = 5\nrest = "90s"\n'
                '[[exercise]]\nname = "Bench press"\nsets = 5\nrest = "2m"\n')
    result = restctl('workout', 'start', plan)
    check(result.returncode == 0, f'restctl workout start: {result.stdout.strip()} {result.stderr.strip()}')
    check(press('Set done'), '"Set done" during the workout')

    def menu_has(*texts):
        return evaluates(f"""(() => {{ const have = {IND}.menu._getMenuItems().map(i => i.label?.text);
            return {json.dumps(list(texts))}.every(t => have.includes(t)); }})()""")
    workout_lines = ['Next rest 1:30 (plan)', 'Push day · set 2 of 10', 'Next: Squat, set 2 of 5']
    check(wait_until(lambda: menu_has(*workout_lines), 'workout', 5),
          f'the menu shows the next rest, the workout\'s position and next exercise: {workout_lines}')
    restctl('live', '--heart-rate', '128', '--done', '1', '--total', '10')
    check(wait_agrees('default', ' Squat ♥128 1/10'), 'the label during the workout: time, label, ♥ and progress')
    menu_texts = evaluate(f"{IND}.menu._getMenuItems().map(i => i.label?.text ?? '—')")
    print(f'  menu: {menu_texts}; live: {evaluate(f"{IND}._client.live")}')
    unknown = evaluate(f"""{IND}.menu._getMenuItems().filter(i => i.label?.text)
        .filter(i => i.label.clutter_text.get_layout().get_unknown_glyphs_count() > 0).map(i => i.label.text)""")
    check(unknown == [], f'every glyph of the menu (−, ·) is in a font: {unknown or "no item with an unknown glyph"}')

    if args.screenshot:
        shot = screenshot(evaluate, bus, api, args.screenshot)
        check(shot, f'screenshot of the panel and the open menu: {args.screenshot}')
    evaluates(f'{IND}.menu.{api.menu_close}')

    # Cancel: the label vanishes, and so does the tick source.
    restctl('cancel')
    check(wait_until(lambda: evaluates(f'!{IND}.visible && {IND}._tickId === 0'), 'hidden', 5),
          'cancel: the label vanishes, no tick source')

    # The pre-alert and the last seconds show as style classes, not only in the text.
    restctl('start', '11', '--warn', '10', '--label', 'Squat', '--no-notify')
    classes = "['restd-warning', 'restd-last-seconds'].every(c => " + IND + "._timer.has_style_class_name(c))"
    check(wait_until(lambda: evaluates(f'{IND}.visible && {classes}'), 'warning', 3),
          'a rest with a 10 s pre-alert, 1 s in: style classes restd-warning and restd-last-seconds')
    restctl('cancel')
    check(wait_until(lambda: evaluates(f'!{IND}.visible'), 'hidden', 5), 'cancelled again: hidden')

    # The menu's actions act on the timer followed now: two running timers without `default`,
    # the menu open on the first; the first paused, so the second is followed with a menu of
    # the same items. "Pause" must pause the second.
    restctl('start', '60', '--id', 'first', '--label', 'First', '--no-notify')
    restctl('start', '120', '--id', 'second', '--label', 'Second', '--no-notify')
    check(wait_label(r'\d+:\d\d First( .*)?'), 'two timers without default: the one ending first is followed')
    evaluate(f'{IND}.menu.{api.menu_open}')
    restctl('pause', '--id', 'first')
    check(wait_label(r'\d+:\d\d Second( .*)?'), 'the first paused: the second is followed')
    check(press('Pause'), 'the menu (open all along) has "Pause"')
    states = wait_until(lambda: (s := [str(timer_property(i, 'State')) for i in ('first', 'second')]) == ['paused', 'paused'] and s,
                        'second paused', 5)
    check(states, f'"Pause" paused the timer followed now, not the one followed when the menu was built '
          f'({states or [str(timer_property(i, "State")) for i in ("first", "second")]})')
    evaluates(f'{IND}.menu.{api.menu_close}')
    restctl('cancel', '--all')
    check(wait_until(lambda: evaluates(f'!{IND}.visible'), 'hidden', 5), 'cancel --all: hidden')

    # The followed timer paused (default), another one running: the open menu's line for the
    # other counts down; closed, nothing ticks.
    restctl('start', '90', '--label', 'Squat', '--no-notify')
    restctl('pause')
    restctl('start', '60', '--id', 'other', '--no-notify')
    check(wait_label(r'\d+:\d\d Squat( .*)?') and wait_until(lambda: evaluates(f"{IND}._client.timers.size === 2 && {paused_mark}"), 'two', 5),
          'default paused and another timer running: the paused one is followed')
    other_line = f"""(() => {{ {IND}.menu.{api.menu_open};
        return {IND}.menu._getMenuItems().map(i => i.label?.text).find(t => t?.startsWith('other: ')) ?? null; }})()"""
    first = evaluates(other_line)
    check(first and evaluates(f'{IND}._tickId !== 0'), f'the menu open: a tick source, for "{first}"')
    later = wait_until(lambda: (text := evaluates(other_line)) != first and text, 'other ticks', 3)
    check(later, f'the other timer counts down in the open menu: "{first}", then "{later}"')
    evaluates(f'{IND}.menu.{api.menu_close}')
    check(evaluates(f'{IND}._tickId === 0') is True, 'the menu closed: no tick source (the followed timer is paused)')
    restctl('cancel', '--all')
    check(wait_until(lambda: evaluates(f'!{IND}.visible'), 'hidden', 5), 'cancel --all: hidden again')

    # A rest that ran out rings until it is stopped: Ringing is restd's own state (no sound server
    # runs here). The label says so, the menu offers "Stop" first, and pressing it silences restd.
    restctl('start', '1', '--label', 'Squat', '--no-notify')
    rings = wait_until(lambda: bool(timer_property('default', 'Ringing')), 'Ringing', 5)
    text = wait_label(r'\+\d+:\d\d ringing Squat( .*)?')
    marked = evaluates(f"{IND}._stateIcon.mapped && {IND}._stateIcon.icon_name === '{RINGING_ICON}' && "
                       f"{IND}._timer.has_style_class_name('restd-over') && {IND}._timer.has_style_class_name('restd-ringing')")
    icon_file = theme_icon(evaluate, RINGING_ICON)
    check(rings and text and marked and icon_file,
          f'a 1 s rest over: restd says Ringing, the label "{text or label()}" after {RINGING_ICON} of the Shell\'s icon '
          f'theme ({icon_file}), style classes restd-over and restd-ringing')
    heading = evaluates(f"""(() => {{ {IND}.menu.{api.menu_open};
        return {IND}.menu._getMenuItems().map(i => i.label?.text ?? '—').slice(0, 2); }})()""")
    check(heading and re.fullmatch(r'Squat · over by \d+:\d\d, ringing', heading[0]) and heading[1] == 'Stop',
          f'the menu: the timer ringing, then "Stop" first ({heading})')
    check(press('Stop'), 'ringing: "Stop" pressed in the menu')
    silenced = wait_until(lambda: not timer_property('default', 'Ringing'), 'silenced', 5)
    state = str(timer_property('default', 'State'))
    check(silenced and state == 'expired', f'"Stop" silenced restd: Ringing false over the bus, the timer still {state}')
    quiet = wait_until(lambda: evaluates(f"""(() => {{ {IND}.menu.{api.menu_open};
        return !{IND}._stateIcon.visible && !{IND}._timer.has_style_class_name('restd-ringing')
            && {IND}._timer.has_style_class_name('restd-over')
            && !{IND}.menu._getMenuItems().some(i => i.label?.text === 'Stop'); }})()""") and wait_label(r'\+\d+:\d\d Squat( .*)?'),
        'quiet', 5)
    check(quiet, f'silenced: the label "{quiet}" over and no longer ringing, no loudspeaker, no "Stop" in the menu')
    evaluates(f'{IND}.menu.{api.menu_close}')
    restctl('cancel', '--all')
    check(wait_until(lambda: evaluates(f'!{IND}.visible'), 'hidden', 5), 'cancel --all after the alarm: hidden')

    # Readable on GNOME's dark and light panel, in every state; 47+'s accent colour while paused.
    for what, ok in check_colours(evaluate, evaluates, restctl, env, api):
        check(ok, what)
    restctl('cancel', '--all')
    check(wait_until(lambda: evaluates(f'!{IND}.visible'), 'hidden', 5), 'cancel --all after the colours: hidden')

    # Configurable: an icon instead of nothing, still without a source.
    def set_idle_icon(value):
        subprocess.run(['gsettings', '--schemadir', f'{args.root}/usr/share/gnome-shell/extensions/{UUID}/schemas',
                        'set', 'org.gnome.shell.extensions.restd', 'show-idle-icon', value], env=env, check=True)
    set_idle_icon('true')
    shown = wait_until(lambda: evaluates(f"{IND}.visible && {IND}._icon.mapped && {IND}._icon.icon_name === '{IDLE_ICON}' && !{IND}._timer.visible && {IND}._tickId === 0"), 'icon', 5)
    icon_file = theme_icon(evaluate, IDLE_ICON)
    check(shown and icon_file, f'show-idle-icon: no timer shows {IDLE_ICON} of the Shell\'s icon theme ({icon_file}), and no source ticks')
    set_idle_icon('false')
    check(wait_until(lambda: evaluates(f'!{IND}.visible'), 'hidden', 5), 'show-idle-icon off: nothing again')

    # restd restarting keeps the label right.
    restctl('start', '90', '--label', 'Squat')
    check(wait_agrees('default', r' Squat( ♥128)?( \d+/\d+)?'), 'a new rest shows')
    session.stop(restd)
    check(wait_until(lambda: evaluates(f'!{IND}.visible && !{IND}._client.connected'), 'gone', 5),
          'restd stopped: the label is gone (name vanished)')
    restd = start_restd()
    # Live fields are not kept across a restart, the timer is.
    text = wait_agrees('default', r' Squat( \d+/\d+)?')
    check(text, f'restd started again: the label is back and agrees with EndsAtUSec: "{text}"')

    # Without the interface file: its sentence is the client's error, and it still follows restd
    # (a second RestClient of the extension's own code, given no file to read).
    rest_client = extension_module(evaluate, api, 'restClient')
    evaluate(f"""(() => {{ const {{RestClient}} = {rest_client};
        const client = new RestClient(() => {{}}, {{gettext: text => text}}); globalThis.restdTestClient = client;
        client._cancellable = new Gio.Cancellable(); client._loadInterfaces([], client._cancellable);
        return true; }})()""")
    seen = wait_until(lambda: evaluates("""(() => { const c = globalThis.restdTestClient;
        return c.connected && c.timers.size > 0 && c.error ? [c.error, c.timers.size] : null; })()"""), 'no interface file', 5)
    check(seen and 'io.restd.Rest1.xml' in seen[0],
          f'no interface file: the client says so ("{seen and seen[0]}") and still follows restd ({seen and seen[1]} timer)')
    evaluate('(() => { globalThis.restdTestClient.stop(); delete globalThis.restdTestClient; return true; })()')

    # enable/disable 100 times: no leaked source, signal subscription or actor.
    leaks = check_enable_disable(evaluate, bus, wait_label)
    for what, ok in leaks:
        check(ok, what)

    # restd not running: no label, and nothing of ours in the Shell's log.
    session.stop(restd)
    check(wait_until(lambda: evaluates(f'!{IND}.visible'), 'hidden', 5), 'restd gone again: no label')
    log = open(os.path.join(args.work, 'shell.log'), errors='replace').read()
    ours = [line for line in log.splitlines() if 'restd' in line.lower() and REPORT_WARNING not in line]
    check(not ours, f'nothing else of the extension in the Shell\'s log (it logs to stderr here; no journald): {ours[:3]}')
    del shell


def check_german(evaluate, evaluates, restctl, timer_property, wait_label, api):
    """The label and the menu in German, from the extension's own catalog (po/de.po), in a Shell
    started with LANG=de_DE.UTF-8; a menu item pressed by its German name still reaches restd."""
    languages = evaluate('GLib.get_language_names()')
    check(languages and languages[0].startswith('de'), f'the Shell speaks German: GLib\'s languages {languages[:3]}')

    def menu():
        return menu_texts(evaluates, api)

    def press(text):
        return press_item(evaluate, text)

    restctl('start', '90', '--label', 'Squat', '--no-notify')
    check(wait_label(r'\d+:\d\d Squat'), 'a rest: the label')
    running = ['Pausieren', '+30 s', '−15 s', 'Überspringen', '—', 'Satz fertig', '—', 'Verlauf öffnen']
    items = wait_until(lambda: (m := menu()) and m[1:] == running and m, 'German menu', 5) or menu()
    check(items and re.fullmatch(r'Squat · noch \d+:\d\d', items[0]) and items[1:] == running,
          f'the menu in German: {items}')
    check(press('Pausieren') and wait_until(lambda: str(timer_property('default', 'State')) == 'paused', 'paused', 5),
          '"Pausieren" pressed: restd paused the rest')
    items = wait_until(lambda: (m := menu()) and m[1] == 'Fortsetzen' and m, 'paused menu', 5) or menu()
    check(items and re.fullmatch(r'Squat · pausiert, noch \d+:\d\d', items[0]) and items[1] == 'Fortsetzen',
          f'paused, in German: {items[:2]}')
    evaluates(f'{IND}.menu.{api.menu_close}')
    restctl('cancel', '--all')
    # A rest over and ringing: the panel's word and the menu's heading and first item.
    restctl('start', '1', '--label', 'Squat', '--no-notify')
    text = wait_label(r'\+\d+:\d\d klingelt Squat')
    items = wait_until(lambda: (m := menu()) and m[1] == 'Stopp' and m, 'ringing menu', 5) or menu()
    check(text and items and re.fullmatch(r'Squat · seit \d+:\d\d vorbei, klingelt', items[0]) and items[1] == 'Stopp',
          f'ringing, in German: the label "{text}", the menu {items[:2]}')
    check(press('Stopp') and wait_until(lambda: not timer_property('default', 'Ringing'), 'silenced', 5),
          '"Stopp" pressed: restd silenced the alarm')
    evaluates(f'{IND}.menu.{api.menu_close}')
    restctl('cancel', '--all')
    check(wait_until(lambda: evaluates(f'!{IND}.visible'), 'hidden', 5), 'cancel --all: hidden')


def menu_texts(evaluates, api):
    """The menu's items as the open menu shows them, top to bottom ('—' for a separator)."""
    return evaluates(f"""(() => {{ {IND}.menu.{api.menu_close}; {IND}.menu.{api.menu_open};
        return {IND}.menu._getMenuItems().map(i => i.label?.text || '—'); }})()""")


def press_item(evaluate, text):
    """Activates the menu item showing `text`; whether there was one."""
    return evaluate(f"""(() => {{ const item = {IND}.menu._getMenuItems().find(i => i.label?.text === {json.dumps(text)});
        if (!item) return false; item.activate(null); return true; }})()""")


# What the pseudo-language session types (a plan's names, a timer's label and id) and the unit
# symbols: the only words that may show outside ⟦ ⟧.
PSEUDO_TYPED = ['Squat', 'Push day', 'Bench press', 'other']
PSEUDO_ALLOWED = {word for text in PSEUDO_TYPED for word in text.split()} | {'kg', 'lb', 'bpm'}


def unmarked_words(text):
    """The words (two letters or more) of `text` outside ⟦ ⟧ (nested marks included) that the
    test did not type."""
    outside, previous = text, None
    while outside != previous:
        previous, outside = outside, re.sub(r'⟦[^⟦⟧]*⟧', ' ', outside)
    return [w for w in re.findall(r'[^\W\d_]{2,}', outside) if w not in PSEUDO_ALLOWED]


def check_pseudo(session, bus, evaluate, evaluates, restctl, api, stop_restd):
    """The label and the menu in the pseudo-language, through the states that show each of their
    texts: no timer, a refused call, a rest with live fields and the next rest of a set, another
    timer, paused, a workout, ringing and silenced, a browser installed, restd gone. In each,
    every word of the label and of every menu item must be inside ⟦ ⟧ (or typed by the test),
    restd's own refusal too: restd speaks the session's language."""
    languages = evaluate('GLib.get_language_names()')
    check(languages and languages[0] == 'en@pseudo', f'the Shell asks for en@pseudo first: GLib\'s languages {languages[:3]}')
    # The refusal "Set done" meets with no timer and no set before: asked of restd here first.
    manager = dbus.Interface(bus.get_object('io.restd.Rest1', '/io/restd/Rest1', introspect=False),
                             'io.restd.Rest1.Manager')
    try:
        manager.CompleteSet('', '', dbus.Dictionary({}, signature='sv'))
        refusal_sentence = None
    except dbus.DBusException as e:
        refusal_sentence = e.get_dbus_message()
    check(refusal_sentence and not unmarked_words(refusal_sentence),
          f'restd refuses a set with no exercise, in the pseudo-language: "{refusal_sentence}"')

    def menu():
        return menu_texts(evaluates, api) or []

    def label():
        return evaluates(f'{IND}.visible ? {IND}._label.text : null')

    def reached(what, ready, timeout=5):
        """Waits until ready(label, menu), then checks every text shown."""
        got = wait_until(lambda: (m := menu()) and ready(label(), m) and (label(), m), what, timeout)
        shown, items = got or (label(), menu())
        texts = ([shown] if shown else []) + [t for t in items if t != '—']
        words = {t: unmarked_words(t) for t in texts}
        outside = {t: w for t, w in words.items() if w}
        check(got and not outside, f'{what}: every word inside ⟦ ⟧ ({"reached" if got else "NOT reached"}; '
              f'outside: {outside or "none"}; the label {shown!r}, the menu {items})')

    reached('no timer', lambda _, m: '⟦Set done⟧' in m and '⟦No rest running⟧' in m)
    press_item(evaluate, '⟦Set done⟧')
    # restd refuses (no exercise, no set before): its sentence, in restd's catalog too.
    reached('a refused call: restd\'s sentence as it wrote it', lambda _, m: refusal_sentence in m)
    restctl('set', '--exercise', 'Squat', '--reps', '5')
    restctl('live', '--heart-rate', '128', '--done', '3', '--total', '5')
    reached('a rest after a set, with live fields',
            lambda shown, m: shown and re.fullmatch(r'\d+:\d\d Squat ♥128 3/5', shown) and '⟦Pause⟧' in m)
    press_item(evaluate, '⟦Set done⟧')
    reached('"Set done" pressed: the next rest', lambda _, m: any(t.startswith('⟦Next rest') for t in m))
    restctl('start', '300', '--id', 'other', '--next', 'Bench press', '--no-notify')
    restctl('pause')
    reached('paused, another timer running', lambda _, m: '⟦Resume⟧' in m and any(t.startswith('⟦other') for t in m))
    restctl('cancel', '--all')
    restctl('start', '60', '--label', 'Squat', '--next', 'Bench press', '--no-notify')
    reached('a rest with what comes next', lambda _, m: any(t.startswith('⟦Next: ') for t in m))
    plan = os.path.join(session.work, 'push.toml')
    with open(plan, 'w') as f:
        f.write('name = "Push day"\n[[exercise]]\nname = "Squat"\nsets = 5\nreps = 5\nrest = "90s"\n'
                '[[exercise]]\nname = "Bench press"\nsets = 5\nrest = "2m"\n')
    restctl('workout', 'start', plan)
    press_item(evaluate, '⟦Set done⟧')
    reached('a workout', lambda _, m: any(t.startswith('⟦Push day') for t in m))
    restctl('workout', 'end')
    restctl('cancel', '--all')
    restctl('start', '1', '--label', 'Squat', '--no-notify')
    reached('ringing', lambda shown, m: shown and shown.startswith('+') and '⟦Stop⟧' in m)
    press_item(evaluate, '⟦Stop⟧')
    reached('silenced, over', lambda shown, m: shown and shown.startswith('+') and '⟦Stop⟧' not in m)
    session.install_browser()
    reached('a browser installed', lambda _, m: '⟦Open report⟧' in m, 10)
    evaluates(f'{IND}.menu.{api.menu_close}')
    stop_restd()
    reached('restd not running', lambda _, m: '⟦restd is not running⟧' in m)
    evaluates(f'{IND}.menu.{api.menu_close}')


def extension_module(evaluate, api, name):
    """A JavaScript expression for one of the extension's own modules, as the Shell loaded it."""
    if api.legacy:
        return f"Main.extensionManager.lookup('{UUID}').imports.{name}"
    # import() of the file the Shell imported gives the very same module. Eval awaits a promise
    # only from 49 on: the module is kept on globalThis and waited for.
    evaluate(f"""(() => {{ globalThis.restdTestModule = null;
        import(Main.extensionManager.lookup('{UUID}').dir.get_child('{name}.js').get_uri())
            .then(m => {{ globalThis.restdTestModule = m; }}, e => {{ globalThis.restdTestModule = {{error: `${{e}}`}}; }});
        return true; }})()""")
    loaded = wait_until(lambda: evaluate('globalThis.restdTestModule && (globalThis.restdTestModule.error ?? true)'),
                        name, 5)
    if loaded is not True:
        raise RuntimeError(f'import of {name}.js in the Shell: {loaded}')
    return 'globalThis.restdTestModule'


def contrast(fg, bg):
    """WCAG 2 contrast ratio of two sRGB colours given as [r, g, b] in 0-255."""
    def luminance(rgb):
        linear = [c / 255 / 12.92 if c / 255 <= 0.04045 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    high, low = sorted([luminance(fg), luminance(bg)], reverse=True)
    return (high + 0.05) / (low + 0.05)


# A JavaScript function: the colour an actor's text is drawn in and the colour behind it, as
# [r, g, b] each: the backgrounds from the actor up to the first opaque one (a menu's is its
# box pointer's -arrow-background-color), laid over each other, and the text colour over them.
COLOURS_JS = """globalThis.restdTestColours = actor => {
    const St = imports.gi.St;
    const rgba = c => [c.red, c.green, c.blue, c.alpha / 255];
    const over = (top, below) => below.map((v, i) => v * (1 - top[3]) + top[i] * top[3]);
    const layers = [];
    for (let a = actor; a; a = a.get_parent()) {
        if (!(a instanceof St.Widget))
            continue;
        const node = a.get_theme_node();
        const [arrow, arrowColour] = node.lookup_color('-arrow-background-color', false);
        const layer = rgba(arrow ? arrowColour : node.get_background_color());
        layers.push(layer);
        if (layer[3] === 1)
            break;
    }
    const bg = layers.reverse().reduce((below, top) => over(top, below), [0, 0, 0]);
    return [over(rgba(actor.get_theme_node().get_foreground_color()), bg).map(Math.round), bg.map(Math.round)];
}"""

# The timer's states as restd makes them, the style class each shows, and the contrast asked:
# WCAG's 4.5:1 for text (the panel's text is bold, for which 3:1 would do).
STATES = [
    ('running', ['start', '90', '--label', 'Squat', '--no-notify'], 'restd-running'),
    ('paused', ['pause'], 'restd-paused'),
    ('warned', ['start', '20', '--warn', '19', '--label', 'Squat', '--no-notify'], 'restd-warning'),
    ('last seconds', ['start', '9', '--label', 'Squat', '--no-notify'], 'restd-last-seconds'),
    ('over', ['start', '1', '--label', 'Squat', '--no-notify'], 'restd-over'),
]
MIN_CONTRAST = 4.5
ACCENTS = ['blue', 'teal', 'green', 'yellow', 'orange', 'red', 'pink', 'purple', 'slate']


def check_colours(evaluate, evaluates, restctl, env, api):
    """Each state's text against what is behind it, in GNOME's dark and light style (the
    color-scheme setting: 46+ then draw a light panel and menus and load stylesheet-light.css;
    43-45 stay dark), a refusal's line in the menu too; on 47+, the paused timer in each of the
    nine accent colours. Returns (what, ok) pairs."""
    results = []
    evaluate(COLOURS_JS)

    def gsettings(key, value):
        subprocess.run(['gsettings', 'set', 'org.gnome.desktop.interface', key, value], env=env, check=True)

    def colours(actor):
        return evaluates(f'globalThis.restdTestColours({actor})')

    def measure(what, actor):
        got = colours(actor)
        ratio = contrast(*got) if got else 0
        results.append((f'{what}: text {got and got[0]} on {got and got[1]}, contrast {ratio:.2f}:1 (at least {MIN_CONTRAST})',
                        ratio >= MIN_CONTRAST))
        return got

    for scheme, light in (('default', False), ('prefer-light', True)):
        gsettings('color-scheme', f"'{scheme}'")
        light_panel = light and api.version >= 46
        sheet = 'stylesheet.css' if api.legacy else 'stylesheet-light.css' if light_panel else 'stylesheet-dark.css'
        style = 'light' if light_panel else 'dark'
        # The Shell restyles itself and reloads the extension's stylesheet: waited for.
        ready = wait_until(lambda: evaluates(f"""(() => {{
            const sheet = Main.extensionManager.lookup('{UUID}').stylesheet?.get_basename();
            const [r, g, b] = globalThis.restdTestColours(Main.panel)[1];
            return sheet === '{sheet}' && (r + g + b > 3 * 128) === {str(light_panel).lower()}; }})()"""), scheme, 10)
        results.append((f'color-scheme {scheme}: GNOME {api.version} draws a {style} panel, the extension loaded {sheet}',
                        bool(ready)))
        for state, command, style_class in STATES:
            if command[0] == 'start':
                restctl('cancel', '--all')
            restctl(*command)
            shown = wait_until(lambda: evaluates(f"{IND}.visible && {IND}._timer.has_style_class_name('{style_class}')"),
                               state, 5)
            got = measure(f'{style} panel, {state} ({style_class})', f'{IND}._label') if shown else None
            if not shown:
                results.append((f'{style} panel: the {state} state ({style_class}) shown', False))
            if state == 'paused' and got:
                icon = colours(f'{IND}._stateIcon')
                results.append((f'{style} panel, paused: the pause mark in the label\'s colour ({icon and icon[0]})',
                                icon is not None and icon[0] == got[0]))
        # A refused call's sentence in the menu.
        evaluate(f"(() => {{ {IND}._callError = 'a refusal'; {IND}.redraw(); {IND}.menu.{api.menu_open}; return true; }})()")
        line = f"{IND}.menu._getMenuItems().find(i => i.label?.has_style_class_name('restd-menu-error')).label"
        measure(f'{style} menu, a refusal (restd-menu-error)', line)
        evaluate(f"(() => {{ {IND}._callError = null; {IND}.redraw(); {IND}.menu.{api.menu_close}; return true; }})()")
        if api.version < 47:
            continue
        # The paused timer in each accent colour (47+): each one its own colour, each readable.
        restctl('cancel', '--all')
        restctl('start', '90', '--label', 'Squat', '--no-notify')
        restctl('pause')
        wait_until(lambda: evaluates(f"{IND}._timer.has_style_class_name('restd-paused')"), 'paused', 5)
        seen = {}
        for accent in ACCENTS:
            gsettings('accent-color', f"'{accent}'")
            key = f'{IND}._label'
            got = wait_until(lambda: (c := colours(key)) and c[0] not in seen.values() and c, accent, 5)
            if got:
                seen[accent] = got[0]
                measure(f'{style} panel, paused, accent {accent}', key)
            else:
                results.append((f'{style} panel, paused: the label\'s colour follows the accent colour {accent} '
                                f'({colours(key)}, the others {seen})', False))
        gsettings('accent-color', "'blue'")
    gsettings('color-scheme', "'default'")
    evaluate('delete globalThis.restdTestColours')
    return results


def check_enable_disable(evaluate, bus, wait_label):
    """100 synchronous enable/disable pairs, then one that connects; then compares with before.

    Through the extension's own enable() and disable(), on the object the Shell calls them on
    (its stateObj): what the extension manager does on every version, without its private,
    version-specific helpers (asynchronous from 45 on) or rewriting the enabled-extensions
    setting each time, so that every source and match rule counted is the extension's own.
    """
    shell_name = bus.get_name_owner('org.gnome.Shell')
    stats = dbus.Interface(bus.get_object('org.freedesktop.DBus', '/org/freedesktop/DBus', introspect=False),
                           'org.freedesktop.DBus.Debug.Stats')

    def match_rules():
        try:
            return int(stats.GetConnectionStats(shell_name)['MatchRules'])
        except dbus.DBusException:
            return None

    def collect():
        # Twice, in separate main-loop turns: a dropped proxy unsubscribes when it is finalized.
        for _ in range(2):
            evaluate('imports.system.gc()')

    # Disabled, collected: the baseline.
    extension = f"Main.extensionManager.lookup('{UUID}').stateObj"
    evaluate(f"{extension}.disable()")
    collect()
    base_rules = match_rules()
    first_id = evaluate('(() => { const id = GLib.idle_add(GLib.PRIORITY_DEFAULT, () => false); GLib.source_remove(id); return id; })()')
    evaluate(f"""(() => {{ for (let i = 0; i < 100; i++) {{
        {extension}.enable(); {extension}.disable(); }} }})()""")
    # Once more, all the way: connected, a timer shown and ticking, then disabled.
    evaluate(f"{extension}.enable()")
    shown = wait_label(r'\d+:\d\d Squat( \d+/\d+)?')
    evaluate(f"{extension}.disable()")
    collect()
    last_id = evaluate('(() => { const id = GLib.idle_add(GLib.PRIORITY_DEFAULT, () => false); GLib.source_remove(id); return id; })()')
    def alive_sources(names='restd|gio'):
        return evaluate(f"""(() => {{ const context = GLib.MainContext.default(); const alive = [];
            for (let id = {first_id} + 1; id < {last_id}; id++) {{
                const source = context.find_source_by_id(id);
                // Ours are named: the tick '[restd] …', GIO's on our behalf '[gio] …'. The Shell's
                // own ('[gnome-shell] …', e.g. a banner's timeout when restd notifies) and
                // GLib's unnamed ones (the keyfile settings backend) may start in the window too.
                if (source && !source.is_destroyed() && /^\\[({names})/.test(source.get_name() ?? '')) alive.push(`${{id}}:${{source.get_name()}} priority ${{source.get_priority()}} ready ${{source.get_ready_time() < 0 ? -1 : source.get_ready_time() - GLib.get_monotonic_time()}}`);
            }} return alive; }})()""")
    # Our own tick must be gone at once; GIO's idle sources (freeing a name watcher's data,
    # finishing cancelled calls) run at the next idle moment: wait for them, with a deadline.
    alive = alive_sources('restd')
    if not alive and wait_until(lambda: alive_sources() == [], 'sources', 3) is None:
        alive = alive_sources()
    rules = match_rules()
    actors = evaluate("""(() => { let n = 0; const walk = a => { if (a.has_style_class_name?.('restd-label')) n++;
        a.get_children().forEach(walk); }; walk(global.stage); return n; })()""")
    results = [
        (f'the last enable connected and showed the rest ("{shown}")', bool(shown)),
        (f'after 101 enable/disable: no main-loop source of ours left of the {last_id - first_id - 1} created ({alive})',
         alive == [] and last_id > first_id + 1),
        (f'after 101 enable/disable: no D-Bus match rule left (the Shell has {rules}, {base_rules} before)',
         rules is not None and rules == base_rules),
        (f'after 101 enable/disable: no actor of ours on the stage ({actors})', actors == 0),
        ('after 101 enable/disable: no indicator in the panel',
         evaluate(f"{IND} === undefined || {IND} === null") is True),
    ]
    evaluate(f"{extension}.enable()")
    results.append(('enabled again: the rest is back', bool(wait_label(r'\d+:\d\d Squat( \d+/\d+)?'))))
    return results


def screenshot(evaluate, bus, api, path):
    """The top right of the screen with the open menu, through the Shell's Screenshot API."""
    box = evaluate(f"""(() => {{ const menu = {IND}.menu; menu.{api.menu_open};
        const [mx, my] = menu.actor.get_transformed_position(); const [mw, mh] = menu.actor.get_transformed_size();
        const [bx] = {IND}.get_transformed_position();
        const x = Math.floor(Math.min(mx, bx)) - 16;
        return [x, 0, Math.ceil(Math.max(mx + mw, global.stage.width) - x), Math.ceil(my + mh) + 16]; }})()""")
    time.sleep(0.3)  # let the menu's first frame be drawn: a picture, not an assertion
    shooter = dbus.Interface(bus.get_object('org.gnome.Shell.Screenshot', '/org/gnome/Shell/Screenshot',
                                            introspect=False), 'org.gnome.Shell.Screenshot')
    target = os.path.abspath(path)
    ok, _ = shooter.ScreenshotArea(*[int(v) for v in box], False, target)
    return bool(ok) and open(target, 'rb').read(8) == b'\x89PNG\r\n\x1a\n'


if __name__ == '__main__':
    main()
