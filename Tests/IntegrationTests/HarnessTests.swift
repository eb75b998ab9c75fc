import Foundation
import ProcessHarness
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Tests of the integration-test harness itself. None of them needs restd.
@Suite("Harness", .tags(.everyBus))
struct HarnessTests {
    // MARK: TestBus

    @Test("a private bus starts and busctl lists its driver")
    func busStarts() throws {
        let bus = try TestBus()
        #expect(bus.isRunning)
        #expect(bus.address.hasPrefix("unix:path="), "\(bus.address)")
        #expect(FileManager.default.fileExists(atPath: bus.socketPath))
        let list = busctl(bus, "list", "--no-legend")
        #expect(list.succeeded, "\(list)")
        #expect(list.stdout.contains("org.freedesktop.DBus"), "\(list)")
    }

    @Test("the bus is the implementation RESTD_TEST_BUS asks for")
    func busImplementation() throws {
        let bus = try TestBus()
        let executable = try #require(bus.driverExecutable())
        #expect((executable as NSString).lastPathComponent == (bus.kind.executable as NSString).lastPathComponent)
    }

    @Test("gdbus calls GetId on the private bus")
    func gdbusGetId() throws {
        let bus = try TestBus()
        let call = gdbus(
            bus, "call", "--dest", "org.freedesktop.DBus",
            "--object-path", "/org/freedesktop/DBus",
            "--method", "org.freedesktop.DBus.GetId")
        #expect(call.succeeded, "\(call)")
        // ('0123456789abcdef0123456789abcdef',)
        let id = call.output.trimmingCharacters(in: CharacterSet(charactersIn: "(',)"))
        #expect(id.count == 32 && id.allSatisfy(\.isHexDigit), "\(call)")
    }

    @Test("stop() ends the bus, and clients then fail")
    func busStops() throws {
        let bus = try TestBus()
        let pid = bus.pid
        bus.stop()
        #expect(!bus.isRunning)
        #expect(kill(pid, 0) != 0, "dbus-daemon pid \(pid) still exists")
        let list = busctl(bus, "list")
        #expect(!list.succeeded && !list.timedOut, "\(list)")
        bus.stop()  // idempotent
    }

    @Test("kill() kills the bus with SIGKILL")
    func busKilled() throws {
        let bus = try TestBus()
        bus.kill()
        #expect(bus.termination == .signaled(SIGKILL))
        let call = gdbus(
            bus, "call", "--dest", "org.freedesktop.DBus",
            "--object-path", "/org/freedesktop/DBus",
            "--method", "org.freedesktop.DBus.GetId")
        #expect(!call.succeeded && !call.timedOut, "\(call)")
    }

    @Test("the configuration has only the service directories asked for")
    func busConfiguration() throws {
        let bus = try TestBus(serviceDirectories: ["/nonexistent/a", "/nonexistent/b&c"])
        let config = try String(contentsOfFile: bus.configPath, encoding: .utf8)
        #expect(config.contains("<type>session</type>"))
        #expect(config.contains("<servicedir>/nonexistent/a</servicedir>"))
        #expect(config.contains("<servicedir>/nonexistent/b&amp;c</servicedir>"))
        #expect(!config.contains("standard_session_servicedirs"))
        let plain = try TestBus()
        #expect(!(try String(contentsOfFile: plain.configPath, encoding: .utf8)).contains("<servicedir>"))
    }

    @Test("services in a given service directory are activated")
    func busActivation() throws {
        let services = try TempDirectory(prefix: "restd-svc")
        try services.write(
            "io.restd.HarnessProbe.service",
            """
            [D-BUS Service]
            Name=io.restd.HarnessProbe
            Exec=/usr/bin/python3 -m dbusmock io.restd.HarnessProbe /io/restd/HarnessProbe io.restd.HarnessProbe

            """)
        let bus = try TestBus(serviceDirectories: [services.path])
        let activatable = busctl(
            bus, "call", "org.freedesktop.DBus", "/org/freedesktop/DBus",
            "org.freedesktop.DBus", "ListActivatableNames")
        #expect(activatable.stdout.contains("\"io.restd.HarnessProbe\""), "\(activatable)")
        let start = busctl(
            bus, "call", "org.freedesktop.DBus", "/org/freedesktop/DBus",
            "org.freedesktop.DBus", "StartServiceByName", "su", "io.restd.HarnessProbe", "0")
        #expect(start.output == "u 1", "\(start)\n--- bus log:\n\(bus.log())")
        let list = busctl(bus, "list", "--no-legend")
        #expect(list.stdout.contains("io.restd.HarnessProbe"), "\(list)")
    }

    // MARK: Command

    @Test("Command.run reports exit status, stdout and stderr")
    func commandStatus() {
        let result = Command.run(["sh", "-c", "echo out; echo err >&2; exit 3"])
        #expect(result.status == 3)
        #expect(result.stdout == "out\n")
        #expect(result.stderr == "err\n")
        #expect(!result.timedOut && !result.succeeded)
        #expect(Command.run(["true"]).succeeded)
    }

