import DBusKit
import Foundation
import ProcessHarness
import RestClient
import RestProtocol
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// restd as systemd and D-Bus run it: readiness and status on NOTIFY_SOCKET, the watchdog,
/// signals, losing the bus, activation, and the unit and activation files themselves.
@Suite("Running as a service", .serialized, .tags(.everyBus))
struct ServiceTests {
    /// The repository's root, for the committed unit and activation files.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func repositoryFile(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// `text` with the value of every line starting with `key=` replaced by `value`.
    static func replacing(_ key: String, with value: String, in text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(key + "=") ? key + "=" + value : String($0) }
            .joined(separator: "\n")
    }

    // MARK: sd_notify

    @Test("READY=1 comes once the name is owned, with STATUS=; STATUS= then follows the timers")
    func readyAndStatus() throws {
        let notify = try NotifySocket()
        let setup = try RestdSetup(environment: notify.environment)
        let (bus, restd) = (setup.bus, try setup.launch())
        try notify.waitFor(line: "READY=1")
        #expect(notify.messages.first == "READY=1\nSTATUS=no timers running", "\(notify.messages)")
        // Ready means ready: the name is already owned when READY=1 arrives.
        let owner = busctl(
            bus, "call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
            "NameHasOwner", "s", RestBus.name)
        #expect(owner.output == "b true", "\(owner)\n\(restd.log())")

        #expect(restctl(bus, "start", "90").succeeded)
        try notify.waitFor(line: "STATUS=1 timer running")
        #expect(restctl(bus, "start", "60", "--id", "plank").succeeded)
        try notify.waitFor(line: "STATUS=2 timers running")
        #expect(restctl(bus, "pause", "--id", "plank").succeeded)
        try notify.waitFor(line: "STATUS=1 timer running, 1 paused")
        #expect(restctl(bus, "cancel", "--id", "plank").succeeded)
        try notify.waitFor(line: "STATUS=1 timer running")
        // A change that leaves the line as it was sends nothing.
        #expect(restctl(bus, "add", "30").succeeded)
        #expect(restctl(bus, "cancel").succeeded)
        try notify.waitFor(line: "STATUS=no timers running")
        let statuses = notify.lines.filter { $0.hasPrefix("STATUS=") }
        #expect(
            statuses == [
                "STATUS=no timers running", "STATUS=1 timer running", "STATUS=2 timers running",
                "STATUS=1 timer running, 1 paused", "STATUS=1 timer running", "STATUS=no timers running",
            ], "\(notify.messages)")
    }

    @Test("STATUS= counts live subscribers, and drops them when they leave")
    func statusCountsSubscribers() throws {
        let notify = try NotifySocket()
        let setup = try RestdSetup(environment: notify.environment)
        let (bus, restd) = (setup.bus, try setup.launch())
        try notify.waitFor(line: "READY=1")
        let first = try WatchProcess(bus: bus, arguments: ["--json"])
        try notify.waitFor(line: "STATUS=no timers running, 1 live subscriber")
        let second = try WatchProcess(bus: bus, arguments: ["--json"])
        try notify.waitFor(line: "STATUS=no timers running, 2 live subscribers")
        second.stop()
        first.stop()
        try notify.waitFor(line: "STATUS=no timers running")
        #expect(notify.lines.filter { $0.hasPrefix("STATUS=") }.last == "STATUS=no timers running", "\(restd.log())")
    }

    @Test("the watchdog is pinged when WATCHDOG_USEC is set, and not otherwise")
    func watchdog() throws {
        let notify = try NotifySocket()
        let setup = try RestdSetup(environment: notify.environment)
        setup.environment["WATCHDOG_USEC"] = "200000"  // 0.2 s: pings every 0.1–0.15 s
        let restd = try setup.launch()
        try notify.waitFor(line: "READY=1")
        for _ in 1...3 { try notify.waitFor(line: "WATCHDOG=1") }
        #expect(restd.isRunning)

        // Without WATCHDOG_USEC: no pings. Stopping the daemon closes the window in which one could
        // have come, without sleeping for it.
        let quiet = try NotifySocket()
        let plain = try RestdSetup(environment: quiet.environment).launch()
        try quiet.waitFor(line: "READY=1")
        plain.terminate()
        try quiet.waitFor(line: "STOPPING=1")
        #expect(try plain.waitForExit() == 0)
        #expect(!quiet.lines.contains("WATCHDOG=1"), "\(quiet.messages)")
    }

    // MARK: Signals and the bus

    @Test(
        "SIGTERM and SIGINT stop restd with status 0, STOPPING=1, and the state intact",
        arguments: [SIGTERM, SIGINT])
    func stopsCleanly(signal: Int32) throws {
        let notify = try NotifySocket()
        let setup = try RestdSetup(environment: notify.environment)
        let restd = try setup.launch()
        try notify.waitFor(line: "READY=1")
        let client = try RestdClient(address: setup.bus.address)
        try client.start(id: "squat", durationUSec: 600_000_000, label: "Squat")
        try client.start(id: "plank", durationUSec: 60_000_000)
        try client.pause(id: "plank")
        let before = try client.timers()

        restd.signal(signal)
        #expect(try restd.waitForExit() == 0, "\(restd.log())")
        try notify.waitFor(line: "STOPPING=1")
        #expect(
            restd.log().contains("stopping on signal \(signal == SIGTERM ? "SIGTERM" : "SIGINT")"), "\(restd.log())")

        let again = try RestdSetup(bus: setup.bus, state: setup.state).start()
        #expect(try again.client.timers() == before)
        again.restd.terminate()
        #expect(try again.restd.waitForExit() == 0)
    }

    @Test("losing the bus ends restd with status 1, so that systemd restarts it")
    func busLoss() throws {
        let daemon = try RunningDaemon()
        let restd = daemon.restd
        try daemon.client.start(id: "kept", durationUSec: 600_000_000)
        daemon.bus.kill()
        #expect(try restd.waitForExit() == 1, "\(restd.log())")
        #expect(restd.log().contains("lost the connection to the bus; exiting"), "\(restd.log())")

        // What it had acknowledged is still there for the restarted daemon.
        let again = try RestdSetup(state: daemon.state).start()
        #expect(try again.client.timers().map(\.id) == ["kept"], "\(again.log())")
    }

    // MARK: Activation

    @Test("D-Bus activation: the first restctl command starts restd by itself")
    func activation() throws {
        let activating = try ActivatingBus()
        let (bus, state) = (activating.bus, activating.state)
        func owned() -> String {
            busctl(
                bus, "call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                "NameHasOwner", "s", RestBus.name
            ).output
        }
        #expect(owned() == "b false")

        let list = restctl(bus, "list")
        #expect(list.succeeded && list.stdout.isEmpty, "\(list)\n--- bus log:\n\(bus.log())")
        #expect(owned() == "b true")
        let start = restctl(bus, "start", "--label", "Activated")
        #expect(start.succeeded, "\(start)\n--- bus log:\n\(bus.log())")
        #expect(start.stdout.contains("default  running  1:") && start.stdout.contains("Activated"), "\(start)")
        // The activated daemon used the environment the bus gave it.
        #expect(FileManager.default.fileExists(atPath: state.path("restd/state.sqlite")))
    }

    @Test(
        "D-Bus activation of a restd that cannot start (a broken config.toml): restctl says the bus could not start it, and why"
    )
    func failedActivation() throws {
        let activating = try ActivatingBus(config: "max_timers = 0\n")
        let bus = activating.bus

        // dbus-daemon answers Spawn.ChildExited, dbus-broker NameHasNoOwner ("startup job failed"):
        // either way the bus tried, and restd is unreachable, not refusing; the sentence says where
        // to look.
        let list = restctl(bus, "list")
        #expect(list.status == ExitStatus.unavailable.rawValue, "\(list)\n--- bus log:\n\(bus.log())")
        #expect(list.stderr.hasPrefix("restctl: the session bus could not start restd ("), "\(list)")
        #expect(
            list.stderr.hasSuffix("); 'systemctl --user status restd' says why\n")
                || list.stderr.hasSuffix("); run 'restd' in a terminal to see why\n"), "\(list)")
        #expect(list.stdout.isEmpty, "\(list)")
    }

    @Test("the activation file names the bus name, the unit and an absolute Exec=")
    func activationFile() throws {
        let text = try Self.repositoryFile("dbus/io.restd.Rest1.service")
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.contains("[D-BUS Service]"))
        #expect(lines.contains("Name=\(RestBus.name)"))
        #expect(lines.contains("SystemdService=restd.service"))
        #expect(lines.contains("Exec=/usr/local/bin/restd"), "make install rewrites this line: \(text)")
    }

    // MARK: The unit

    @Test("systemd-analyze verify accepts the unit, with ExecStart= pointed at the built restd")
    func unitVerifies() throws {
        guard ChildEnvironment.which("systemd-analyze") != nil else {
            Issue.record("systemd-analyze not found (Debian package systemd; 'make deps' installs it)")
            return
        }
        let directory = try TempDirectory(prefix: "restd-unit")
        let unit = Self.replacing(
            "ExecStart", with: try BuildProducts.executable("restd"),
            in: try Self.repositoryFile("systemd/restd.service"))
        let path = try directory.write("restd.service", unit)
        // The man pages the unit's Documentation= names are the committed ones.
        let man = Self.root.appendingPathComponent("man").path
        let verify = Command.run(["systemd-analyze", "verify", path], environment: ["MANPATH": man])
        #expect(verify.succeeded && verify.stderr.isEmpty, "\(verify)")
        // As a user unit too (the user manager's paths need a runtime directory).
        let runtime = try directory.subdirectory("runtime")
        let user = Command.run(
            ["systemd-analyze", "--user", "verify", path],
            environment: ["MANPATH": man, "XDG_RUNTIME_DIR": runtime])
        #expect(user.succeeded && user.stderr.isEmpty, "\(user)")

        // A unit it would refuse is refused: the check is real.
        let broken = try directory.write(
            "broken.service", unit.replacingOccurrences(of: "ExecReload=kill", with: "ExecReload=no-such-kill"))
        #expect(!Command.run(["systemd-analyze", "verify", broken], environment: ["MANPATH": man]).succeeded)
    }

    /// Only what the committed file says, line by line, so that a change to it is a decision; how
    /// systemd reads and applies it (readiness, watchdog, restarts, the sandbox) is asserted
    /// under a real user manager in `SystemdUserManagerTests`.
    @Test("the committed unit file names Type=notify, the bus name, watchdog, reload, restart policy and sandboxing")
    func committedUnitLines() throws {
        let lines = Set(try Self.repositoryFile("systemd/restd.service").split(separator: "\n").map(String.init))
        for expected in [
            "Type=notify", "BusName=\(RestBus.name)", "ExecStart=/usr/local/bin/restd", "ExecReload=kill -HUP $MAINPID",
            "Restart=on-failure", "RestartPreventExitStatus=75 78", "WatchdogSec=60s",
            "NoNewPrivileges=yes", "LockPersonality=yes", "RestrictRealtime=yes", "RestrictSUIDSGID=yes",
            "SystemCallArchitectures=native", "MemoryDenyWriteExecute=yes", "RestrictAddressFamilies=AF_UNIX",
            "WantedBy=default.target",
        ] {
            #expect(lines.contains(expected), "\(expected)")
        }
    }
}
