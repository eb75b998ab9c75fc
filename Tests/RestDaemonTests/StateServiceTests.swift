import DBusKit
import Logging
import ProcessHarness
import RestCore
import SQLiteKit
import TestClock
import Testing

@testable import RestDaemon

/// restd's housekeeping is announced at once and written after: a plain timer's expiry shortly
/// after, once the loop is idle, or before the store is next written; a change to the history at
/// once. Nothing is lost or written out of order, and a read never writes. The service's timers
/// run on the manual clock: they fire as the tests move it, never in real time.
@Suite("State service: housekeeping written after its signals")
struct StateServiceTests {
    /// A state service on a fresh state directory, its timers armed on the manual clock.
    private struct Fixture {
        let directory: TempDirectory
        let clock = ManualTimeSource(Instant(realtime: 1_700_000_000_000_000, boottime: 1_000_000_000_000_000))
        let service: StateService
        /// What the service logged at info level and above.
        let logs = LogLines()
        var database: String { directory.path + "/state/state.sqlite" }

        init() throws {
            directory = try TempDirectory(prefix: "restd-service")
            let (store, _) = try StateStore.open(directory: directory.path + "/state", now: clock.now().realtime)
            service = try StateService(
                books: Books(timers: TimerBook(), training: TrainingBook(), publishedAt: clock.now()), recovered: [],
                recoveredHistory: [],
                store: store,
                clock: clock, loop: clock, logger: logs.logger)
        }

        /// Each timer's stored state, as another process reading the file would find it.
        func storedStates() throws -> [String: String] {
            let reader = try SQLiteDatabase(path: database, readOnly: true, create: false)
            var states: [String: String] = [:]
            for row in try reader.rows("SELECT id, state, ends_at_usec FROM timers") {
                if case .text(let id) = row[0], case .text(let state) = row[1], case .integer(let endsAt) = row[2] {
                    states[id] = endsAt == 0 ? state : "\(state) until \(endsAt)"
                }
            }
            return states
        }

        /// The wall clock set `usec` further, and what restd's clock watcher then posts.
        func stepWallClock(by usec: Int64 = 3_600 * 1_000_000) {
            clock.jumpWallClock(by: usec)
            let now = clock.now()
            service.queue.post(.wallClockStepped(offsetUSec: service.books.wallClock.step(at: now)), at: now)
        }

        func start(_ id: String, usec: USec) throws {
            try service.perform(.timer(.start(try TimerID(parsing: id), durationUSec: usec, options: .init())))
        }

        func start(_ id: String, seconds: USec) throws {
            try start(id, usec: seconds * 1_000_000)
        }

        /// Starts "a" for 10 s and `second` for `seconds`, then lets 10 s pass: "a" expired and
        /// announced by the service's own timer, not yet written.
        func expireFirstOfTwo(second: String, seconds: USec) throws {
            try start("a", seconds: 10)
            try start(second, seconds: seconds)
            clock.advance(10 * 1_000_000)
        }
    }

    private func endsAt(_ fixture: Fixture, seconds: USec) -> String {
        "running until \(fixture.clock.now().realtime + seconds * 1_000_000)"
    }

    @Test("an expiry is announced at once and stored by the loop shortly after")
    func writtenWhenIdle() throws {
        let fixture = try Fixture()
        var announced: [TimerEvent] = []
        fixture.service.observers = [{ announced += $0.events }]
        try fixture.start("tea", seconds: 60)
        let running = endsAt(fixture, seconds: 60)
        #expect(try fixture.storedStates() == ["tea": running])

        fixture.clock.advance(60 * 1_000_000)
        #expect(announced.contains { if case .expired = $0 { true } else { false } })
        #expect(try fixture.storedStates() == ["tea": running], "written before its signals had left")

        fixture.clock.advance(StateService.writeDelayUSec - 1)
        #expect(try fixture.storedStates() == ["tea": running], "written before its delay")
        fixture.clock.advance(1)
        #expect(try fixture.storedStates() == ["tea": "expired"])
    }

    @Test("expiries announced one after another are all stored by the delayed write")
    func allStoredByTheDelayedWrite() throws {
        let fixture = try Fixture()
        // "b" expires 5 ms after "a", within the delay of the write the first expiry armed.
        try fixture.start("a", seconds: 10)
        try fixture.start("b", usec: 10_005_000)
        fixture.clock.advance(10_005_000)
        #expect(try fixture.storedStates().values.allSatisfy { $0.hasPrefix("running") })
        fixture.clock.advance(StateService.writeDelayUSec - 5_000 - 1)
        #expect(try fixture.storedStates().values.allSatisfy { $0.hasPrefix("running") }, "the delay restarted")
        fixture.clock.advance(1)
        #expect(try fixture.storedStates() == ["a": "expired", "b": "expired"])
    }

    @Test("a caller's change after an unwritten expiry is stored after it, not under it")
    func callerAfterUnwritten() throws {
        let fixture = try Fixture()
        try fixture.start("tea", seconds: 60)
        fixture.clock.advance(60 * 1_000_000)
        // Restarted before the loop was idle: the restart is planned on the expiry, and both are
        // written, the expiry first.
        try fixture.service.perform(.timer(.restart(try TimerID(parsing: "tea"))))
        let restarted = endsAt(fixture, seconds: 60)
        #expect(try fixture.storedStates() == ["tea": restarted])
        // Nothing is left for the delayed writer to write over the restart.
        fixture.clock.advance(StateService.writeDelayUSec)
        #expect(try fixture.storedStates() == ["tea": restarted])
    }

