import DBusKit
import Foundation
import ProcessHarness
import RestClient
import RestProtocol
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// restd.service under a real `systemd --user` (see `UserManager`): the settings as the manager
/// loaded them, readiness, STATUS=, restarts after kill -9 and after a watchdog timeout, a broken
/// configuration not retried, reload, stop and start, D-Bus activation through `SystemdService=`,
/// the sandbox in force and the journal. Each test boots its own manager and stops it, and everything it started, by PID.
///
/// The session bus is this run's `BusKind` (`RESTD_TEST_BUS`), with the distribution's stock
/// session.conf, as a user's session has it.
///
/// Needs root and `unshare --mount`. Where either is missing the suite is skipped, with the
/// reason, on the default bus only: pointed at an installed package (`RESTD_INSTALLED_PREFIX`)
/// or at dbus-broker (which runs only under a user manager), it runs, and fails if it cannot.
@Suite(
    "systemd user manager", .serialized,
    .enabled(if: UserManager.skipReason == nil, Comment(rawValue: "not run: \(UserManager.skipReason ?? "")")),
    .tags(.slow, .everyBus))
struct SystemdUserManagerTests {

    /// A shorter watchdog than the unit's 60 s, so that a stall is seen in seconds; and a short
    /// TimeoutAbortSec=, because a process stopped with SIGSTOP does not act on the watchdog's
    /// SIGABRT (the Swift runtime catches it), so only the SIGKILL that follows ends it.
    static let quickWatchdog = "[Service]\nWatchdogSec=2s\nTimeoutAbortSec=2s\n"

    /// Writes how restd ended ($SERVICE_RESULT $EXIT_CODE $EXIT_STATUS) to $XDG_RUNTIME_DIR/restd-exit.
    static let recordExit = """
        [Service]
        ExecStopPost=/bin/sh -c 'echo "$SERVICE_RESULT $EXIT_CODE $EXIT_STATUS" >"$XDG_RUNTIME_DIR/restd-exit"'
        """

    @Test("start returns once restd owns its name; STATUS= follows the timers; the unit is the one under test")
    func readinessAndStatus() throws {
        let manager = try UserManager()
        defer { manager.stop() }
        let start = manager.systemctl("start", "restd")
        try #require(start.succeeded, "\(start)\n\(manager.diagnostics())")
        // Type=notify: a call right after `start` returned is answered, with no waiting.
        let client = try RestdClient(address: manager.bus.address)
        #expect(try client.timers().isEmpty)
        print("systemd user manager: systemctl --user start restd returned in \(Int(start.elapsed * 1000)) ms")

        let unit = manager.properties(["Type", "ActiveState", "SubState", "StatusText", "ExecStart", "BusName"])
        #expect(unit["Type"] == "notify" && unit["BusName"] == RestBus.name, "\(unit)")
        #expect(unit["ActiveState"] == "active" && unit["SubState"] == "running", "\(unit)")
        #expect(unit["StatusText"] == "no timers running", "\(unit)")
        #expect(unit["ExecStart"]?.contains("path=\(manager.restdExecutable) ;") ?? false, "\(unit)")
        // The session bus is the kind this run asked for, not the machine's choice of dbus.service.
        #expect(
            manager.bus.driverExecutable() == manager.busKind.executable, "\(manager.diagnostics(unit: "dbus.service"))"
        )

