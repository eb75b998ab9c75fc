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
/// the whole foreground process group.
@Suite("make run: the private bus of the wrapper scripts")
struct RunWrapperTests {
    static let scripts = ExitStatusTests.repository.appending(path: "scripts").path

    /// A wrapper script in a session and process group of its own (through setsid), as a
    /// terminal's foreground job is, with no session bus and its own runtime, state and
    /// configuration directories.
    final class Wrapper {
        let child: ChildProcess
        let home: TempDirectory

        init(_ script: String, _ arguments: [String], config: String? = nil) throws {
            home = try TempDirectory(prefix: "restd-run")
            for directory in ["runtime", "state", "config/restd"] {
                try FileManager.default.createDirectory(
                    atPath: home.path(directory), withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700])
            }
            if let config { _ = try home.write("config/restd/config.toml", config) }
            let log = try openLogFile(home.path("output.log"))
            defer { close(log) }
            child = try ChildProcess(
                executable: "/usr/bin/setsid", arguments: ["\(RunWrapperTests.scripts)/\(script)"] + arguments,
                environment: ChildEnvironment.make([
                    "XDG_RUNTIME_DIR": home.path("runtime"), "XDG_STATE_HOME": home.path("state"),
                    "XDG_CONFIG_HOME": home.path("config"),
                ]),
                stdout: log, stderr: log)
        }

        deinit {
            // Whatever the test saw, nothing of the group outlives it.
            kill(-child.pid, SIGKILL)
        }

        var output: String { (try? String(contentsOfFile: home.path("output.log"), encoding: .utf8)) ?? "" }

        /// Whether no process of the wrapper's group is left (the wrapper, the bus, the command).
        var groupIsGone: Bool { kill(-child.pid, 0) != 0 && errno == ESRCH }

        /// The private buses' directories left in the runtime directory.
        var busDirectories: [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: home.path("runtime"))) ?? [])
                .filter { $0.hasPrefix("restd-bus.") }
        }

        func waitForOutput(containing text: String) throws {
            try waitUntil(
                "\(text.debugDescription) from the wrapper", givingUpIf: { child.termination.map { "it \($0)" } },
                details: { "--- output:\n\(self.output)" }
            ) { output.contains(text) }
        }
    }

    /// `sleep` ends on SIGINT only if the wrapper started it with SIGINT at its default, which a
    /// command started with `&` in a script does not get by itself; restd handles it.
    @Test(
        "Ctrl-C (SIGINT to the process group) ends the command, the bus and the wrapper at once",
        arguments: ["sleep", "restd"])
    func interrupt(command: String) throws {
        let argv = command == "restd" ? [try BuildProducts.executable("restd")] : ["sleep", "600"]
        let wrapper = try Wrapper("run-on-session-bus.sh", argv)
        try wrapper.waitForOutput(containing: "export DBUS_SESSION_BUS_ADDRESS=unix:path=")
        if command == "restd" { try wrapper.waitForOutput(containing: "serving 0 timer(s)") }
        #expect(wrapper.busDirectories.count == 1, "\(wrapper.output)")

        #expect(kill(-wrapper.child.pid, SIGINT) == 0)
        let end = wrapper.child.wait(timeout: 30)
        #expect(end != nil, "the wrapper still runs after Ctrl-C:\n\(wrapper.output)")
        try waitUntil("the wrapper's process group to be gone", details: { wrapper.output }) { wrapper.groupIsGone }
        #expect(wrapper.busDirectories.isEmpty, "\(wrapper.output)")
    }

    /// dbus-daemon's notice that it may not raise its descriptor limit (a hard limit below
    /// 65536, no CAP_SYS_RESOURCE) means nothing for a bus of a few clients.
    @Test("the private bus says nothing that means nothing: no fd-limit notice")
    func quiet() throws {
        let wrapper = try Wrapper("run-on-session-bus.sh", [try BuildProducts.executable("restd")])
        try wrapper.waitForOutput(containing: "serving 0 timer(s)")
        #expect(!wrapper.output.contains("fd limit"), "\(wrapper.output)")
        wrapper.child.signal(SIGTERM)
        #expect(wrapper.child.wait(timeout: 30) != nil, "\(wrapper.output)")
    }

    @Test("make run with a broken config.toml: its problems and exit 78, and no bus announced")
    func brokenConfiguration() throws {
        let wrapper = try Wrapper(
            "run-restd.sh", [try BuildProducts.executable("restd")], config: "max_timers = 0\n")
        let end = wrapper.child.wait(timeout: 30)
        #expect(end == .exited(78), "\(wrapper.output)")
        #expect(
            wrapper.output
                == "\(wrapper.home.path("config/restd/config.toml")):1: max_timers: 0 is out of range: give 1 to 10000\n",
            "\(wrapper.output)")
        #expect(wrapper.busDirectories.isEmpty && wrapper.groupIsGone, "\(wrapper.output)")
    }
}
