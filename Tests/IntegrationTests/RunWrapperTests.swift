import Foundation
import ProcessHarness
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `make run` and `make with-bus` where there is no session bus: scripts/run-restd.sh and
/// scripts/run-on-session-bus.sh start a private dbus-daemon, print the line that points other
/// terminals at it, and must leave nothing behind — Ctrl-C included, which a terminal sends to
/// the whole foreground process group (make's, under script(1)'s pty here).
@Suite("make run: the private bus of the wrapper scripts", .tags(.slow))
struct RunWrapperTests {
    static let scripts = ExitStatusTests.repository.appending(path: "scripts").path

    /// A wrapper script (or `make`) in a session of its own, with no session bus and its own
    /// runtime, state and configuration directories. `terminal`: run it as a terminal would,
    /// under script(1), whose pty turns a ^C written to `keyboard` into SIGINT for the
    /// foreground process group.
    final class Wrapper {
        let child: ChildProcess
        let home: TempDirectory
        /// What is typed at the terminal (with `terminal`).
        let keyboard: Int32?

        /// `home`: that of an earlier wrapper, to run again as the same person; `environment`: on
        /// top of the runtime, state and configuration directories (an empty value unsets).
        init(
            _ command: [String], config: String? = nil, terminal: Bool = false, home shared: TempDirectory? = nil,
            log logName: String = "output.log", environment: [String: String] = [:]
        ) throws {
            home = try shared ?? TempDirectory(prefix: "restd-run")
            for directory in ["runtime", "state", "config/restd", "tmp"] {
                try FileManager.default.createDirectory(
                    atPath: home.path(directory), withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700])
            }
            if let config { _ = try home.write("config/restd/config.toml", config) }
            self.logName = logName
            let log = try openLogFile(home.path(logName))
            defer { close(log) }
            var input: [Int32] = [-1, -1]
            if terminal { guard pipe(&input) == 0 else { throw HarnessError.system("pipe", errno) } }
            defer { if terminal { close(input[0]) } }
            keyboard = terminal ? input[1] : nil
            // script(1) runs the command with `$SHELL -c`; `exec` keeps that shell (dash, where
            // SHELL is unset) out of the terminal's process group, as a person's shell is.
            let quoted = "exec " + command.map { "'" + $0 + "'" }.joined(separator: " ")
            child = try ChildProcess(
                executable: "/usr/bin/setsid",
                arguments: terminal ? ["/usr/bin/script", "-qfec", quoted, "/dev/null"] : command,
                // Not a sub-make of a `make test` that runs this: its jobserver is not passed on.
                environment: ChildEnvironment.make(
                    [
                        "XDG_RUNTIME_DIR": home.path("runtime"), "XDG_STATE_HOME": home.path("state"),
                        "XDG_CONFIG_HOME": home.path("config"), "TMPDIR": home.path("tmp"),
                        "MAKEFLAGS": "", "MAKELEVEL": "",
                    ].merging(environment) { _, new in new }
                ).filter { !$0.value.isEmpty },
                stdin: terminal ? input[0] : nil, stdout: log, stderr: log)
        }

        deinit {
            if let keyboard { close(keyboard) }
            // Whatever the test saw, nothing of the sessions outlives it.
            for pid in ([child.pid] + (foundSession.map { [$0] } ?? [])).flatMap(Self.processes(inSession:)) {
                kill(pid, SIGKILL)
            }
        }

        private let logName: String
        var output: String { (try? String(contentsOfFile: home.path(logName), encoding: .utf8)) ?? "" }

        /// The live processes of session `session`; one that has ended but is not reaped yet is
        /// left out.
        static func processes(inSession session: Int32) -> [Int32] {
            ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap(Int32.init)
                .filter { getsid($0) == session && stat($0)?.state != "Z" }
        }

        /// The command lines of `pids`, for a failure's message.
        static func commandLines(_ pids: [Int32]) -> [String] {
            pids.map { pid in
                let raw = (try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? "?"
                return "\(pid) " + raw.split(separator: "\0").joined(separator: " ")
            }
        }

        /// The live processes of the wrapper's session: without a terminal, the wrapper's, its
        /// bus's and its command's.
        var processes: [Int32] { Self.processes(inSession: child.pid) }

        /// The session script(1) started on its pty (make's, the wrapper's, the bus's, the
        /// command's): that of its child.
        func terminalSession() throws -> Int32 {
            var found: Int32?
            try waitUntil("script(1)'s child") {
                found = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [])
                    .compactMap(Int32.init).first { Self.stat($0)?.parent == child.pid }
                return found != nil
            }
            foundSession = getsid(found!)
            return foundSession!
        }

