#!/usr/bin/python3
"""The widget io.restd.rest in a real headless Plasma 6, against the real restd and restctl.

Run by scripts/test-plasma.sh inside a Debian root with its Plasma layer, restd installed there
from the .deb (or by scripts/install-files.sh). One Plasma start for every case, in the order that
works headless: a private session bus (activating what it is asked for from the installed
services, restd among them), the AT-SPI bus, kwin_wayland drawing into a window of Xvfb (so that
the screen can be read: screen.py), kactivitymanagerd with the Wayland display (plasmashell aborts
its shell load without it), then plasmashell. The widget is
added to a panel through org.kde.PlasmaShell.evaluateScript, read through AT-SPI (accessible names
and roles, as KDE's own selenium-webdriver-at-spi tests find items) and pressed the same way.
restd's notifications go to plasmashell's own notification server and its MPRIS player to
Plasma's media controller. A bus monitor counts the widget's method calls to restd. Every check
waits on a condition with a deadline; nothing sleeps to assert timing.
"""

import argparse
import os
import re
import signal
import subprocess
import sys
import threading
import time

import dbus

import screen

# The harness both desktops' in-session tests share, beside the GNOME extension's in_shell.py.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'gnome-extension', 'tests'))
from desktop_session import Session, check, finish, wait_until  # noqa: E402

WIDGET = 'io.restd.rest'
# metadata.json's Name: the accessible name of the panel button that holds the compact representation.
WIDGET_NAME = 'Rest timer'
# Its name in German (the widget's own title, i18n("Rest timer"), from its catalog).
WIDGET_NAMES = {None: WIDGET_NAME, 'de': 'Pausentimer'}
MEDIA_WIDGET = 'org.kde.plasma.mediacontroller'
RESTD = 'io.restd.Rest1'

class PlasmaSession(Session):
    """Plasma's session (Wayland, KDE's variables), its own settings, and every process of the run
    marked, so that close() finds those the bus started too."""

    def __init__(self, work):
        super().__init__(work)
        home = self.env['HOME']
        self.env.update({
            'XDG_DATA_DIRS': '/usr/local/share:/usr/share',
            'XDG_CURRENT_DESKTOP': 'KDE', 'XDG_SESSION_TYPE': 'wayland', 'KDE_FULL_SESSION': 'true',
            'KDE_SESSION_VERSION': '6',
            # Marks every process of this run, those the bus starts included (close() below).
            'RESTD_TEST_RUN': f'{os.getpid()}-{time.time_ns()}',
        })
        # restd's MPRIS player, off by default, for Plasma's media controller.
        os.makedirs(f'{home}/.config/restd')
        with open(f'{home}/.config/restd/config.toml', 'w') as f:
            f.write('[mpris]\nenabled = true\n')
        # Plasma's own settings: no animations, no splash.
        with open(f'{home}/.config/kdeglobals', 'w') as f:
            f.write('[KDE]\nAnimationDurationFactor=0\n')
        with open(f'{home}/.config/ksplashrc', 'w') as f:
            f.write('[KSplash]\nEngine=none\nTheme=None\n')

    def close(self):
        super().close()
        # What the bus activated (restd, kded6, the AT-SPI registry, KIO workers) is no child of
        # ours: found by this run's mark in its environment.
        mark = f"RESTD_TEST_RUN={self.env['RESTD_TEST_RUN']}".encode()
        for _ in range(2):
            for pid in os.listdir('/proc'):
                try:
                    if pid.isdigit() and int(pid) != os.getpid() and mark in open(f'/proc/{pid}/environ', 'rb').read().split(b'\0'):
                        os.kill(int(pid), signal.SIGKILL)
                except OSError:
                    continue
            time.sleep(0.2)


class CallMonitor:
    """dbus-monitor on the session bus: every method call to restd, with its sender."""

    def __init__(self, session):
        self.calls = []
        self.lock = threading.Lock()
        self.process = session.spawn(['dbus-monitor', '--profile', f"type='method_call',destination='{RESTD}'"],
                                     'monitor.log', stdout=subprocess.PIPE)
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        # --profile: type, time, serial, sender, destination, path, interface, member (tab-separated).
        for line in self.process.stdout:
            fields = line.decode(errors='replace').rstrip('\n').split('\t')
            # restd's own objects only: Plasma's media controller reads its MPRIS player too.
            if len(fields) >= 8 and fields[0] == 'mc' and fields[5].startswith('/io/restd/Rest1'):
                with self.lock:
                    self.calls.append((float(fields[1]), fields[3], fields[5], fields[6], fields[7]))

    def count(self):
        with self.lock:
            return len(self.calls)

    def since(self, index, sender=None):
        with self.lock:
            return [c for c in self.calls[index:] if sender is None or c[1] == sender]


