import Clocks
import DBusKit
import Foundation
import ProcessHarness
import RestClient
import RestCore

/// A private bus with a real restd on it and a client of the project's own: the one fixture of
/// the tests that run restd. Suites with more to do wrap it (a notification server, a plan file)
/// rather than start restd their own way.
final class RunningDaemon {
    let bus: TestBus
    let state: TempDirectory
    /// restd's XDG_CONFIG_HOME: `config` as restd/config.toml, or nothing (the defaults).
    let config: ConfigurationTests.ConfigHome
    /// What restd runs with on top of the test's environment (a TZ, say).
    let environment: [String: String]
    let arguments: [String]
    private(set) var restd: RestdProcess
    private(set) var client: RestdClient

    /// - bus: one the test made first (to watch it from restd's start); a new one when nil.
    init(
        bus: TestBus? = nil, config: String? = nil, environment: [String: String] = [:], arguments: [String] = []
    ) throws {
        self.bus = try bus ?? TestBus()
        state = try TempDirectory(prefix: "restd-state")
        self.config = try ConfigurationTests.ConfigHome(config)
        self.environment = environment
        self.arguments = arguments
        restd = try RestdProcess.start(
            bus: self.bus, stateHome: state.path, configHome: self.config.path, arguments: arguments,
            environment: environment)
        client = try RestdClient(address: self.bus.address)
    }

    deinit { restd.terminate() }

    /// A new restd on the same bus, state and configuration, once the last one has ended.
    func start() throws {
        restd = try RestdProcess.start(
            bus: bus, stateHome: state.path, configHome: config.path, arguments: arguments, environment: environment)
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