    @Test("Command.run passes stdin and environment, and hides the real session bus")
    func commandInputs() {
        let cat = Command.run(["cat"], stdin: "hello\nworld")
        #expect(cat.stdout == "hello\nworld", "\(cat)")
        #expect(Command.run(["cat"]).stdout == "")  // stdin is /dev/null, never the runner's
        let env = Command.run(
            ["sh", "-c", "echo \"$FOO ${DBUS_SESSION_BUS_ADDRESS-unset} ${NOTIFY_SOCKET-unset}\""],
            environment: ["FOO": "bar"])
        #expect(env.output == "bar unset unset", "\(env)")
    }

    @Test("Command.run reports a death by signal as the negated signal number")
    func commandSignal() {
        let result = Command.run(["sh", "-c", "kill -KILL $$"])
        #expect(result.status == -9, "\(result)")
        #expect(result.signal == SIGKILL)
        #expect(!result.timedOut)
    }

    @Test("Command.run kills a program that overruns its timeout")
    func commandTimeout() {
        let result = Command.run(["sleep", "60"], timeout: 1)
        #expect(result.timedOut, "\(result)")
        #expect(result.status == -SIGTERM, "\(result)")
        #expect(result.elapsed < 30, "\(result)")
    }

    @Test("Command.run escalates to SIGKILL when SIGTERM is ignored")
    func commandTimeoutKill() {
        // 5 s: the shell has to have set its trap before the timeout, even on a stalled machine.
        let result = Command.run(["sh", "-c", "trap '' TERM; echo started; exec sleep 60"], timeout: 5)
        #expect(result.timedOut, "\(result)")
        #expect(result.status == -SIGKILL, "\(result)")
        #expect(result.stdout == "started\n", "\(result)")
    }

    @Test("Command.run reports a missing program as status 127")
    func commandNotFound() {
        let result = Command.run(["restd-no-such-program-here"])
        #expect(result.status == 127)
        #expect(result.stderr.contains("not found"), "\(result)")
    }

    // MARK: RestdSetup and RestdProcess, with stand-ins for restd

    /// A setup that runs `/bin/sh` or `/usr/bin/python3` with `arguments` in restd's place.
    static func standIn(_ executable: String, _ arguments: [String], state: TempDirectory? = nil) throws -> RestdSetup {
        let setup = try RestdSetup(state: state, arguments: arguments)
        setup.executable = executable
        return setup
    }

    @Test("RestdSetup sets up the daemon's environment and RestdProcess reports its exit status")
    func restdEnvironment() throws {
        let setup = try Self.standIn("/bin/sh", ["-c", "env; echo oops >&2; exit 7"])
        let process = try setup.launch()
        #expect(try process.waitForExit(timeout: 30) == 7)
        #expect(!process.isRunning)
        let log = process.log()
        #expect(log.contains("DBUS_SESSION_BUS_ADDRESS=\(setup.bus.address)\n"), "\(log)")
        #expect(log.contains("XDG_STATE_HOME=\(setup.state.path)\n"), "\(log)")
        #expect(log.contains("XDG_CONFIG_HOME=\(setup.config.path)\n"), "\(log)")
        #expect(!log.contains("NOTIFY_SOCKET=") && !log.contains("JOURNAL_STREAM="), "\(log)")
        #expect(log.contains("oops\n"), "\(log)")
    }

    @Test("waitUntilReady fails at once, with the log, when the daemon exits first")
    func restdExitsEarly() throws {
        let process = try Self.standIn("/bin/sh", ["-c", "echo cannot start >&2; exit 1"]).launch()
        let start = Stopwatch()
        do {
            try process.waitUntilReady(timeout: 60)
            Issue.record("waitUntilReady succeeded for a process that never owned the name")
        } catch {
            #expect("\(error)".contains("cannot start"), "\(error)")
        }
        #expect(start.elapsed < 30)
    }

    @Test("waitUntilReady, terminate, kill9 and waitForExit work on a stand-in daemon")
    func restdStandIn() throws {
        let setup = try Self.standIn(
            "/usr/bin/python3", ["-m", "dbusmock", RestdProcess.busName, "/io/restd/Rest1", RestdProcess.busName])
        let bus = setup.bus

        let first = try setup.launch()
        try first.waitUntilReady(timeout: 30)
        #expect(first.isRunning && first.pid > 0)
        let owner = busctl(bus, "status", RestdProcess.busName)
        #expect(owner.stdout.contains("PID=\(first.pid)"), "\(owner)")
        first.terminate()
        let status = try first.waitForExit(timeout: 30)
        #expect(status == -SIGTERM || status == 0, "\(status)")

        let second = try setup.launch()
        try second.waitUntilReady(timeout: 30)
        #expect(second.kill9() == -SIGKILL)
        #expect(try second.waitForExit(timeout: 1) == -SIGKILL)
        #expect(!second.isRunning)
    }

    @Test("the built executables are looked for next to the test bundle or in RESTD_BIN_DIR")
    func buildProducts() {
        let dirs = BuildProducts.searchDirectories()
        #expect(!dirs.isEmpty)
        if let binDir = ProcessInfo.processInfo.environment["RESTD_BIN_DIR"], !binDir.isEmpty {
            #expect(dirs == [binDir])
        }
    }
}