def accessible_tree(root):
    """Every accessible under root, depth first."""
    stack = [root]
    while stack:
        node = stack.pop()
        if node is None:
            continue
        yield node
        try:
            stack.extend(reversed([node.getChildAtIndex(i) for i in range(node.childCount)]))
        except Exception:  # noqa: BLE001 (a node that went away while walking)
            continue


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--work', required=True)
    parser.add_argument('--measure', type=float, default=0, help='seconds to count calls and redraws in each state')
    parser.add_argument('--screenshot', help='a PNG to write the panel and the open popup to')
    parser.add_argument('--language', choices=['de'], help='a short session in this language instead')
    args = parser.parse_args()
    session = PlasmaSession(args.work)
    if args.language:
        # A German desktop's locale (generated by the caller), not the C.UTF-8 of the other checks.
        session.env.pop('LC_ALL', None)
        session.env['LANG'] = 'de_DE.UTF-8'
    try:
        run(session, args)
    finally:
        session.close()
    log = open(os.path.join(args.work, 'plasmashell.log'), errors='replace').read()
    finish('in-plasma', 'plasmashell log', [line for line in log.splitlines() if 'qt.scenegraph' not in line])


def plasma_version():
    """plasma-workspace's version, as dpkg has it (6.3.6 of 4:6.3.6-2)."""
    out = subprocess.run(['dpkg-query', '-W', '-f=${Version}', 'plasma-workspace'], capture_output=True, text=True).stdout
    return re.sub(r'^\d+:|-[^-]*$', '', out.strip())


