import DBusKit
import Foundation
import ProcessHarness
import RestClient

/// A private bus with a real restd on it and a client of the project's own: what most tests need.
final class RunningDaemon {
    let bus: TestBus
    let state: TempDirectory
    private(set) var restd: RestdProcess
    private(set) var client: RestdClient

    init(arguments: [String] = []) throws {
        bus = try TestBus()
        state = try TempDirectory(prefix: "restd-state")
        restd = try RestdProcess.start(bus: bus, stateHome: state.path, arguments: arguments)
        client = try RestdClient(address: bus.address)
    }

    /// kill -9, then a new restd on the same state and bus.
    func crashAndRestart() throws {
        _ = restd.kill9()
        restd = try RestdProcess.start(bus: bus, stateHome: state.path)
        client = try RestdClient(address: bus.address)
    }

    /// The current wall clock in µs, as restd reads it.
    static func realtimeNow() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
    }

    /// Waits until the wall clock has passed `usec`: a precondition (a deadline must be over),
    /// never an assertion about timing.
    static func waitUntilPast(_ usec: UInt64) throws {
        let now = realtimeNow()
        let remaining = Double(usec > now ? usec - now : 0) / 1_000_000
        try waitUntil("the wall clock to pass \(usec) µs", timeout: remaining + 30) { realtimeNow() > usec }
    }
}
