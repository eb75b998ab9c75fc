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

        init(_ command: [String], config: String? = nil, terminal: Bool = false) throws {
            home = try TempDirectory(prefix: "restd-run")
            for directory in ["runtime", "state", "config/restd"] {
                try FileManager.default.createDirectory(
                    atPath: home.path(directory), withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700])
            }
            if let config { _ = try home.write("config/restd/config.toml", config) }
            let log = try openLogFile(home.path("output.log"))
            defer { close(log) }
            var input: [Int32] = [-1, -1]
            if terminal { guard pipe(&input) == 0 else { throw HarnessError.system("pipe", errno) } }
            defer { if terminal { close(input[0]) } }
            keyboard = terminal ? input[1] : nil
            let quoted = command.map { "'" + $0 + "'" }.joined(separator: " ")
            child = try ChildProcess(
                executable: "/usr/bin/setsid",
                arguments: terminal ? ["/usr/bin/script", "-qfec", quoted, "/dev/null"] : command,
                // Not a sub-make of a `make test` that runs this: its jobserver is not passed on.
                environment: ChildEnvironment.make([
                    "XDG_RUNTIME_DIR": home.path("runtime"), "XDG_STATE_HOME": home.path("state"),
                    "XDG_CONFIG_HOME": home.path("config"), "MAKEFLAGS": "", "MAKELEVEL": "",
                ]),
                stdin: terminal ? input[0] : nil, stdout: log, stderr: log)
        }

        deinit {
            if let keyboard { close(keyboard) }
            // Whatever the test saw, nothing of the sessions outlives it.
            for pid in ([child.pid] + (foundSession.map { [$0] } ?? [])).flatMap(Self.processes(inSession:)) {
                kill(pid, SIGKILL)
            }
        }

        var output: String { (try? String(contentsOfFile: home.path("output.log"), encoding: .utf8)) ?? "" }

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

        /// The private buses' directories left in the runtime directory.
        var busDirectories: [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: home.path("runtime"))) ?? [])
                .filter { $0.hasPrefix("restd-bus.") }
        }

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
        #expect(wrapper.busDirectories.count == 1, "\(wrapper.output)")
        let session = try wrapper.terminalSession()
        #expect(Wrapper.processes(inSession: session).count >= 3, "make, the wrapper, the bus, the command")

        wrapper.pressControlC()
        // Everything under the terminal ends: make, the wrapper, its bus and the command. (The
        // terminal, script(1) itself, is left out: on rare runs it hangs on a pty whose every
        // other process has gone, which is script's own affair.)
        try wrapper.waitForEnd(ofSession: session, "make, the wrapper, the bus and the command")
        #expect(wrapper.busDirectories.isEmpty, "\(wrapper.output)")
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
            #expect(wrapper.busDirectories.isEmpty, "\(wrapper.output)")
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
        #expect(wrapper.busDirectories.isEmpty && wrapper.processes.isEmpty, "\(wrapper.output)")
    }
}