def run(session, args):
    env = session.env
    started = time.monotonic()
    env['DBUS_SESSION_BUS_ADDRESS'] = session.bus('session', activation=True)
    bus = dbus.bus.BusConnection(env['DBUS_SESSION_BUS_ADDRESS'])
    monitor = CallMonitor(session)
    session.spawn(['/usr/libexec/at-spi-bus-launcher', '--launch-immediately'], 'at-spi.log')
    wait_until(lambda: bus.name_has_owner('org.a11y.Bus'), 'AT-SPI bus', 10)
    # KWin's X11 backend in Xvfb rather than its virtual output: the same compositing (QPainter,
    # with no OpenGL device here), and the screen readable from Xvfb's file. Xvfb picks a free
    # display and listens on no abstract socket (the network namespace is the host's).
    xvfb = session.spawn(['Xvfb', '-displayfd', '1', '-screen', '0', '1280x800x24', '-fbdir', args.work,
                          '-nolisten', 'tcp', '-nolisten', 'local'], 'xvfb.log', stdout=subprocess.PIPE)
    display = ':' + xvfb.stdout.readline().decode().strip()
    session.spawn(['kwin_wayland', '--x11-display', display, '--no-lockscreen', '--width', '1280', '--height', '800',
                   '--socket', 'wayland-0'], 'kwin.log')
    wait_until(lambda: os.path.exists(os.path.join(env['XDG_RUNTIME_DIR'], 'wayland-0')), 'Wayland socket', 30)
    env.update({'WAYLAND_DISPLAY': 'wayland-0', 'QT_QPA_PLATFORM': 'wayland',
                'QT_ACCESSIBILITY': '1', 'QT_LINUX_ACCESSIBILITY_ALWAYS_ON': '1'})
    subprocess.run(['dbus-update-activation-environment', 'WAYLAND_DISPLAY', 'QT_QPA_PLATFORM', 'QT_ACCESSIBILITY',
                    'QT_LINUX_ACCESSIBILITY_ALWAYS_ON', 'XDG_CURRENT_DESKTOP', 'XDG_SESSION_TYPE'], env=env, check=True)
    session.spawn(['/usr/lib/x86_64-linux-gnu/libexec/kactivitymanagerd'], 'kactivitymanagerd.log')
    wait_until(lambda: bus.name_has_owner('org.kde.ActivityManager'), 'activity manager', 20)
    shell_env = dict(env)
    # Each frame of plasmashell's windows, logged: the redraws the measurements count.
    shell_env['QT_LOGGING_RULES'] = 'qt.scenegraph.time.renderloop=true'
    shell = session.spawn(['plasmashell', '--no-respawn'], 'plasmashell.log', env=shell_env)
    up = wait_until(lambda: bus.name_has_owner('org.kde.plasmashell'), 'plasmashell', 60)
    version = plasma_version()
    check(up, f'plasmashell {version} is up ({time.monotonic() - started:.1f} s)')
    if not up:
        return
    shell_object = bus.get_object('org.kde.plasmashell', '/PlasmaShell', introspect=False)

    def script(code):
        return str(shell_object.evaluateScript(code, dbus_interface='org.kde.PlasmaShell', timeout=30))

    shell_name = bus.get_name_owner('org.kde.plasmashell')
    known = script('print(knownWidgetTypes.join(" "))').split()
    check(WIDGET in known, f'{WIDGET} is among the widgets Plasma knows (the "Add Widgets" list){"" if WIDGET in known else known}')
    script(f'var p = new Panel(); p.location = "top"; p.height = 44; p.addWidget("{MEDIA_WIDGET}")')

    # pyatspi finds the accessibility bus through the session bus of its own environment, at import.
    os.environ['DBUS_SESSION_BUS_ADDRESS'] = env['DBUS_SESSION_BUS_ADDRESS']
    import pyatspi
    desktop = pyatspi.Registry.getDesktop(0)

    def shell_app():
        for i in range(desktop.childCount):
            app = desktop.getChildAtIndex(i)
            if app is not None and app.name == 'plasmashell':
                return app
        return None

    def find(predicate, root=None):
        root = root or shell_app()
        return next((n for n in accessible_tree(root) if predicate(n)), None) if root else None

    widget_name = WIDGET_NAMES[args.language]

    def widget_button():
        return find(lambda n: n.name == widget_name and n.getRole() == pyatspi.ROLE_PUSH_BUTTON)

    def panel_texts():
        button = widget_button()
        if not button:
            return None
        return [n.name for n in accessible_tree(button) if n.getRole() == pyatspi.ROLE_LABEL and n.name]

    def panel_text():
        texts = panel_texts()
        return texts[0] if texts else ''

    def wait_text(pattern, timeout=5.0):
        return wait_until(lambda: (t := panel_text()) and re.fullmatch(pattern, t) and t, pattern, timeout)

    def popup_button(name):
        return find(lambda n: n.name == name and n.getRole() == pyatspi.ROLE_PUSH_BUTTON and n is not None)

    def open_popup():
        if popup_button('Open report') or popup_button('Set done'):
            return True
        button = widget_button()
        button.queryAction().doAction(0)
        return wait_until(lambda: popup_button('Set done') or find(lambda n: n.name == 'restd is not running'), 'popup', 5)

    def press(name):
        open_popup()
        button = wait_until(lambda: popup_button(name), name, 5)
        if not button:
            return False
        button.queryAction().doAction(0)
        return True

    def popup_has(pattern):
        return find(lambda n: n.getRole() in (pyatspi.ROLE_LABEL, pyatspi.ROLE_HEADING, pyatspi.ROLE_STATIC)
                    and re.fullmatch(pattern, n.name or ''))

    # plasmashell's memory with the panel, then with the widget in it too (restd not running yet).
    wait_until(lambda: find(lambda n: n.getRole() == pyatspi.ROLE_PUSH_BUTTON and n.name and n.name != widget_name
                            and any(a.getRole() == pyatspi.ROLE_FRAME for a in ancestors(n))), 'the panel', 20)
    memory_before = rss_kib(shell.pid)
    script(f'panels()[panels().length - 1].addWidget("{WIDGET}")')
    check(wait_until(widget_button, 'widget', 20), f'the widget is in the panel: a button named "{widget_name}" through AT-SPI'
          f'{"" if widget_button() else [n.name for n in accessible_tree(shell_app()) if n.getRole() == pyatspi.ROLE_PUSH_BUTTON]}')
    memory_with = rss_kib(shell.pid)
    check(wait_until(lambda: panel_texts() == [], 'no text', 5), 'restd not running: no text in the panel (the idle icon)')

    def restctl(*argv):
        return subprocess.run(['restctl', *argv], env=env, capture_output=True, text=True)

    def timer(name, timer_id='default'):
        props = dbus.Interface(bus.get_object(RESTD, f'/io/restd/Rest1/timer/{timer_id}', introspect=False),
                               'org.freedesktop.DBus.Properties')
        return props.Get('io.restd.Rest1.Timer', name)

    def agrees_paused():
        return str(timer('State')) == 'paused'

    def agrees(suffix):
        """The panel's text if it shows the time left by EndsAtUSec (that second or the one before)."""
        ends = int(timer('EndsAtUSec'))
        text = panel_text()
        left = -(-(ends - time.time_ns() // 1000) // 1_000_000)
        expected = [f'{s // 60}:{s % 60:02d}' for s in (left, left + 1)]
        return text if any(re.fullmatch(re.escape(e) + suffix, text or '') for e in expected) else None

    if args.language:
        # The widget's words from its own catalog (contents/locale, plasma_applet_io.restd.rest).
        restctl('start', '90', '--label', 'Squat', '--no-notify')
        check(wait_until(lambda: agrees(' Squat'), 'German rest', 5), f'a rest in the panel: "{panel_text()}"')
        widget_button().queryAction().doAction(0)
        buttons = ['Pausieren', '+30 s', '−15 s', 'Überspringen', 'Satz fertig', 'Bericht öffnen']
        shown = wait_until(lambda: all(popup_button(b) for b in buttons) and popup_has(r'Squat · noch \d+:\d\d'), 'German popup', 5)
        check(shown, f'the popup in German: "Squat · noch …" and {buttons}'
              f'{"" if shown else [n.name for n in accessible_tree(shell_app()) if n.name][-14:]}')
        if popup_button('Pausieren'):
            popup_button('Pausieren').queryAction().doAction(0)
        check(wait_until(lambda: str(timer('State')) == 'paused' and popup_button('Fortsetzen')
                         and popup_has(r'Squat · pausiert, noch \d+:\d\d'), 'pausiert', 5),
              '"Pausieren" pressed: restd paused the rest, the popup says "pausiert" and offers "Fortsetzen"')
        restctl('cancel', '--all')
        # Over and ringing: the panel's word comes from the GNOME extension's module, through i18n();
        # Plasma 6.3 learns of the end by reading restd again (a few seconds).
        restctl('start', '1', '--label', 'Squat', '--no-notify')
        text = wait_until(lambda: (t := panel_text()) and re.fullmatch(r'\+\d+:\d\d klingelt Squat', t) and t, 'klingelt', 12)
        check(text and wait_until(lambda: popup_button('Stopp'), 'Stopp', 5),
              f'ringing, in German: the panel "{text or panel_text()}", "Stopp" in the popup')
        restctl('cancel', '--all')
        return

    if args.measure:
        # restd running without a timer, before anything else has happened on the screen.
        mark = monitor.count()
        restctl('status')
        wait_until(lambda: any(c[4] == 'GetManagedObjects' for c in monitor.since(mark, shell_name)), 'GetManagedObjects', 5)
        # The reads that follow restd's appearance over (no call for a second), then the count.
        seen = [-1]

        def quiet():
            count, seen[0] = seen[0], monitor.count()
            time.sleep(1)
            return count == seen[0]
        wait_until(quiet, 'quiet', 10)
        measure(args, monitor, shell_name, 'idle')
        # Stopped again, so that the rest below starts restd as it does without the measurement.
        os.kill(restd_pid(bus), signal.SIGTERM)
        wait_until(lambda: not bus.name_has_owner(RESTD), 'restd gone', 10)

    # A rest started by restctl (restd activated by the bus): the countdown in the panel.
    result = restctl('start', '90', '--label', 'Squat')
    text = wait_until(lambda: agrees(' Squat'), 'rest', 5)
    check(result.returncode == 0 and text, f'restctl start 90 --label Squat: the panel counts down: "{text or panel_text()}"')
    if result.returncode != 0:
        print(result.stderr)
    first = text
    later = wait_until(lambda: (t := agrees(' Squat')) and t != first and t, 'a second later', 3)
    check(later, f'a second later: "{later}" (counted locally from EndsAtUSec)')

    if args.measure:
        measure(args, monitor, shell_name, 'running')

    # Changes made elsewhere: followed at once from 6.4 on (signals), at the next re-read on 6.3.
    external = 12 if tuple(int(n) for n in version.split('.')[:2]) < (6, 4) else 5
    restctl('pause')
    left = -(-int(timer('RemainingUSec')) // 1_000_000)
    frozen = f'{left // 60}:{left % 60:02d} Squat'
    text = wait_until(lambda: panel_text() == frozen and agrees_paused(), 'frozen', external)
    check(text, f'restctl pause: the panel shows the frozen time "{frozen}" ("{panel_text()}") within {external} s')
    restctl('resume')
    check(wait_until(lambda: agrees(' Squat'), 'resumed', external), f'restctl resume: counting again within {external} s')
    # Plasma 6.3 re-reads the live activity after an action (6.4+ follows its signal at once).
    restctl('live', '--heart-rate', '128', '--done', '3', '--total', '5')

    # The popup's buttons reach restd.
    closed = screen.capture(os.path.join(args.work, 'Xvfb_screen0'))
    check(open_popup(), 'the widget\'s button opens the popup (AT-SPI action)')
    before = int(timer('EndsAtUSec'))
    check(press('+30 s'), 'the popup has "+30 s"')
    added = wait_until(lambda: abs(int(timer('EndsAtUSec')) - before - 30_000_000) <= 1000, '+30 s', 5)
    check(added, f'"+30 s" pressed: restd added 30 s ({(int(timer("EndsAtUSec")) - before) / 1e6} s)')
    if not added:
        print('in-plasma: the popup says:', [n.name for n in accessible_tree(shell_app())
                                              if n.getRole() == pyatspi.ROLE_LABEL and n.name][-12:])
    text = wait_until(lambda: agrees(r' Squat ♥128 3/5'), 'live', 5)
    check(text, f'the panel agrees with the new end, with restctl live --heart-rate 128 --done 3 --total 5: "{text or panel_text()}"')
    picture(args, closed)
    before = int(timer('EndsAtUSec'))
    check(press('−15 s'), 'the popup has "−15 s"')
    check(wait_until(lambda: abs(before - int(timer('EndsAtUSec')) - 15_000_000) <= 1000, '-15 s', 5), '"−15 s" pressed: restd took 15 s off')
    check(press('Pause'), 'the popup has "Pause"')
    check(wait_until(lambda: str(timer('State')) == 'paused', 'paused', 5), '"Pause" pressed: restd paused the timer')
    check(press('Resume'), 'the popup has "Resume" once paused')
    check(wait_until(lambda: str(timer('State')) == 'running', 'running', 5), '"Resume" pressed: running again')
    restctl('set', '--exercise', 'Squat', '--reps', '5')
    check(press('Set done'), 'the popup has "Set done"')
    check(wait_until(lambda: popup_has(r'Next rest \d+:\d\d \(.+\)'), 'next rest', 5),
          '"Set done" pressed: CompleteSet reached restd and the popup says the next rest')
    check(popup_button('Open report'), 'the popup has "Open report"')
    # Pounds and a record: the Manager's WeightUnit is read (and followed after a reload), and from 6.4
    # on (where SetRecorded is heard) the popup says the record of the set that started the rest.
    with open(f"{env['XDG_CONFIG_HOME']}/restd/config.toml", 'a') as f:
        f.write('[history]\nweight_unit = "lb"\n')
    os.kill(restd_pid(bus), signal.SIGHUP)
    manager = dbus.Interface(bus.get_object(RESTD, '/io/restd/Rest1', introspect=False), 'org.freedesktop.DBus.Properties')
    check(wait_until(lambda: str(manager.Get('io.restd.Rest1.Manager', 'WeightUnit')) == 'lb', 'WeightUnit', 5),
          '[history] weight_unit = "lb" and a reload: the Manager\'s WeightUnit is lb')
    restctl('set', '--exercise', 'Squat', '--reps', '5', '--weight', '225', '--rest', '90')
    result = restctl('set', '--reps', '3', '--weight', '245', '--rest', '90')
    record = 'record: Squat 245 lb × 3, heaviest (was 225 lb), estimated 1RM 269.5 lb (was 262.5)'
    check(record in result.stdout, f'restctl set in pounds says the record: {result.stdout.strip()}')
    if external == 5:
        check(wait_until(lambda: popup_has(re.escape(record)), 'record', 5), f'the popup says the record under the rest, in pounds: "{record}"')
    else:
        print(f'  Plasma {version} has no signals in QML: no record line (SetRecorded is not heard)')

    # restd killed: the widget says so; activated again by restctl: the rest is back.
    os.kill(restd_pid(bus), signal.SIGKILL)
    check(wait_until(lambda: not bus.name_has_owner(RESTD), 'restd killed', 5), 'restd killed')
    check(wait_until(lambda: popup_has('restd is not running') and panel_texts() == [], 'not running', 5),
          'restd gone: "restd is not running" in the popup, nothing counting in the panel')
    restctl('status')
    check(wait_until(lambda: agrees(r' Squat.*'), 'rest back', 5), f'restd activated again: the rest is back in the panel ("{panel_text()}")')

    # Plasma's own parts: its notification server shows restd's "Rest over" with its buttons.
    owner = bus.get_name_owner('org.freedesktop.Notifications') if bus.name_has_owner('org.freedesktop.Notifications') else ''
    check(owner == shell_name, 'plasmashell is the notification server')
    # In Do Not Disturb (an application's inhibition, which Plasma's notifications applet shows as
    # such): the low-urgency pre-alert ("4 s left", until "Rest over" replaces it) stays hidden all
    # along, the critical "Rest over" shows.
    notifications = bus.get_object('org.freedesktop.Notifications', '/org/freedesktop/Notifications', introspect=False)
    cookie = notifications.Inhibit('restd-test', 'Do Not Disturb, for the test', dbus.Dictionary({}, signature='sv'),
                                   dbus_interface='org.freedesktop.Notifications')
    inhibited = wait_until(lambda: bool(notifications.Get('org.freedesktop.Notifications', 'Inhibited',
                                                          dbus_interface='org.freedesktop.DBus.Properties')), 'Inhibited', 5)
    check(inhibited, 'Do Not Disturb on (Inhibit): plasmashell says Inhibited')
    restctl('start', '5', '--id', 'short', '--label', 'Lunge', '--warn', '4')

    def pre_alert():
        return find(lambda n: re.fullmatch(r'\d+ s left', n.name or ''))
    seen = []

    def rest_over():
        seen.extend(n.name for n in [pre_alert()] if n)
        return find(lambda n: n.name == 'Again' and n.getRole() == pyatspi.ROLE_PUSH_BUTTON)
    again = wait_until(rest_over, 'Rest over', 10)
    check(again and find(lambda n: re.search('Rest over', n.name or '')),
          '"Rest over" (critical) shows in Plasma in Do Not Disturb, with its "Again" button')
    check(not seen, f'the pre-alert (low urgency) never showed in Do Not Disturb ({seen[:1]})')
    notifications.UnInhibit(cookie, dbus_interface='org.freedesktop.Notifications')
    plus = find(lambda n: n.name == '+30 s' and n.getRole() == pyatspi.ROLE_PUSH_BUTTON and n is not popup_button('+30 s'))
    if again:
        again.queryAction().doAction(0)
    check(wait_until(lambda: str(timer('State', 'short')) == 'running', 'Again', 5),
          '"Again" pressed in Plasma\'s notification: restd restarted the timer')
    # Out of Do Not Disturb, the restarted rest's pre-alert shows: the check above could fail.
    shown = wait_until(pre_alert, 'pre-alert', 5)
    check(shown, f'out of Do Not Disturb, the pre-alert of the rest "Again" started shows: "{shown and shown.name}"')
    del plus

    # MPRIS in Plasma's media controller: restd's player and its title.
    check(bus.name_has_owner('org.mpris.MediaPlayer2.restd'), 'restd\'s MPRIS player is on the bus ([mpris] enabled)')
    media = wait_until(lambda: find(lambda n: re.search(r'Squat|Lunge|rest', n.name or '', re.I)
                                    and n.getRole() == pyatspi.ROLE_LABEL
                                    and not any(a.name == WIDGET_NAME for a in ancestors(n))), 'media controller', 10)
    check(media, f'Plasma\'s media controller shows restd\'s player: "{media.name if media else ""}"')

    # The alarm: a rest that ran out rings until it is stopped (Ringing is restd's own state; no
    # sound server runs here). The panel says so in the GNOME label's words within a second or two,
    # on 6.3 too: the rest is learnt from a button's re-read ("−15 s" leaves about 2 s; the button is
    # found first, so that it is pressed at once), and once the local count has run out the widget
    # reads restd again. The popup's "Stop" silences it.
    open_popup()
    minus = wait_until(lambda: popup_button('−15 s'), '-15 s button', 5)
    restctl('start', '17', '--label', 'Squat', '--no-notify')
    if minus:
        minus.queryAction().doAction(0)
    check(minus and wait_until(lambda: int(timer('EndsAtUSec')) - time.time_ns() // 1000 < 2_500_000, '-15 s pressed', 5),
          'a 17 s rest: "−15 s" pressed in the popup at once')
    rings = wait_until(lambda: bool(timer('Ringing')), 'Ringing', 5)
    text = wait_until(lambda: (t := panel_text()) and re.fullmatch(r'\+\d+:\d\d ringing Squat( .*)?', t) and t, 'ringing', 5)
    check(rings and text, f'the rest over: restd says Ringing, the panel "{text or panel_text()}"')
    open_popup()
    heading = wait_until(lambda: popup_has(r'Squat · over by \d+:\d\d, ringing'), 'ringing heading', 5)
    check(heading, f'the popup: "{heading.name if heading else ""}"')
    check(press('Stop'), 'ringing: the popup has "Stop", pressed')
    silenced = wait_until(lambda: not timer('Ringing'), 'silenced', 5)
    check(silenced and str(timer('State')) == 'expired', '"Stop" silenced restd: Ringing false over the bus, the timer still over')
    quiet = wait_until(lambda: (t := panel_text()) and re.fullmatch(r'\+\d+:\d\d Squat( .*)?', t)
                       and popup_has(r'Squat · over by \d+:\d\d') and not popup_button('Stop') and t, 'quiet', 5)
    check(quiet, f'silenced: the panel "{quiet or panel_text()}", the popup over and without "Stop"')

    # The width setting (in grid units, Kirigami's measure from the font): a long text is cut to
    # that width, in proportion to it. (Learnt at once on 6.3 too: "+30 s" reads restd again.)
    restctl('start', '90', '--label', 'Romanian deadlift with a pause', '--no-notify')
    press('+30 s')

    def label_width():
        button = widget_button()
        labels = [n for n in accessible_tree(button) if n.getRole() == pyatspi.ROLE_LABEL and n.name] if button else []
        return labels[0].queryComponent().getExtents(pyatspi.WINDOW_COORDS).width if labels else 0

    def set_width(units):
        script(f'panels().forEach(p => p.widgets("{WIDGET}").forEach(w => {{ w.currentConfigGroup = ["General"]; '
               f'w.writeConfig("maximumWidth", {units}); w.reloadConfig(); }}))')

    whole = wait_until(lambda: agrees(r' Romanian deadlift.*') and label_width(), 'whole width', 5) or 0
    widths = {}
    for units in (5, 8):
        set_width(units)
        widths[units] = wait_until(lambda: (w := label_width()) and w < whole and w not in widths.values() and w, 'cut', 5) or 0
    set_width(14)
    back = wait_until(lambda: label_width() == whole, 'whole again', 5)
    check(widths[5] and widths[8] and abs(widths[8] / 8 - widths[5] / 5) <= 1 and back,
          f'the width setting: the text {whole} px wide at 14 units (not cut), cut to {widths[5]} px at 5 and '
          f'{widths[8]} px at 8 (one unit {widths[5] / 5:.0f} px), whole again at 14')

    # A vertical panel: the time alone, within the panel's thickness.
    script(f'var v = new Panel(); v.location = "left"; v.height = 48; v.addWidget("{WIDGET}")')

    def vertical_label():
        for button in accessible_tree(shell_app()):
            if button.name == WIDGET_NAME and button.getRole() == pyatspi.ROLE_PUSH_BUTTON:
                labels = [n for n in accessible_tree(button) if n.getRole() == pyatspi.ROLE_LABEL and n.name]
                if labels and re.fullmatch(r'\d+:\d\d', labels[0].name):
                    return labels[0]
        return None
    label = wait_until(vertical_label, 'vertical label', 20)
    extents = label.queryComponent().getExtents(pyatspi.WINDOW_COORDS) if label else None
    check(label and 0 < extents.width <= 48, f'in a vertical panel 48 px thick: the time alone, "{label and label.name}", '
          f'{extents and extents.width} px wide')
    script('panels().forEach(p => { if (p.location === "left") p.remove(); })')
    check(wait_until(lambda: vertical_label() is None, 'vertical panel removed', 10), 'the vertical panel removed')

    # The colour scheme, changed as System Settings does (plasma-apply-colorscheme): Breeze Light,
    # then Breeze Dark. The panel follows it, and the text takes the scheme's colours: readable on
    # both, at least WCAG's 4.5:1 against the panel behind it, read from the screen.
    def label_colours():
        button = widget_button()
        labels = [n for n in accessible_tree(button) if n.getRole() == pyatspi.ROLE_LABEL and n.name] if button else []
        if not labels:
            return None
        # The top panel's window is the screen's top left: its coordinates are the screen's.
        e = labels[0].queryComponent().getExtents(pyatspi.WINDOW_COORDS)
        return text_colours(screen.capture(os.path.join(args.work, 'Xvfb_screen0')), (e.x, e.y, e.x + e.width, e.y + e.height))

    for scheme, dark in (('BreezeLight', False), ('BreezeDark', True)):
        subprocess.run(['plasma-apply-colorscheme', scheme], env=env, capture_output=True)
        got = wait_until(lambda: (c := label_colours()) and (luminance(c[1]) < 0.2) == dark
                         and contrast(*c) >= 4.5 and c, scheme, 10)
        got = got or label_colours()
        check(got and (luminance(got[1]) < 0.2) == dark and contrast(*got) >= 4.5,
              f'colour scheme {scheme}: a {"dark" if dark else "light"} panel, the text {got and got[0]} on '
              f'{got and got[1]}, contrast {got and contrast(*got):.2f}:1 (at least 4.5)')


    # The widget removed: no call to restd from plasmashell afterwards, nothing in its log.
    log_before = len(open(os.path.join(args.work, 'plasmashell.log'), errors='replace').read())
    restctl('start', '60', '--label', 'Squat')
    script(f'panels().forEach(p => p.widgets("{WIDGET}").forEach(w => w.remove()))')
    check(wait_until(lambda: widget_button() is None, 'widget removed', 10), 'the widget removed: its button is gone')
    mark = monitor.count()
    # restd goes and comes back (what a live widget answers with a re-read), then a marker call:
    # plasmashell's calls would be on the bus before plasmashell's reply to the script below.
    os.kill(restd_pid(bus), signal.SIGKILL)
    wait_until(lambda: not bus.name_has_owner(RESTD), 'restd gone', 5)
    restctl('status')
    script('print(1)')
    bus.call_blocking(RESTD, '/io/restd/Rest1', 'org.freedesktop.DBus.Peer', 'Ping', '', [])
    wait_until(lambda: any(c[1] == bus.get_unique_name() and c[4] == 'Ping' for c in monitor.since(mark)), 'Ping', 5)
    after = monitor.since(mark, shell_name)
    check(not after, f'no D-Bus call from plasmashell to restd after the removal ({len(after)}: {after[:3]})')
    log = open(os.path.join(args.work, 'plasmashell.log'), errors='replace').read()
    ours = [line for line in log.splitlines() if WIDGET in line or 'restd' in line.lower()]
    errors = [line for line in ours if re.search(r'error|warning|TypeError|ReferenceError|not a type|undefined', line, re.I)]
    check(not errors, f'no error of the widget in plasmashell\'s log ({errors[:3]})')
    del log_before
    print(f'in-plasma: plasmashell RSS {memory_before} KiB with a panel, {memory_with} KiB once the widget is added to it, '
          f'{rss_kib(shell.pid)} KiB at the end, after its removal')


def picture(args, closed):
    """Checks that the open popup is on the screen (a capture is not blank), and with --screenshot
    writes the panel and the popup: the top left of the screen down to the popup's bottom."""
    frame = os.path.join(args.work, 'Xvfb_screen0')
    # The popup opens under the widget, at the top panel's left; the bottom panel's clock, which
    # may change meanwhile, is elsewhere. Its bottom is well below the top panel (44 pixels).
    top_left = (0, 0, closed.width // 2, closed.height // 2)
    popup = wait_until(lambda: (box := screen.changed_box(closed, screen.capture(frame), top_left)) and box[3] > 100 and box, 'popup drawn', 5)
    shown = popup and screen.capture(frame).colours(popup) > 16
    check(shown, f'a capture of the screen shows the popup drawn below the panel ({popup})')
    if args.screenshot and shown:
        time.sleep(0.5)  # the popup's last frames: a picture, not an assertion
        shot = screen.capture(frame)
        shot.write_png(args.screenshot, (0, 0, min(popup[2] + 24, shot.width), min(popup[3] + 24, shot.height)))
        check(open(args.screenshot, 'rb').read(8) == b'\x89PNG\r\n\x1a\n', f'screenshot of the panel and the open popup: {args.screenshot}')


def restd_pid(bus):
    return int(bus.call_blocking('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus',
                                 'GetConnectionUnixProcessID', 's', [RESTD]))


def ancestors(node):
    while node is not None:
        node = node.parent
        if node is not None:
            yield node


def luminance(rgb):
    """WCAG 2's relative luminance of an sRGB colour (r, g, b) in 0-255: 0 black, 1 white."""
    linear = [c / 255 / 12.92 if c / 255 <= 0.04045 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a, b):
    """WCAG 2's contrast ratio of two colours, 1 to 21."""
    high, low = sorted([luminance(a), luminance(b)], reverse=True)
    return (high + 0.05) / (low + 0.05)


def text_colours(frame, box):
    """The colour of the text in a box (x0, y0, x1, y1) of a screen capture and of what is behind
    it, (r, g, b) each: behind, the box's commonest colour; the text, the colour that stands out
    most from it (a stroke's core: its edges are blended with what is behind)."""
    x0, y0, x1, y1 = box
    counts = {}
    for y in range(y0, y1):
        row = frame.row(y, x0, x1)  # blue, green, red, unused
        for i in range(0, len(row), 4):
            colour = (row[i + 2], row[i + 1], row[i])
            counts[colour] = counts.get(colour, 0) + 1
    behind = max(counts, key=counts.get)
    return max(counts, key=lambda c: contrast(c, behind)), behind


def rss_kib(pid):
    for line in open(f'/proc/{pid}/status'):
        if line.startswith('VmRSS:'):
            return int(line.split()[1])
    return 0


def measure(args, monitor, shell_name, state):
    """The widget's calls to restd and plasmashell's frames over args.measure seconds, per minute."""
    log = os.path.join(args.work, 'plasmashell.log')
    frames_before = open(log, errors='replace').read().count('frame rendered')
    mark = monitor.count()
    time.sleep(args.measure)
    calls = len(monitor.since(mark, shell_name))
    frames = open(log, errors='replace').read().count('frame rendered') - frames_before
    per_minute = 60 / args.measure
    print(f'in-plasma: measured {state}: {calls * per_minute:.1f} D-Bus calls/min, {frames * per_minute:.1f} frames/min '
          f'of plasmashell ({args.measure:.0f} s)', flush=True)


if __name__ == '__main__':
    main()