        /// The terminal's session, once `terminalSession()` found it.
        private var foundSession: Int32?

        /// The state and parent of `pid` from /proc/PID/stat ("1234 (make) S 1200 …"), read with
        /// read(2), as /proc's files have no size.
        static func stat(_ pid: Int32) -> (state: Character, parent: Int32)? {
            let fd = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return nil }
            defer { close(fd) }
            var buffer = [UInt8](repeating: 0, count: 512)
            let count = read(fd, &buffer, buffer.count)
            guard count > 0, let nameEnd = buffer[..<count].lastIndex(of: UInt8(ascii: ")")) else { return nil }
            let fields = String(decoding: buffer[(nameEnd + 1)..<count], as: UTF8.self).split(separator: " ")
            guard fields.count > 1, let state = fields[0].first, let parent = Int32(fields[1]) else { return nil }
            return (state, parent)
        }

        /// The private bus's socket, at the one address it has for this person.
        var busSocket: String { home.path("runtime/restd-bus/bus") }

        /// Whether the private bus's socket is there (it is removed when its bus ends).
        var busSocketExists: Bool { FileManager.default.fileExists(atPath: busSocket) }

        /// Ctrl-C at the terminal.
        func pressControlC() {
            var control: UInt8 = 3
            #expect(keyboard.map { write($0, &control, 1) } == 1)
        }

        /// Waits until every process of the terminal's `session` has ended; names those left if not.
        func waitForEnd(ofSession session: Int32, _ what: String) throws {
            try waitUntil(
                "\(what) to end",
                details: { "left: \(Self.commandLines(Self.processes(inSession: session)))\n\(self.output)" }
            ) {
                Self.processes(inSession: session).isEmpty
            }
        }

        func waitForOutput(containing text: String) throws {
            try waitUntil(
                "\(text.debugDescription) from the wrapper", givingUpIf: { child.termination.map { "it \($0)" } },
                details: { "--- output:\n\(self.output)" }
            ) { output.contains(text) }
        }
    }

    /// `make with-bus CMD=…` at a terminal, and Ctrl-C: `sleep` ends on the terminal's SIGINT
    /// only if the wrapper started it with SIGINT at its default, which a command started with &
    /// in a script does not get by itself; restd handles it. Then the bus, the wrapper and make
    /// end, and nothing is left.
    @Test(
        "Ctrl-C at the terminal ends make with-bus: the command, the bus, the wrapper and make",
        arguments: ["sleep", "restd"])
    func interrupt(command: String) throws {
        let argv = command == "restd" ? try BuildProducts.executable("restd") : "sleep 600"
        let wrapper = try Wrapper(
            ["make", "-C", ExitStatusTests.repository.path, "--no-print-directory", "with-bus", "CMD=\(argv)"],
            terminal: true)
        try wrapper.waitForOutput(containing: "export DBUS_SESSION_BUS_ADDRESS=unix:path=")
        if command == "restd" { try wrapper.waitForOutput(containing: "serving 0 timer(s)") }
        #expect(wrapper.busSocketExists, "\(wrapper.output)")
        let session = try wrapper.terminalSession()
        #expect(Wrapper.processes(inSession: session).count >= 3, "make, the wrapper, the bus, the command")

        wrapper.pressControlC()
        // Everything under the terminal ends: make, the wrapper, its bus and the command. (The
        // terminal, script(1) itself, is left out: on rare runs it hangs on a pty whose every
        // other process has gone, which is script's own affair.)
        try wrapper.waitForEnd(ofSession: session, "make, the wrapper, the bus and the command")
        #expect(!wrapper.busSocketExists, "\(wrapper.output)")
        // A person's Ctrl-C is a normal end: make says nothing of an error.
        #expect(!wrapper.output.contains("make: ***"), "\(wrapper.output)")
    }

    /// Ctrl-C at any instant after the bus is announced, whatever the wrapper is doing then:
    /// starting the command, or waiting for it. Each time the command, the bus and the wrapper
    /// end. A handful of tries makes a race in the wrapper's waiting show; one try seldom does.
    @Test("Ctrl-C at any instant after the bus is announced, 60 times: nothing is left")
    func interruptAtAnyInstant() throws {
        for attempt in 0..<60 {
            let wrapper = try Wrapper(["\(Self.scripts)/run-on-session-bus.sh", "sleep", "600"], terminal: true)
            try wrapper.waitForOutput(containing: "export DBUS_SESSION_BUS_ADDRESS=unix:path=")
            let session = try wrapper.terminalSession()
            usleep(useconds_t(attempt % 5) * 2_000)
            wrapper.pressControlC()
            try wrapper.waitForEnd(ofSession: session, "the wrapper, the bus and the command (try \(attempt + 1))")
            #expect(!wrapper.busSocketExists, "\(wrapper.output)")
            // script(1) ends with the wrapper's status: a Ctrl-C is a normal end.
            #expect(wrapper.child.wait(timeout: 30) == .exited(0), "\(wrapper.output)")
        }
    }

    /// dbus-daemon's notice that it may not raise its descriptor limit (a hard limit below
    /// 65536, no CAP_SYS_RESOURCE) means nothing for a bus of a few clients.
    @Test("the private bus says nothing that means nothing: no fd-limit notice")
    func quiet() throws {
        let wrapper = try Wrapper(["\(Self.scripts)/run-on-session-bus.sh", try BuildProducts.executable("restd")])
        try wrapper.waitForOutput(containing: "serving 0 timer(s)")
        #expect(!wrapper.output.contains("fd limit"), "\(wrapper.output)")
        wrapper.child.signal(SIGTERM)
        #expect(wrapper.child.wait(timeout: 30) != nil, "\(wrapper.output)")
    }

    @Test("make run with a broken config.toml: its problems and exit 78, and no bus announced")
    func brokenConfiguration() throws {
        let wrapper = try Wrapper(
            ["\(Self.scripts)/run-restd.sh", try BuildProducts.executable("restd")], config: "max_timers = 0\n")
        let end = wrapper.child.wait(timeout: 30)
        #expect(end == .exited(78), "\(wrapper.output)")
        #expect(
            wrapper.output
                == "\(wrapper.home.path("config/restd/config.toml")):1: max_timers: 0 is out of range: give 1 to 10000\n",
            "\(wrapper.output)")
        #expect(!wrapper.busSocketExists && wrapper.processes.isEmpty, "\(wrapper.output)")
    }

    /// The lines `make run` prints once restd serves: the private bus's export line, and restd's pid.
    struct Announcement {
        let address: String
        let pid: Int32

        init(_ output: String) throws {
            let lines = output.split(separator: "\n").map(String.init)
            let export = try #require(lines.first { $0.hasPrefix("export DBUS_SESSION_BUS_ADDRESS=") }, "\(output)")
            address = String(export.dropFirst("export DBUS_SESSION_BUS_ADDRESS=".count))
            let pidLine = try #require(lines.first { $0.hasPrefix("# restd runs as pid ") }, "\(output)")
            pid = try #require(Int32(pidLine.dropFirst("# restd runs as pid ".count).prefix { $0.isNumber }))
        }
    }

    /// Runs `make run`'s script with restd until it has announced itself.
    static func runRestd(
        home: TempDirectory? = nil, log: String = "output.log", environment: [String: String] = [:]
    )
        throws -> Wrapper
    {
        let wrapper = try Wrapper(
            ["\(scripts)/run-restd.sh", try BuildProducts.executable("restd")], home: home, log: log,
            environment: environment)
        try wrapper.waitForOutput(containing: "# restd runs as pid ")
        return wrapper
    }

    /// Ends a wrapper as Ctrl-C does (SIGINT, to the wrapper alone here): a normal end, status 0.
    static func stop(_ wrapper: Wrapper) {
        wrapper.child.signal(SIGINT)
        #expect(wrapper.child.wait(timeout: 30) == .exited(0), "\(wrapper.output)")
    }

    @Test("make run twice: the same private bus address both times, and restd's pid in the first lines")
    func stableAddress() throws {
        let first = try Self.runRestd()
        let announced = try Announcement(first.output)
        #expect(announced.address == "unix:path=\(first.busSocket)", "\(first.output)")
        let command = try String(contentsOfFile: "/proc/\(announced.pid)/cmdline", encoding: .utf8)
        #expect(command.hasPrefix(try BuildProducts.executable("restd")), "\(command)")
        #expect(
            first.output.contains("MANPATH=\"\(ExitStatusTests.repository.path)/man:\""), "\(first.output)")
        var info = stat()
        #expect(stat(first.home.path("runtime/restd-bus"), &info) == 0 && info.st_mode & 0o777 == 0o700)
        Self.stop(first)
        #expect(!first.busSocketExists)

        let second = try Self.runRestd(home: first.home, log: "second.log")
        #expect(try Announcement(second.output).address == announced.address, "\(second.output)")
        Self.stop(second)
    }

    /// Where the address is announced, restd serves: a second `make run` refused because the
    /// first holds the state prints no export line, and the first one's bus goes on.
    @Test("a second make run while the first serves: its refusal, and no export line")
    func secondRun() throws {
        let first = try Self.runRestd()
        let second = try Wrapper(
            ["\(Self.scripts)/run-restd.sh", try BuildProducts.executable("restd")], home: first.home, log: "second.log"
        )
        let end = second.child.wait(timeout: 30)
        #expect(end != nil && end != .exited(0), "\(second.output)")
        // restd's refusal names the other bus; the wrapper announces none.
        #expect(!second.output.contains("\nexport DBUS_SESSION_BUS_ADDRESS"), "\(second.output)")
        #expect(second.output.contains("is in use by restd"), "\(second.output)")
        #expect(!second.output.contains("runs as pid"), "\(second.output)")
        #expect(first.busSocketExists && first.child.termination == nil, "\(first.output)")
        Self.stop(first)
    }

    /// `make with-bus` while `make run` serves runs its command on that bus, where restd is.
    @Test("make with-bus while make run serves: the command reaches restd on the same bus")
    func withBusJoins() throws {
        let run = try Self.runRestd()
        let status = try Wrapper(
            ["\(Self.scripts)/run-on-session-bus.sh", try BuildProducts.executable("restctl"), "status"],
            home: run.home, log: "with-bus.log")
        // restd answers: there is no timer yet.
        #expect(status.child.wait(timeout: 30) == .exited(1), "\(status.output)")
        #expect(status.output == "restctl: no timer \"default\"\n", "\(status.output)")
        Self.stop(run)
    }

    /// Without a runtime directory the bus lives in a directory of the user's in $TMPDIR, whose
    /// name anyone can guess: one made first by someone else, or with a wider mode, is refused.
    @Test("no runtime directory: a 0700 directory of the user's in TMPDIR, and one not safe is refused")
    func withoutRuntimeDirectory() throws {
        let run = try Self.runRestd(environment: ["XDG_RUNTIME_DIR": ""])
        let directory = run.home.path("tmp/restd-bus-\(getuid())")
        #expect(try Announcement(run.output).address == "unix:path=\(directory)/bus", "\(run.output)")
        var info = stat()
        #expect(stat(directory, &info) == 0 && info.st_mode & 0o777 == 0o700 && info.st_uid == getuid())
        Self.stop(run)

        chmod(directory, 0o755)
        let refused = try Wrapper(
            ["\(Self.scripts)/run-restd.sh", try BuildProducts.executable("restd")], home: run.home, log: "refused.log",
            environment: ["XDG_RUNTIME_DIR": ""])
        #expect(refused.child.wait(timeout: 30) == .exited(1), "\(refused.output)")
        #expect(
            refused.output.contains("error: \(directory) is not a directory of yours with mode 0700"),
            "\(refused.output)")
        #expect(!refused.output.contains("export"), "\(refused.output)")
    }

    /// restctl without a bus names the private bus when there is one, not a command that starts
    /// another bus with no restd on it.
    @Test("restctl with no session bus names make run's private bus when it is there")
    func restctlNamesPrivateBus() throws {
        let run = try Self.runRestd()
        let result = Command.run(
            [try BuildProducts.executable("restctl"), "status"],
            environment: ["XDG_RUNTIME_DIR": run.home.path("runtime")])
        #expect(result.status == 69, "\(result)")
        #expect(
            result.stderr.hasSuffix("export DBUS_SESSION_BUS_ADDRESS=unix:path=\(run.busSocket)\n"), "\(result)")
        Self.stop(run)
    }

    /// `pkill -HUP -f 'restd$'`, meant for restd, also matches the wrapper's command line: while
    /// the terminal is there, the wrapper passes SIGHUP on (restd reloads) and goes on.
    @Test("SIGHUP to the wrapper while its terminal is there: restd reloads, the session goes on")
    func hangUpByHand() throws {
        let wrapper = try Wrapper(
            ["\(Self.scripts)/run-restd.sh", try BuildProducts.executable("restd")], terminal: true)
        try wrapper.waitForOutput(containing: "# restd runs as pid ")
        let session = try wrapper.terminalSession()
        let scriptPid = try #require(
            Wrapper.processes(inSession: session).first { pid in
                ((try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? "")
                    .contains("run-on-session-bus.sh")
            })
        kill(scriptPid, SIGHUP)
        try wrapper.waitForOutput(containing: "reloaded the configuration")
        #expect(wrapper.busSocketExists && kill(scriptPid, 0) == 0, "\(wrapper.output)")
        wrapper.pressControlC()
        try wrapper.waitForEnd(ofSession: session, "the wrapper, the bus and restd")
    }
}