    @Test("a wall-clock step is stored at once, with what was unwritten before it: no start could recompute it")
    func wallClockStepWrittenAtOnce() throws {
        let fixture = try Fixture()
        try fixture.expireFirstOfTwo(second: "tea", seconds: 60)
        fixture.stepWallClock()
        // The deadline moves with the wall clock: 50 s left, from the stepped clock.
        #expect(try fixture.storedStates() == ["a": "expired", "tea": endsAt(fixture, seconds: 50)])
    }

    @Test("a read of the store writes nothing; closing it writes what is unwritten")
    func readsWriteNothingAndCloseWrites() throws {
        let fixture = try Fixture()
        try fixture.expireFirstOfTwo(second: "b", seconds: 20)
        _ = try fixture.service.storeForReading().sets(since: 0, until: .max, exerciseKey: "", limit: 10)
        #expect(try fixture.storedStates()["a"]?.hasPrefix("running") == true)

        fixture.clock.advance(10 * 1_000_000)
        #expect(try fixture.storedStates()["b"]?.hasPrefix("running") == true)
        fixture.service.closeStore()
        #expect(try fixture.storedStates() == ["a": "expired", "b": "expired"])
    }

    @Test("a set whose history cannot be read is refused as a storage failure, not for a reason it does not have")
    func unreadableHistoryRefusesTheSet() throws {
        let fixture = try Fixture()
        let writer = try SQLiteDatabase(path: fixture.database, create: false)
        try writer.execute("ALTER TABLE sets RENAME TO sets_elsewhere")
        try writer.close()
        let error = try #require(throws: DBusError.self) {
            try fixture.service.perform(.completeSet(try TimerID(parsing: "default"), SetInput()))
        }
        #expect(error.name == "io.restd.Rest1.Error.StorageFailed")
        #expect(error.message.hasPrefix("could not read the history in \(fixture.database): "))
        #expect(error.message.hasSuffix("; nothing was changed"))
    }

    @Test("an abandoned workout is stored at once: the history's reads, which never write, find it")
    func abandonedWorkoutWrittenAtOnce() throws {
        let fixture = try Fixture()
        let plan = WorkoutPlan(name: "Legs", blocks: [.init(exercises: [.init(name: "Squat", sets: 3)])])
        try fixture.service.perform(.workout(.start(plan, text: "", source: "")))
        try fixture.service.perform(.completeSet(try TimerID(parsing: "default"), SetInput(reps: 5)))
        // Its own wall-clock timer abandons it, once 12 hours pass with nothing done.
        let reader = try SQLiteDatabase(path: fixture.database, readOnly: true, create: false)
        fixture.clock.advance(12 * 3_600 * 1_000_000 - 1_000_000)
        #expect(try reader.integer("SELECT count(*) FROM workout") == 1)
        fixture.clock.advance(1_000_000)
        #expect(try reader.integer("SELECT count(*) FROM workout") == 0)
        #expect(try reader.integer("SELECT abandoned FROM workouts") == 1)
    }

    @Test("microsecond steps of the wall clock publish nothing until they add up to 100 ms, then one change")
    func smallStepsAddUp() throws {
        let fixture = try Fixture()
        var announced = 0
        fixture.service.observers = [{ _ in announced += 1 }]
        try fixture.start("tea", seconds: 600)
        let stored = try fixture.storedStates()
        announced = 0
        for _ in 0..<999 { fixture.stepWallClock(by: 100) }
        #expect(announced == 0 && fixture.logs.lines.isEmpty)
        #expect(try fixture.storedStates() == stored, "99.9 ms of steps change nothing")
        fixture.stepWallClock(by: 100)
        #expect(announced == 1)
        #expect(try fixture.storedStates() == ["tea": endsAt(fixture, seconds: 600)], "the deadline moved by 100 ms")
        #expect(fixture.logs.lines == ["info: wall clock stepped by +0.100 s; 1 running timer(s) re-published"])
        // Stepped back by as much: published again, from the offset published last.
        fixture.stepWallClock(by: -100_000)
        #expect(announced == 2)
        #expect(try fixture.storedStates() == stored)
    }

    @Test("a storm of real steps re-publishes each, and is logged once a minute with how many were not")
    func stormLoggedOnceAMinute() throws {
        let fixture = try Fixture()
        var announced = 0
        fixture.service.observers = [{ _ in announced += 1 }]
        try fixture.start("tea", seconds: 600)
        announced = 0
        for _ in 0..<10 {
            fixture.stepWallClock(by: 1_000_000)
            fixture.clock.advance(100_000)
        }
        #expect(announced == 10)
        #expect(fixture.logs.lines == ["info: wall clock stepped by +1.000 s; 1 running timer(s) re-published"])
        fixture.clock.advance(60 * 1_000_000)
        fixture.stepWallClock(by: -2_500_000)
        #expect(
            fixture.logs.lines.last
                == "info: wall clock stepped by -2.500 s; 1 running timer(s) re-published "
                + "(and 9 more step(s) since the last such line)")
        #expect(try fixture.storedStates() == ["tea": endsAt(fixture, seconds: 600 - 61)])
    }
}
