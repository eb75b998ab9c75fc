import RestCore
import TestClock
import Testing

/// The rest timer as an MPRIS track: the position as time passes, what each button asks of
/// the timers, and when a widget must be told that the position jumped (Seeked).
@Suite struct MediaPlayerControlTests {
    let clock = ManualTimeSource()

    private func command(_ request: MediaPlayerControl.Request, _ book: TimerBook) throws -> TimerCommand? {
        try MediaPlayerControl.command(for: request, on: #require(book.timer(tid("tea"))), now: clock.now())
    }

    private func tea(_ book: TimerBook) throws -> RestTimer { try #require(book.timer(tid("tea"))) }

    @Test func positionIsTheTimeElapsedAndStopsWhilePaused() throws {
        var book = try bookWithTea(clock)
        #expect(MediaPlayerControl.positionUSec(of: try tea(book), now: clock.now()) == 0)
        clock.advance(10 * second)
        #expect(MediaPlayerControl.positionUSec(of: try tea(book), now: clock.now()) == 10 * second)
        try book.commit(book.pause(tid("tea"), now: clock.now()))
        clock.advance(30 * second)
        #expect(MediaPlayerControl.positionUSec(of: try tea(book), now: clock.now()) == 10 * second)
        try book.commit(book.resume(tid("tea"), now: clock.now()))
        clock.advance(5 * second)
        #expect(MediaPlayerControl.positionUSec(of: try tea(book), now: clock.now()) == 15 * second)
        clock.advance(hour)
        book.commit(book.due(now: clock.now()))
        #expect(try tea(book).state == .expired)
        #expect(MediaPlayerControl.positionUSec(of: try tea(book), now: clock.now()) == 60 * second)
        #expect(PlaybackStatus(try tea(book).state) == .stopped)
    }

    @Test func buttonsMapToTimerCommands() throws {
        var book = try bookWithTea(clock)
        let id = tid("tea")
        #expect(try command(.play, book) == nil)
        #expect(try command(.pause, book) == .pause(id))
        #expect(try command(.playPause, book) == .pause(id))
        #expect(try command(.next, book) == .skip(id))
        #expect(try command(.stop, book) == .cancel(id))

        try book.commit(book.pause(id, now: clock.now()))
        #expect(try command(.play, book) == .resume(id))
        #expect(try command(.playPause, book) == .resume(id))
        #expect(try command(.pause, book) == nil)
        #expect(try command(.next, book) == .skip(id))

        try book.commit(book.skip(id, now: clock.now()))
        #expect(try command(.play, book) == .restart(id))
        #expect(try command(.playPause, book) == .restart(id))
        #expect(try command(.next, book) == .restart(id))
        #expect(try command(.pause, book) == nil)
        #expect(try command(.seek(offsetUSec: 10_000_000), book) == nil)
        #expect(try command(.stop, book) == .cancel(id))
    }

    @Test func onARingingRestEveryButtonButNextAndStopOnlySilences() throws {
        var book = try bookWithTea(clock)
        let id = tid("tea")
        clock.advance(minute)
        book.commit(book.due(now: clock.now()))
        #expect(try tea(book).ringing)
        for request in [MediaPlayerControl.Request.play, .pause, .playPause, .seek(offsetUSec: 1), .setPosition(0)] {
            #expect(try command(request, book) == .silence(id), "\(request)")
        }
        #expect(try command(.next, book) == .restart(id))
        #expect(try command(.stop, book) == .cancel(id))
    }

    @Test func seekForwardTakesTimeOffAndPastTheEndSkips() throws {
        let book = try bookWithTea(clock)
        let id = tid("tea")
        clock.advance(20 * second)  // 40 s left
        #expect(try command(.seek(offsetUSec: 10_000_000), book) == .adjust(id, deltaUSec: -10_000_000))
        #expect(try command(.seek(offsetUSec: -30_000_000), book) == .adjust(id, deltaUSec: 30_000_000))
        #expect(try command(.seek(offsetUSec: 40_000_000), book) == .skip(id))
        #expect(try command(.seek(offsetUSec: 0), book) == nil)
    }

    @Test func seekBeyondADayEitherWayIsRefused() throws {
        let book = try bookWithTea(clock)
        for offset in [Int64(86_400_000_001), -86_400_000_001, .max, .min] {
            let error = thrown { _ = try command(.seek(offsetUSec: offset), book) }
            #expect(error?.kind == "invalidArgs", "\(offset)")
            #expect(error?.message.hasSuffix("give at most 24 h either way") ?? false, "\(error?.message ?? "")")
        }
        #expect(try command(.seek(offsetUSec: 86_400_000_000), book) == .skip(tid("tea")))
    }

    @Test func setPositionLeavesLengthMinusPositionAndRefusesWhatIsOutside() throws {
        let book = try bookWithTea(clock)
        let id = tid("tea")
        clock.advance(20 * second)
        // 45 s into a 60 s rest: 15 s left, 25 s less than now.
        #expect(try command(.setPosition(45_000_000), book) == .adjust(id, deltaUSec: -25_000_000))
        #expect(try command(.setPosition(0), book) == .adjust(id, deltaUSec: 20_000_000))
        #expect(try command(.setPosition(20_000_000), book) == nil)
        #expect(try command(.setPosition(60_000_000), book) == .skip(id))
        #expect(thrown { _ = try command(.setPosition(60_000_001), book) }?.kind == "invalidArgs")
        #expect(thrown { _ = try command(.setPosition(-1), book) }?.kind == "invalidArgs")
    }

    @Test func seekedWhenTimeIsAddedOrARunStartsAgainNotOnPauseOrExpiry() throws {
        var book = try bookWithTea(clock)
        let id = tid("tea")
        let events = { (plan: [TimerEvent]) -> (RestTimer, RestTimer)? in
            guard case .changed(let old, let new)? = plan.first else { return nil }
            return (old, new)
        }
        clock.advance(5 * second)
        let paused = try #require(events(try book.commit(book.pause(id, now: clock.now()))))
        #expect(!MediaPlayerControl.seeked(from: paused.0, to: paused.1))
        let resumed = try #require(events(try book.commit(book.resume(id, now: clock.now()))))
        #expect(!MediaPlayerControl.seeked(from: resumed.0, to: resumed.1))
        let adjusted = try #require(events(try book.commit(book.adjust(id, deltaUSec: 30_000_000, now: clock.now()))))
        #expect(MediaPlayerControl.seeked(from: adjusted.0, to: adjusted.1))
        let skipped = try #require(events(try book.commit(book.skip(id, now: clock.now()))))
        #expect(!MediaPlayerControl.seeked(from: skipped.0, to: skipped.1))
        let restarted = try #require(events(try book.commit(book.restart(id, now: clock.now()))))
        #expect(MediaPlayerControl.seeked(from: restarted.0, to: restarted.1))
    }

    @Test func liveSummaryShowsWorkoutHeartRateAndProgress() {
        #expect(LiveSummary(fields: [:]) == LiveSummary())
        let full = LiveSummary(fields: [
            LiveKey.workout: .string("Push day"), LiveKey.heartRate: .integer(142),
            LiveKey.progressDone: .integer(3), LiveKey.progressTotal: .integer(5),
            LiveKey.exercise: .string("Squat"),
        ])
        #expect(full == LiveSummary(album: "Push day", comment: "♥ 142 bpm · 3/5"))
        #expect(LiveSummary(fields: [LiveKey.progressDone: .integer(3)]) == LiveSummary())
        #expect(LiveSummary(fields: [LiveKey.heartRate: .integer(90)]).comment == "♥ 90 bpm")
    }
}
