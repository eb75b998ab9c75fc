import Foundation
import ProcessHarness
import RestClient
import RestProtocol
import Testing

/// One restd per state directory: a second one, on another bus, refuses to start and says who
/// holds the state, and restctl says so when the bus's attempt to start restd runs into it.
@Suite("The state directory's lock", .serialized)
struct StateLockTests {
    /// What restd and restctl say of the state under `state` (XDG_STATE_HOME) held by `holder`.
    static func inUseSentence(state: String, holder: RestdProcess) -> String {
        "the state in \(state)/restd is in use by restd (pid \(holder.pid)) on bus \(holder.bus.address); "
            + "stop that restd first, or use it there: export DBUS_SESSION_BUS_ADDRESS=\(holder.bus.address)"
    }

    @Test("a second restd on the same state and another bus exits 75, naming the holder and its bus")
    func secondRestdRefused() throws {
        let daemon = try RunningDaemon()
        let (state, first, firstClient) = (daemon.state, daemon.restd, daemon.client)
        try firstClient.start(id: "squat", durationUSec: 600_000_000, label: "Squat")

        let secondBus = try TestBus()
        let second = try RestdSetup(bus: secondBus, state: state).launch()
        #expect(try second.waitForExit() == StateDirectory.inUseExitStatus, "\(second.log())")
        #expect(second.log().contains(Self.inUseSentence(state: state.path, holder: first)), "\(second.log())")
        // It stopped before reading anything, and never owned the name on its bus.
        #expect(!second.log().contains("serving"), "\(second.log())")
        let owner = busctl(
            secondBus, "call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
            "NameHasOwner", "s", RestBus.name)
        #expect(owner.output == "b false", "\(owner)")

        // The first one goes on, alone with its state: a change is saved, as before.
        try firstClient.start(id: "plank", durationUSec: 60_000_000)
        #expect(try firstClient.timers().map(\.id) == ["plank", "squat"])
        let lockFile = try String(contentsOfFile: state.path("restd/restd.lock"), encoding: .utf8)
        #expect(lockFile == "pid=\(first.pid)\nbus=\(first.bus.address)\n")
    }

    @Test("kill -9 lets the state go at once: the next restd, on another bus, takes it with every timer")
    func killedHolderLetsGo() throws {
        let first = try RunningDaemon()
        try first.client.start(id: "squat", durationUSec: 600_000_000)
        first.restd.kill9()

        let second = try RestdSetup(state: first.state).start()
        #expect(try second.client.timers().map(\.id) == ["squat"], "\(second.log())")
        let lockFile = try String(contentsOfFile: first.state.path("restd/restd.lock"), encoding: .utf8)
        #expect(lockFile == "pid=\(second.restd.pid)\nbus=\(second.bus.address)\n")
    }

    @Test("D-Bus activation into a held state: restctl exits 69 and says who holds it and where")
    func activationIntoHeldState() throws {
        let daemon = try RunningDaemon()
        let (state, holder) = (daemon.state, daemon.restd)

        let activating = try ActivatingBus(state: state)
        let bus = activating.bus
        defer { withExtendedLifetime(activating) {} }
        let start = restctl(bus, ["start", "60"], environment: ["XDG_STATE_HOME": state.path])
        #expect(start.status == ExitStatus.unavailable.rawValue, "\(start)")
        #expect(
            start.stderr
                == "restctl: the session bus could not start restd: \(Self.inUseSentence(state: state.path, holder: holder))\n",
            "\(start)")
        #expect(holder.isRunning)
    }
}
