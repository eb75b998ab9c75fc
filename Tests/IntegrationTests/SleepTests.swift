import DBusKit
import Foundation
import ProcessHarness
import RestClient
import Testing

/// The daemon a person runs — restarted on its existing state, not started on a fresh one — has
/// exactly one thread and does not wake while nobody talks to it and no rest is over. Each case
/// first takes restd through one path that touches the store or the bus, then counts the context
/// switches of all its threads over 20 s of quiet (`trainingHistory` with a rest that may end on
/// recovery running, no strap connected).
// Real time: context switches counted by the kernel over a quiet window are the thing proven.
@Suite("A restarted restd sleeps", .tags(.realTime))
struct SleepTests {
    /// The quiet window: long enough for a 1 Hz tick (libdispatch's workqueue monitor, say) to
    /// show many times over.
    static let quietSeconds = 20.0

    enum Path: String, CaseIterable, CustomTestStringConvertible {
        case restartedOnState, brokenFileMovedAside, readOnlyCopy, reload, notificationServerCameAndWent
        case liveSubscriberLeft, expiry, trainingHistory, workout

        var testDescription: String { rawValue }
    }

    @Test("one thread and no wake-up after", arguments: Path.allCases)
    func sleepsAfter(_ path: Path) async throws {
        let setup = try RestdSetup()
        let runtime = try TempDirectory(prefix: "restd-runtime")
        switch path {
        case .brokenFileMovedAside:
            try setup.state.write("restd/state.sqlite", "not a database\n")
        case .readOnlyCopy:
            try leaveTimers(setup)
            setup.environment = ["XDG_RUNTIME_DIR": runtime.path]
            try setup.readOnlyState()
        case .workout:
            // Restarted in the middle of a workout: its abandon deadline is 12 h away.
            try leaveTimers(setup) { client in
                try client.startWorkout(Self.plan)
                _ = try client.completeSet(id: "squat", exercise: nil)
            }
        default:
            try leaveTimers(setup)
            // The sets' progress counts today's sets: restd's local midnight is kept half a day away.
            setup.environment = ["TZ": LocalTime.zoneAtNoon()]
        }
        let daemon = try setup.start()
        let (bus, restd, client) = (setup.bus, daemon.restd, daemon.client)
        if path == .brokenFileMovedAside { try restd.waitForLog(containing: "moved aside") }
        if path == .readOnlyCopy { try restd.waitForLog(containing: "read-only") }
        if path == .workout {
            #expect(try client.timers().map(\.id) == ["held", "run", "squat"])
        } else if path != .brokenFileMovedAside {
            #expect(try client.timers().map(\.id) == ["held", "run"])
        }

        switch path {
        case .restartedOnState, .brokenFileMovedAside, .readOnlyCopy:
            break
        case .reload:
            restd.signal(SIGHUP)
            try restd.waitForLog(containing: "reloaded the configuration")
        case .notificationServerCameAndWent:
            let calls = try MockCalls(bus: bus)
            let server = try NotificationServer(bus: bus)
            // A rest that ends while the server is there: restd asks it, then shows "Rest over".
            try client.start(id: "short", durationUSec: 1_000_000)
            try calls.waitFor("Notify")
            server.kill()
            _ = server.waitForExit()
            // The rest rings until it is silenced, as a person at the rack does.
            try client.silence(id: "short")
        case .liveSubscriberLeft:
            let watch = try WatchProcess(bus: bus, arguments: ["--json"])
            _ = try watch.waitForLine { $0.contains("\"run\"") || $0.contains("timer") }
            watch.stop()
        case .trainingHistory:
            // A set (history written in the commit), a skip, and the history's reads: none of them
            // may leave a timer armed (pruning rides on the commit, never on a timer of its own).
            try client.completeSet(id: "squat", exercise: "Squat", reps: 5)
            try client.completeSet(id: "squat", exercise: nil, reps: 5, restUSec: 3_000_000_000)
            try client.skip(id: "squat")
            // A rest that may end on recovery, with no strap anywhere: no sample, so no wake-up of
            // its own during the quiet (only its expiry, 50 min away).
            try client.completeSet(id: "squat", exercise: nil, reps: 5, restUSec: 3_000_000_000, untilRecovered: true)
            #expect(try client.historySets(sinceUSec: 0, untilUSec: 0).count == 3)
            #expect(try client.historyStats(sinceUSec: 0, untilUSec: 0, exercise: nil).first?.sets == 3)
            // The sets' progress reaches the live broadcast at the end of its throttle interval (0.5 s).
            try waitUntil("the third set's progress broadcast") {
                try client.liveFields()["progress_done"] == .int64(3)
            }
        case .workout:
            // Its next set, then its end: "Workout done" asked of a bus with no notification server.
            #expect(try client.workoutStatus().setsDone == 1)
            _ = try client.completeSet(id: "squat", exercise: nil)
            try client.workout("End")
            try restd.waitForLog(containing: "cannot show desktop notifications")
            // The workout leaves the live activity at the end of its throttle interval (0.5 s).
            try waitUntil("the workout's end in the live broadcast") { try client.liveFields()["workout"] == nil }
        case .expiry:
            let watcher = try SignalWatcher.restd(bus: bus)
            try client.start(id: "short", durationUSec: 1_000_000)
            try watcher.waitFor(where: { $0.member == "Expired" && $0.arguments().first == .string("short") })
            // The rest rings until it is silenced, as a person at the rack does.
            try client.silence(id: "short")
        }

        #expect(try ProcessActivity.threads(restd.pid) == 1, "\(restd.log())")
        let wakeUps = try await ProcessActivity.wakeUps(restd.pid, over: Self.quietSeconds)
        #expect(wakeUps == 0, "restd woke \(wakeUps) times in \(Self.quietSeconds) s of quiet\n\(restd.log())")
    }

    /// Squat 3 × 5 with 10 min rests.
    static let plan = "name = \"Legs\"\n[[exercise]]\nname = \"Squat\"\nsets = 3\nreps = 5\nrest = \"10m\"\n"

    /// A first restd leaves a running and a paused timer in the state of `setup` (and whatever
    /// `more` does), then stops (SIGTERM).
    private func leaveTimers(_ setup: RestdSetup, more: (RestdClient) throws -> Void = { _ in }) throws {
        let daemon = try setup.start()
        let (first, client) = (daemon.restd, daemon.client)
        try client.start(id: "run", durationUSec: 3_600_000_000, label: "Squat")
        try client.start(id: "held", durationUSec: 1_200_000_000)
        try client.pause(id: "held")
        try more(client)
        first.terminate()
        #expect(try first.waitForExit() == 0, "\(first.log())")
    }
}
