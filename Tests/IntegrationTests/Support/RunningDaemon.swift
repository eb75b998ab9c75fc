import Clocks
import DBusKit
import Foundation
import ProcessHarness
import RestClient
import RestCore

/// What a restd of the tests starts with, settled before it starts: its bus, state directory
/// (seed it through `state` first), configuration, environment and arguments. `start()` gives a
/// `RunningDaemon`; `launch()` only the process, for a test of how restd starts or fails to.
/// Every test that runs restd itself starts it through here, so that each gets the same scrubbed
/// environment, private bus and temporary homes (the bus starts it in `ActivatingBus`, systemd in
/// `UserManager`).
///
///     let setup = try RestdSetup()
///     try StateFile.fixture("schema1-restd-0da3ab6.sqlite", in: setup.state, writtenAgo: 60_000_000)
///     let daemon = try setup.start()
final class RestdSetup {
    let bus: TestBus
    let state: TempDirectory
    /// restd's XDG_STATE_HOME: `state`, unless the test points restd at another one (a user
    /// manager's, whose restd.service uses it).
    var stateHome: String
    /// restd's XDG_CONFIG_HOME: `config` as restd/config.toml, or nothing (the defaults).
    let config: ConfigHome
    /// What restd runs with on top of the test's environment (a TZ, say).
    var environment: [String: String]
    var arguments: [String]
    /// A program that runs restd (`unshare`, say), with `arguments` as its own; nil: restd itself.
    var executable: String?

    /// - bus: one the test made first (to watch it from restd's start); a new one when nil.
    /// - state: another restd's state directory (a second restd on the same state); a new one when nil.
    init(
        bus: TestBus? = nil, state: TempDirectory? = nil, config: String? = nil,
        environment: [String: String] = [:], arguments: [String] = []
    ) throws {
        self.bus = try bus ?? TestBus()
        self.state = try state ?? TempDirectory(prefix: "restd-state")
        stateHome = self.state.path
        self.config = try ConfigHome(config)
        self.environment = environment
        self.arguments = arguments
    }

    /// restd in a user and mount namespace of its own (unshare, no root needed), started once
    /// `script`, a shell command, has changed what it sees at $XDG_STATE_HOME: a small tmpfs, a
    /// read-only bind mount. The machine's own mounts are never touched.
    func inMountNamespace(after script: String) throws {
        executable = "/usr/bin/unshare"
        arguments =
            [
                "--user", "--map-root-user", "--mount", "--propagation", "private",
                "/bin/sh", "-c", script + " && exec \"$0\" \"$@\"", try BuildProducts.executable("restd"),
            ] + arguments
    }

    /// restd on its state bind-mounted read-only, in its own mount namespace (a read-only remount
    /// is refused while files are open for writing, so it has to be so from the start).
    func readOnlyState() throws {
        try inMountNamespace(
            after: "mount --bind \"$XDG_STATE_HOME\" \"$XDG_STATE_HOME\" && "
                + "mount -o remount,bind,ro \"$XDG_STATE_HOME\"")
    }

    /// restd launched, not waited for (see `RestdProcess.waitUntilReady`).
    func launch() throws -> RestdProcess {
        try RestdProcess(
            bus: bus, stateHome: stateHome, configHome: config.path, arguments: arguments,
            environment: environment, executable: executable)
    }

    /// restd started (it owns its name), and a client on its bus.
    func start() throws -> RunningDaemon { try RunningDaemon(self) }
}

/// A private bus with a real restd on it and a client of the project's own: the one fixture of
/// the tests that run restd. Suites with more to do wrap it (a notification server, a plan file)
/// rather than start restd their own way; a test that prepares restd's state or environment first
/// makes a `RestdSetup` and starts it.
final class RunningDaemon {
    let setup: RestdSetup
    private(set) var restd: RestdProcess
    private(set) var client: RestdClient

    var bus: TestBus { setup.bus }
    var state: TempDirectory { setup.state }
    var config: ConfigHome { setup.config }

    /// restd started from `setup`, once it owns its name.
    init(_ setup: RestdSetup) throws {
        self.setup = setup
        restd = try Self.started(setup)
        client = try RestdClient(address: setup.bus.address)
    }

    /// - bus: one the test made first (to watch it from restd's start); a new one when nil.
    convenience init(
        bus: TestBus? = nil, config: String? = nil, environment: [String: String] = [:], arguments: [String] = []
    ) throws {
        try self.init(RestdSetup(bus: bus, config: config, environment: environment, arguments: arguments))
    }

    deinit { restd.terminate() }

    private static func started(_ setup: RestdSetup) throws -> RestdProcess {
        let restd = try setup.launch()
        try restd.waitUntilReady()
        return restd
    }

    /// A new restd on the same bus, state and configuration, once the last one has ended.
    func start() throws {
        restd = try Self.started(setup)
        client = try RestdClient(address: bus.address)
    }

    /// kill -9, then a new restd on the same state and bus.
    func crashAndRestart() throws {
        _ = restd.kill9()
        try start()
    }

    /// restctl on this bus, reading the same configuration home (workout plans).
    @discardableResult
    func run(_ args: String...) -> CommandResult { run(args) }

    @discardableResult
    func run(_ args: [String], timeout: Double = 30) -> CommandResult {
        restctl(bus, args, environment: ["XDG_CONFIG_HOME": config.path], timeout: timeout)
    }

    /// What restd logged so far.
    func log() -> String { restd.log() }

    /// The current wall clock in µs, as restd reads it.
    static func realtimeNow() -> UInt64 { KernelClock.realtimeUSec }

    /// Waits until the wall clock has passed `usec`: a precondition (a deadline must be over),
    /// never an assertion about timing.
    static func waitUntilPast(_ usec: UInt64) throws {
        let now = realtimeNow()
        let remaining = Double(usec > now ? usec - now : 0) / 1_000_000
        try waitUntil("the wall clock to pass \(usec) µs", timeout: remaining + 30) { realtimeNow() > usec }
    }
}
