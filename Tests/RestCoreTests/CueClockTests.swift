import RestCore
import TestClock
import Testing

/// The ticks before a rest's end, on the test clock: when the one cue timer is armed, what it
/// does when it goes off, and that a change in the last seconds leaves no stale cue.
@Suite struct CueClockTests {
    let clock = ManualTimeSource()
    let tea = tid("tea")

    /// Drives the clock like the daemon does: arms at `nextWake`, goes off there, and collects
    /// the CLOCK_BOOTTIME instants of the cues played until `until` (or the book changes).
    func run(_ cues: inout CueClock, _ book: TimerBook, until: USec) -> (played: [USec], prepared: [USec]) {
        var played: [USec] = []
        var prepared: [USec] = []
        while let wake = cues.nextWake(in: book, now: clock.now().boottime), wake <= until {
            if wake > clock.now().boottime { clock.advance(wake - clock.now().boottime) }
            switch cues.fire(in: book, now: clock.now().boottime) {
            case .play: played.append(clock.now().boottime)
            case .prepare: prepared.append(clock.now().boottime)
            case .nothing: break
            }
        }
        if until > clock.now().boottime { clock.advance(until - clock.now().boottime) }
        return (played, prepared)
    }

    func started(_ duration: USec, options: TimerOptions = TimerOptions()) throws -> TimerBook {
        var book = TimerBook()
        try book.commit(book.start(tea, durationUSec: duration, options: options, now: clock.now()))
        return book
    }

