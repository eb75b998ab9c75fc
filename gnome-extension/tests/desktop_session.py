"""What the desktops' in-session tests share: the GNOME extension's (in_shell.py) and the Plasma
widget's (plasma/tests/in_plasma.py, which finds this module beside in_shell.py).

Both run from the checkout (on this machine, or at /src in a Debian root's overlay), whatever
installed restd. Here: the checks and their summary, the wait on a condition with a deadline, and
the session's processes with a home and runtime folder of their own and its private buses.
"""

import os
import signal
import subprocess
import sys
import time

# The private buses' configuration, which scripts/run-on-session-bus.sh uses too.
BUS_CONFIG = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'scripts', 'private-bus.conf')

passed = 0
failures = []


def check(ok, what):
    global passed
    if ok:
        passed += 1
        print(f'✔ {what}', flush=True)
    else:
        failures.append(what)
        print(f'✘ {what}', flush=True)


def finish(name, log_name, log_lines):
    """The run's last line, `NAME: N passed`; after a failed check, the tail of the desktop's log
    first, and exit status 1."""
    if failures:
        print(f'--- {log_name} (tail) ---')
        print('\n'.join(log_lines[-60:]))
        print(f'{name}: {passed} passed, {len(failures)} failed: {"; ".join(failures)}')
        sys.exit(1)
    print(f'{name}: {passed} passed')


def wait_until(probe, what, timeout=5.0):
    """Polls probe() until it returns a true value; returns it, or None after the deadline. what
    names the condition for the reader. A probe that raises has not found it yet: the objects it
    reads may vanish meanwhile (AT-SPI's nodes, a restd that restarts)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = probe()
        except Exception:  # noqa: BLE001
            value = None
        if value:
            return value
        if time.monotonic() > deadline:
            return None
        time.sleep(0.02)


class Session:
    """The processes of the run, stopped in reverse order by their own pids, and their
    environment: a home, XDG folders and a runtime folder under work, no display or bus of the
    caller's, the C.UTF-8 locale."""

    def __init__(self, work):
        self.work = work
        self.processes = []
        home = os.path.join(work, 'home')
        runtime = os.path.join(work, 'runtime')
        os.makedirs(runtime, mode=0o700)
        self.env = {key: value for key, value in os.environ.items()
                    if key not in ('DISPLAY', 'WAYLAND_DISPLAY', 'DBUS_SESSION_BUS_ADDRESS', 'XDG_SESSION_TYPE')}
        self.env.update({
            'HOME': home, 'XDG_CONFIG_HOME': f'{home}/.config', 'XDG_DATA_HOME': f'{home}/.local/share',
            'XDG_CACHE_HOME': f'{home}/.cache', 'XDG_STATE_HOME': f'{home}/.local/state',
            'XDG_RUNTIME_DIR': runtime, 'LC_ALL': 'C.UTF-8',
        })
        for key in ('XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_CACHE_HOME', 'XDG_STATE_HOME'):
            os.makedirs(self.env[key], exist_ok=True)

    def spawn(self, argv, log, env=None, stdout=None):
        process = subprocess.Popen(argv, env=env or self.env, stdin=subprocess.DEVNULL,
                                   stdout=stdout or open(os.path.join(self.work, log), 'ab'),
                                   stderr=open(os.path.join(self.work, log), 'ab'))
        self.processes.append(process)
        return process

    def bus(self, name, activation=False):
        """A private dbus-daemon (work/NAME.conf, NAME.socket, NAME-bus.log); its address. With
        activation, it starts the services installed in the standard session service folders, as
        a desktop's session bus does."""
        socket = os.path.join(self.work, f'{name}.socket')
        config = os.path.join(self.work, f'{name}.conf')
        text = open(BUS_CONFIG).read().replace('@SOCKET@', socket)
        if activation:
            text = text.replace('</busconfig>', '  <standard_session_servicedirs/>\n</busconfig>')
        with open(config, 'w') as f:
            f.write(text)
        daemon = self.spawn(['dbus-daemon', '--nofork', f'--config-file={config}', '--print-address=1'],
                            f'{name}-bus.log', stdout=subprocess.PIPE)
        return daemon.stdout.readline().decode().strip()

    def stop(self, process):
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    def close(self):
        for process in reversed(self.processes):
            self.stop(process)