        try client.start(id: "squat", durationUSec: 600_000_000)
        try client.start(id: "plank", durationUSec: 300_000_000)
        try client.pause(id: "plank")
        try manager.waitFor(["StatusText": "1 timer running, 1 paused"])
        let status = manager.systemctl("status", "restd")
        #expect(status.stdout.contains("Status: \"1 timer running, 1 paused\""), "\(status)")
    }

    @Test("kill -9 of the main process: systemd restarts restd, with every acknowledged timer")
    func restartAfterKill9() throws {
        let manager = try UserManager()
        defer { manager.stop() }
        try #require(manager.systemctl("start", "restd").succeeded, "\(manager.diagnostics())")
        let client = try RestdClient(address: manager.bus.address)
        try client.start(id: "squat", durationUSec: 600_000_000, label: "Squat")
        try client.start(id: "plank", durationUSec: 300_000_000)
        try client.pause(id: "plank")
        let before = try client.timers()
        let killed = manager.restdPID
        try #require(killed > 0)

        kill(killed, SIGKILL)
        let after = try manager.waitFor(["NRestarts": "1", "ActiveState": "active", "SubState": "running"])
        #expect(after["MainPID"] != String(killed), "\(after)")
        #expect(try RestdClient(address: manager.bus.address).timers() == before)
    }

    @Test(
        "a broken config.toml: exit 78, no restart loop, the file:line reason in systemctl status; a fix and a restart work"
    )
    func brokenConfigurationIsNotRetried() throws {
        let manager = try UserManager(config: "default_duration = \"90s\"\nmax_timers = 0\n")
        defer { manager.stop() }
        let start = manager.systemctl("start", "restd")
        #expect(!start.succeeded, "\(start)")
        // Failed and settled: a pending restart would show as activating/auto-restart instead.
        try manager.waitFor([
            "ActiveState": "failed", "SubState": "failed", "Result": "exit-code",
            "ExecMainStatus": "78", "NRestarts": "0",
        ])
        let status = manager.systemctl("status", "restd")
        let reason = "\(manager.configHome)/restd/config.toml:2: max_timers"
        #expect(status.stdout.contains("status=78/CONFIG"), "\(status)")
        #expect(status.stdout.contains("Status: \"\(reason)"), "\(status)")
        let logged = try manager.journalEntries("SYSLOG_IDENTIFIER=restd")
        #expect(logged.contains { $0["MESSAGE"]?.hasPrefix(reason) ?? false }, "\(logged)")

        try manager.directory.write("config/restd/config.toml", "default_duration = \"90s\"\n")
        let restart = manager.systemctl("restart", "restd")
        #expect(restart.succeeded, "\(restart)\n\(manager.diagnostics())")
        #expect(try RestdClient(address: manager.bus.address).defaultDurationUSec() == 90_000_000)
    }

    @Test(
        "a state another restd holds: exit 75, no restart loop, the holder in systemctl status; restctl says who holds it"
    )
    func stateInUseIsNotRetried() throws {
        let manager = try UserManager()
        defer { manager.stop() }
        // A restd of its own, on another bus, on the state restd.service would use (a second
        // `make run` in another terminal, say).
        let setup = try RestdSetup()
        setup.stateHome = manager.stateHome
        let daemon = try setup.start()
        let holder = daemon.restd
        let sentence = StateLockTests.inUseSentence(state: manager.stateHome, holder: holder)

        // D-Bus activation through systemd, as the first restctl command of a login does it.
        let list = restctl(manager.bus, ["list"], environment: ["XDG_STATE_HOME": manager.stateHome])
        #expect(list.status == ExitStatus.unavailable.rawValue, "\(list)\n\(manager.diagnostics())")
        #expect(list.stderr == "restctl: the session bus could not start restd: \(sentence)\n", "\(list)")
        // Failed and settled: a pending restart would show as activating/auto-restart instead.
        try manager.waitFor([
            "ActiveState": "failed", "SubState": "failed", "Result": "exit-code",
            "ExecMainStatus": "75", "NRestarts": "0",
        ])
        let status = manager.systemctl("status", "restd")
        #expect(status.stdout.contains("status=75/TEMPFAIL"), "\(status)")
        #expect(status.stdout.contains("Status: \"\(sentence)\""), "\(status)")
        #expect(holder.isRunning)

        // Once the other one has stopped, a start takes the state.
        holder.terminate()
        #expect(try holder.waitForExit() == 0)
        let start = manager.systemctl("start", "restd")
        #expect(start.succeeded, "\(start)\n\(manager.diagnostics())")
    }

    @Test("systemctl reload applies a changed key to the running restd")
    func reloadAppliesChangedKey() throws {
        let manager = try UserManager(config: "default_duration = \"90s\"\n")
        defer { manager.stop() }
        try #require(manager.systemctl("start", "restd").succeeded, "\(manager.diagnostics())")
        let client = try RestdClient(address: manager.bus.address)
        #expect(try client.defaultDurationUSec() == 90_000_000)
        let pid = manager.restdPID
        let watcher = try SignalWatcher.restd(bus: manager.bus)

        try manager.directory.write("config/restd/config.toml", "default_duration = \"45s\"\n")
        let reload = manager.systemctl("reload", "restd")
        #expect(reload.succeeded, "\(reload)")
        // ExecReload= only sends SIGHUP: the change is announced when it has been applied.
        try watcher.waitFor("PropertiesChanged of DefaultDurationUSec") {
            $0.member == "PropertiesChanged" && $0.changedProperties["DefaultDurationUSec"] != nil
        }
        #expect(try client.defaultDurationUSec() == 45_000_000)
        let unit = manager.properties(["MainPID", "NRestarts", "ActiveState"])
        #expect(unit == ["MainPID": String(pid), "NRestarts": "0", "ActiveState": "active"], "\(unit)")
    }

    @Test("systemctl stop: restd exits 0; the next start has the same timers")
    func stopAndStartKeepState() throws {
        // systemd forgets an inactive unit's exit status when it unloads it; ExecStopPost= sees it first.
        let manager = try UserManager(dropIns: ["record-exit": Self.recordExit])
        defer { manager.stop() }
        try #require(manager.systemctl("start", "restd").succeeded, "\(manager.diagnostics())")
        let client = try RestdClient(address: manager.bus.address)
        try client.start(id: "squat", durationUSec: 600_000_000, label: "Squat")
        try client.start(id: "rest", durationUSec: 120_000_000)
        try client.pause(id: "rest")
        let before = try client.timers()

        let stop = manager.systemctl("stop", "restd")
        #expect(stop.succeeded, "\(stop)")
        // Exited by itself on SIGTERM, with status 0 (systemd would call death by SIGTERM a success too).
        let exit = try String(contentsOfFile: "\(manager.runtimeDirectory)/restd-exit", encoding: .utf8)
        #expect(exit == "success exited 0\n", "\(manager.diagnostics())")
        #expect(manager.property("ActiveState") == "inactive")

        try #require(manager.systemctl("start", "restd").succeeded, "\(manager.diagnostics())")
        #expect(try RestdClient(address: manager.bus.address).timers() == before)
    }

    @Test("D-Bus activation: a call to io.restd.Rest1 makes the bus start restd.service, not a bare Exec=")
    func activationThroughSystemd() throws {
        let manager = try UserManager()
        defer { manager.stop() }
        #expect(manager.property("ActiveState") == "inactive")

        // restctl from the installation under test; its call activates the name.
        let status = restctl(manager.bus, "list")
        #expect(status.succeeded, "\(status)\n\(manager.diagnostics())")
        let unit = try manager.waitFor(["ActiveState": "active", "SubState": "running"])
        let owner = busctl(
            manager.bus, "call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
            "GetConnectionUnixProcessID", "s", RestBus.name)
        #expect(owner.output == "u \(unit["MainPID"] ?? "?")", "\(owner)\n\(unit)")
        let cgroup = (try? String(contentsOfFile: "/proc/\(manager.restdPID)/cgroup", encoding: .utf8)) ?? ""
        #expect(cgroup.contains("/app.slice/restd.service"), "\(cgroup)")
    }

    @Test("the watchdog: a restd whose loop stalls (SIGSTOP) is killed and restarted by systemd, with its timers")
    func watchdogRestartsStalledRestd() throws {
        let manager = try UserManager(dropIns: ["quick-watchdog": Self.quickWatchdog])
        defer { manager.stop() }
        try #require(manager.systemctl("start", "restd").succeeded, "\(manager.diagnostics())")
        #expect(manager.property("WatchdogUSec") == "2s")
        let client = try RestdClient(address: manager.bus.address)
        try client.start(id: "squat", durationUSec: 600_000_000)
        let before = try client.timers()
        let stalled = manager.restdPID
        try #require(stalled > 0)

        kill(stalled, SIGSTOP)
        let after = try manager.waitFor(["NRestarts": "1", "ActiveState": "active", "SubState": "running"])
        #expect(after["MainPID"] != String(stalled), "\(after)")
        #expect(kill(stalled, 0) != 0, "the stalled restd \(stalled) is still there")
        let timeouts = try manager.journalEntries("USER_UNIT=restd.service")
            .filter { $0["MESSAGE"]?.contains("Watchdog timeout") ?? false }
        #expect(timeouts.count == 1, "\(manager.diagnostics())")
        #expect(try RestdClient(address: manager.bus.address).timers() == before)
    }

    @Test(
        "the unit as the manager loaded it: Type=notify on the bus name, watchdog, stop and abort timeouts, reload, restart policy, sandbox, WantedBy"
    )
    func effectiveSettings() throws {
        let manager = try UserManager()
        defer { manager.stop() }
        // Started: WatchdogUSec= is the watchdog in force, shown only while the service runs.
        try #require(manager.systemctl("start", "restd").succeeded, "\(manager.diagnostics())")
        let expected = [
            "Type": "notify", "BusName": RestBus.name, "WatchdogUSec": "1min", "TimeoutStopUSec": "10s",
            "TimeoutAbortUSec": "10s",
            "Restart": "on-failure", "RestartPreventExitStatus": "75 78",
            "NoNewPrivileges": "yes", "LockPersonality": "yes", "RestrictRealtime": "yes", "RestrictSUIDSGID": "yes",
            "RestrictNamespaces": "yes", "MemoryDenyWriteExecute": "yes", "SystemCallArchitectures": "native",
            "SystemCallErrorNumber": "1" /* EPERM */, "RestrictAddressFamilies": "AF_UNIX", "UMask": "0077",
        ]
        let unit = manager.properties(Array(expected.keys) + ["ExecReload", "SystemCallFilter", "LoadState"])
        #expect(unit["LoadState"] == "loaded", "\(manager.diagnostics())")
        for (name, value) in expected {
            #expect(unit[name] == value, "\(name): \(unit[name] ?? "not shown")")
        }
        #expect(unit["ExecReload"]?.contains("argv[]=kill -HUP $MAINPID ;") ?? false, "\(unit["ExecReload"] ?? "")")
        // @system-service, expanded: its calls are allowed, others (swapoff) are not.
        let filter = unit["SystemCallFilter"]?.split(separator: " ").map(String.init) ?? []
        #expect(filter.contains("read") && filter.contains("epoll_wait") && !filter.contains("swapoff"), "\(filter)")

        // [Install]: enabling links it into default.target.
        let enable = manager.systemctl("enable", "restd")
        #expect(enable.succeeded, "\(enable)")
        let wants = manager.property("Wants", of: "default.target")
        #expect(wants.split(separator: " ").contains("restd.service"), "default.target: Wants=\(wants)")
    }

    /// Tries what the unit's sandbox forbids and prints one line each ("NAME allowed" or
    /// "NAME refused ERRNO"). Run as the unit's ExecStartPost=, it is under the same sandbox as
    /// restd; run by the test itself, it shows that each attempt can succeed here.
    static let sandboxProbe = #"""
        import ctypes, errno, mmap, os, socket, sys
        libc = ctypes.CDLL(None, use_errno=True)
        def attempt(name, action):
            try:
                action()
                print(name, "allowed")
            except OSError as error:
                print(name, "refused", errno.errorcode.get(error.errno, error.errno))
        def call(function, *arguments):
            if function(*arguments) == -1:
                raise OSError(ctypes.get_errno(), function.__name__)
        attempt("AF_INET", lambda: socket.socket(socket.AF_INET, socket.SOCK_DGRAM).close())
        attempt("AF_UNIX", lambda: socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM).close())
        attempt("PROT_WRITE|PROT_EXEC", lambda: mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC).close())
        fd = os.open(os.path.join(sys.argv[1], "setuid-probe"), os.O_CREAT | os.O_WRONLY, 0o600)
        attempt("S_ISUID", lambda: os.fchmod(fd, 0o4755))
        attempt("unshare(CLONE_NEWUTS)", lambda: call(libc.unshare, 0x04000000))
        attempt("personality(PER_LINUX32)", lambda: call(libc.personality, 0x0008))
        attempt("swapoff", lambda: call(libc.swapoff, b"/nonexistent-swap"))
        print("NoNewPrivs", [line.split()[1] for line in open("/proc/self/status") if line.startswith("NoNewPrivs")][0])
        """#

    @Test(
        "the sandbox is in force (seccomp, no_new_privs, address families, W^X, namespaces, SUID), and restd works under it"
    )
    func sandboxInForce() throws {
        let probeDirectory = try TempDirectory(prefix: "restd-probe")
        let probe = try probeDirectory.write("probe.py", Self.sandboxProbe)
        // The same attempts outside the sandbox: each can succeed (swapoff reaches the kernel).
        let outside = Command.run([NotificationServer.python, probe, probeDirectory.path])
        #expect(
            outside.stdout == """
                AF_INET allowed
                AF_UNIX allowed
                PROT_WRITE|PROT_EXEC allowed
                S_ISUID allowed
                unshare(CLONE_NEWUTS) allowed
                personality(PER_LINUX32) allowed
                swapoff refused ENOENT
                NoNewPrivs 0

                """, "\(outside)")
        let probeUnit =
            "[Service]\nExecStartPost=/bin/sh -c '\(NotificationServer.python) \(probe) \"$XDG_RUNTIME_DIR\" "
            + ">\"$XDG_RUNTIME_DIR/sandbox-probe\" 2>&1'\n"
        let manager = try UserManager(dropIns: ["sandbox-probe": probeUnit])
        defer { manager.stop() }
        let server = try NotificationServer(bus: manager.bus)
        let calls = try MockCalls(bus: manager.bus)
        try #require(manager.systemctl("start", "restd").succeeded, "\(manager.diagnostics())")
        // ExecStartPost= has run (start waits for it), under restd's sandbox.
        let inside = (try? String(contentsOfFile: "\(manager.runtimeDirectory)/sandbox-probe", encoding: .utf8)) ?? ""
        #expect(
            inside == """
                AF_INET refused EAFNOSUPPORT
                AF_UNIX allowed
                PROT_WRITE|PROT_EXEC refused EPERM
                S_ISUID refused EPERM
                unshare(CLONE_NEWUTS) refused EPERM
                personality(PER_LINUX32) refused EPERM
                swapoff refused EPERM
                NoNewPrivs 1

                """, "\(inside)\n\(manager.diagnostics())")
        let pid = manager.restdPID
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let fields = Dictionary(
            status.split(separator: "\n").compactMap { line -> (String, String)? in
                let parts = line.split(separator: ":", maxSplits: 1)
                return parts.count == 2 ? (String(parts[0]), parts[1].trimmingCharacters(in: .whitespaces)) : nil
            }, uniquingKeysWith: { first, _ in first })
        #expect(fields["Seccomp"] == "2", "\(status)")  // SECCOMP_MODE_FILTER
        #expect(fields["NoNewPrivs"] == "1", "\(status)")

        let client = try RestdClient(address: manager.bus.address)
        try client.start(id: "squat", durationUSec: 1_000_000, label: "Squat")
        let notify = try calls.waitFor("Notify")
        #expect(notify.first?.summary == "Rest over", "\(notify)")
        #expect(try client.timer(id: "squat").state == "expired")
        // Nothing it needed was refused by the filter in a way that ended it.
        #expect(manager.properties(["MainPID", "NRestarts"]) == ["MainPID": String(pid), "NRestarts": "0"])
        #expect(server.isRunning)
    }

    @Test("logging as configured: stdout and stderr go to the journal, and restd sends structured entries there")
    func journal() throws {
        let manager = try UserManager()
        defer { manager.stop() }
        try #require(manager.systemctl("start", "restd").succeeded, "\(manager.diagnostics())")
        let unit = manager.properties(["StandardOutput", "StandardError"])
        #expect(unit == ["StandardOutput": "journal", "StandardError": "inherit"], "\(unit)")

        let client = try RestdClient(address: manager.bus.address)
        let watcher = try SignalWatcher.restd(bus: manager.bus)
        try client.start(id: "squat", durationUSec: 1_000_000)
        try watcher.waitFor(where: { $0.member == "Expired" })
        var entries: [[String: String]] = []
        try waitUntil("\"timer squat expired\" in the journal", details: { manager.diagnostics() }) {
            entries = try manager.journalEntries("SYSLOG_IDENTIFIER=restd")
            return entries.contains { $0["MESSAGE"] == "timer squat expired" }
        }
        let expired = try #require(entries.first { $0["MESSAGE"] == "timer squat expired" }, "\(manager.diagnostics())")
        // Sent with sd_journal_sendv (restd saw JOURNAL_STREAM name its stderr), not written on it.
        #expect(expired["_TRANSPORT"] == "journal", "\(expired)")
        #expect(expired["MESSAGE_ID"] == LogMessageIDs.timerExpired && expired["TIMER_ID"] == "squat", "\(expired)")
        #expect(expired["_SYSTEMD_CGROUP"]?.hasSuffix("/restd.service") ?? false, "\(expired)")
        #expect(!entries.contains { $0["_TRANSPORT"] == "stdout" }, "\(entries)")
    }
}