    @Test func threeCuesOneSecondApartEndingOneSecondBeforeTheEnd() throws {
        let book = try started(minute)
        let deadline = try #require(book.timer(tea)).deadlineBoottime
        var cues = CueClock(count: 3, now: clock.now().boottime)
        let (played, prepared) = run(&cues, book, until: deadline)
        #expect(played == [deadline - 3 * second, deadline - 2 * second, deadline - second])
        // Prepared once ahead of each cue, never after it.
        #expect(prepared.count == 3)
        for (ready, cue) in zip(prepared, played) { #expect(cue - ready == CueClock.prepareLeadUSec) }
        // After the last cue nothing is armed: the expiry is the daemon's own timer.
        #expect(cues.nextWake(in: book, now: clock.now().boottime) == nil)
    }

    @Test func noneWithoutSoundWithZeroCuesOrForARestUntilRecovered() throws {
        let quiet = try started(minute, options: TimerOptions(sound: false))
        #expect(CueClock(count: 3, now: clock.now().boottime).nextCue(in: quiet, after: 0) == nil)
        let loud = try started(minute)
        #expect(CueClock(count: 0, now: clock.now().boottime).nextCue(in: loud, after: 0) == nil)
        let rule = try RecoveryRule(plannedUSec: 3 * minute)
        let followed = try started(3 * minute, options: TimerOptions(recovery: rule))
        #expect(CueClock(count: 3, now: clock.now().boottime).nextCue(in: followed, after: 0) == nil)
    }

    @Test func aShortRestGetsOnlyTheCuesAfterItsStart() throws {
        let book = try started(2 * second)
        let deadline = try #require(book.timer(tea)).deadlineBoottime
        var cues = CueClock(count: 3, now: clock.now().boottime)
        #expect(run(&cues, book, until: deadline).played == [deadline - second])
    }

    @Test func idleNothingIsArmed() {
        var cues = CueClock(count: 3, now: clock.now().boottime)
        #expect(cues.nextWake(in: TimerBook(), now: clock.now().boottime) == nil)
    }

    @Test func aPauseInTheLastSecondsPlaysNoFurtherCue() throws {
        var book = try started(minute)
        let deadline = try #require(book.timer(tea)).deadlineBoottime
        var cues = CueClock(count: 3, now: clock.now().boottime)
        #expect(run(&cues, book, until: deadline - 2 * second - 300_000).played == [deadline - 3 * second])
        // Armed for the next cue, then paused before it goes off.
        #expect(cues.nextWake(in: book, now: clock.now().boottime) == deadline - 2 * second)
        try book.commit(book.pause(tea, now: clock.now()))
        #expect(cues.nextWake(in: book, now: clock.now().boottime) == nil)
        // Had the timer gone off anyway (armed before the change), it plays nothing.
        clock.advance(300_000)
        #expect(cues.fire(in: book, now: clock.now().boottime) == .nothing)
    }

    @Test func aCancelInTheLastSecondsPlaysNoFurtherCue() throws {
        var book = try started(minute)
        let deadline = try #require(book.timer(tea)).deadlineBoottime
        var cues = CueClock(count: 3, now: clock.now().boottime)
        _ = run(&cues, book, until: deadline - 1_500_000)
        try book.commit(book.cancel(tea, now: clock.now()))
        #expect(cues.nextWake(in: book, now: clock.now().boottime) == nil)
        #expect(cues.fire(in: book, now: deadline - second) == .nothing)
    }

    @Test func anAddInTheLastSecondsMovesTheCuesWithTheEnd() throws {
        var book = try started(minute)
        let deadline = try #require(book.timer(tea)).deadlineBoottime
        var cues = CueClock(count: 3, now: clock.now().boottime)
        #expect(run(&cues, book, until: deadline - 1_500_000).played == [deadline - 3 * second, deadline - 2 * second])
        try book.commit(book.adjust(tea, deltaUSec: 10_000_000, now: clock.now()))
        let moved = try #require(book.timer(tea)).deadlineBoottime
        #expect(moved == deadline + 10 * second)
        // No cue for the old end: the next ones count down to the new one.
        #expect(run(&cues, book, until: moved).played == [moved - 3 * second, moved - 2 * second, moved - second])
    }

    @Test func aSubInTheLastSecondsPlaysNoCueAfterTheNewEnd() throws {
        var book = try started(minute)
        let deadline = try #require(book.timer(tea)).deadlineBoottime
        var cues = CueClock(count: 3, now: clock.now().boottime)
        _ = run(&cues, book, until: deadline - 3_500_000)
        try book.commit(book.adjust(tea, deltaUSec: -2_000_000, now: clock.now()))
        let moved = try #require(book.timer(tea)).deadlineBoottime
        let played = run(&cues, book, until: moved).played
        #expect(played == [moved - second])
        #expect(played.allSatisfy { $0 < moved })
    }

    @Test func aCueTooLateIsDropped() throws {
        let book = try started(minute)
        let deadline = try #require(book.timer(tea)).deadlineBoottime
        var cues = CueClock(count: 3, now: clock.now().boottime)
        #expect(cues.nextWake(in: book, now: clock.now().boottime) == deadline - 3 * second - CueClock.prepareLeadUSec)
        // The loop was held up (a suspend) past the first cue by more than the tolerance.
        clock.advance(deadline - 3 * second + CueClock.staleAfterUSec + 1 - clock.now().boottime)
        #expect(cues.fire(in: book, now: clock.now().boottime) == .nothing)
        #expect(run(&cues, book, until: deadline).played == [deadline - 2 * second, deadline - second])
    }

    @Test func aCueAtTheSameInstantAsAChangeIsStillPlayed() throws {
        let book = try started(minute)
        let deadline = try #require(book.timer(tea)).deadlineBoottime
        var cues = CueClock(count: 3, now: clock.now().boottime)
        _ = run(&cues, book, until: deadline - 3 * second - 1)
        // A pre-alert handled a few µs after the cue's moment re-arms before the cue goes off.
        clock.advance(5)
        #expect(cues.nextWake(in: book, now: clock.now().boottime) == deadline - 3 * second)
        #expect(cues.fire(in: book, now: clock.now().boottime) == .play)
    }

    @Test func cuesOfTwoTimersAtOnceAreOneSound() throws {
        var book = try started(minute)
        try book.commit(book.start(tid("two"), durationUSec: minute, options: TimerOptions(), now: clock.now()))
        let deadline = try #require(book.timer(tea)).deadlineBoottime
        var cues = CueClock(count: 3, now: clock.now().boottime)
        #expect(run(&cues, book, until: deadline).played.count == 3)
    }

    @Test func theNearestCueAmongManyTimersIsFound() throws {
        var book = TimerBook()
        for index in 0..<200 {
            try book.commit(
                book.start(
                    tid("t\(index)"), durationUSec: USec(200 - index) * second + 500_000,
                    options: TimerOptions(sound: index % 2 == 0), now: clock.now()))
        }
        let cues = CueClock(count: 3, now: clock.now().boottime)
        let expected = book.sortedTimers.flatMap { cues.instants(of: $0) }.filter { $0 > clock.now().boottime }.min()
        #expect(cues.nextCue(in: book, after: clock.now().boottime) == expected)
    }
}
