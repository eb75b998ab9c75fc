import RestCore
import TestClock
import Testing

/// A rest's alarm at its end: it rings for `ring_for` unless stopped, by a silence or by any
/// command on its timer, and keeps its timer while it rings, whatever the retention.
@Suite struct RingingTests {
    let clock = ManualTimeSource()
    let tea = tid("tea")

    /// A book whose "tea" (60 s) has just run out and rings.
    func ringingTea(
        limits: TimerLimits = .standard, options: TimerOptions = TimerOptions(label: "Tea")
    ) throws
        -> TimerBook
    {
        var book = TimerBook(limits: limits)
        try book.commit(book.start(tea, durationUSec: minute, options: options, now: clock.now()))
        clock.advance(minute)
        book.commit(book.due(now: clock.now()))
        return book
    }

    @Test func aRestThatRunsOutRingsForRingFor() throws {
        var book = try ringingTea()
        let ringing = try #require(book.timer(tea))
        #expect(ringing.state == .expired && ringing.ringing)
        #expect(ringing.ringsUntilUSec == ringing.expiredAtUSec + minute)
        #expect(book.nextWakeup(now: clock.now()) == clock.now().boottime + minute)
        clock.advance(minute - 1)
        #expect(book.due(now: clock.now()).isEmpty)
        clock.advance(1)
        let events = book.commit(book.due(now: clock.now()))
        var quiet = ringing
        quiet.ringsUntilUSec = 0
        #expect(events == [.changed(from: ringing, to: quiet)])
        // Retention counts from the end as before: an hour from the deadline.
        #expect(book.nextWakeup(now: clock.now()) == clock.now().boottime + hour - minute)
    }

    @Test func aRingingTimerStaysEvenWithoutRetention() throws {
        var book = try ringingTea(limits: TimerLimits(expiredRetentionUSec: 0))
        let ringing = try #require(book.timer(tea))
        #expect(ringing.ringing)
        clock.advance(30 * second)
        #expect(book.due(now: clock.now()).isEmpty)
        clock.advance(30 * second)
        var quiet = ringing
        quiet.ringsUntilUSec = 0
        #expect(book.commit(book.due(now: clock.now())) == [.changed(from: ringing, to: quiet), .removed(quiet)])
        #expect(book.timers.isEmpty)
    }

    @Test func silenceStopsTheAlarmAndCountsAsATouch() throws {
        var book = try ringingTea(limits: TimerLimits(expiredRetentionUSec: 0))
        let ringing = try #require(book.timer(tea))
        clock.advance(5 * second)
        let events = try book.commit(book.plan(.silence(tea), now: clock.now()))
        let quiet = try #require(book.timer(tea))
        #expect(events == [.changed(from: ringing, to: quiet)])
        #expect(!quiet.ringing && quiet.state == .expired && quiet.updatedAtUSec == clock.now().realtime)
        // Silencing what does not ring changes nothing and is no error.
        #expect(try book.plan(.silence(tea), now: clock.now()).isEmpty)
        #expect(thrown { _ = try book.plan(.silence(tid("nosuch")), now: clock.now()) }?.kind == "noSuchTimer")
        // Quiet, the retention of 0 removes it at once.
        #expect(book.commit(book.due(now: clock.now())) == [.removed(quiet)])
    }

    @Test(arguments: [
        TimerCommand.pause(tid("tea")), .resume(tid("tea")), .adjust(tid("tea"), deltaUSec: -5_000_000),
        .skip(tid("tea")),
    ])
    func commandsRefusedOrIdleOnAnExpiredTimerSilenceARingingOne(_ command: TimerCommand) throws {
        var book = try ringingTea()
        let ringing = try #require(book.timer(tea))
        let events = try book.commit(book.plan(command, now: clock.now()))
        let quiet = try #require(book.timer(tea))
        #expect(events == [.changed(from: ringing, to: quiet)])
        #expect(!quiet.ringing && quiet.state == .expired)
        // Once quiet, they are what they were on an expired timer.
        if case .skip = command {
            #expect(try book.plan(command, now: clock.now()).isEmpty)
        } else {
            #expect(thrown { _ = try book.plan(command, now: clock.now()) }?.kind == "invalidState")
        }
    }

    @Test(arguments: [
        TimerCommand.restart(tid("tea")), .adjust(tid("tea"), deltaUSec: 30_000_000),
        .start(tid("tea"), durationUSec: 90_000_000, options: TimerOptions()),
    ])
    func aNewRunIsQuiet(_ command: TimerCommand) throws {
        var book = try ringingTea()
        try book.commit(book.plan(command, now: clock.now()))
        let run = try #require(book.timer(tea))
        #expect(run.state == .running && !run.ringing)
    }

    @Test func cancelTakesTheRingingTimerAway() throws {
        var book = try ringingTea()
        let ringing = try #require(book.timer(tea))
        #expect(try book.commit(book.plan(.cancel(tea), now: clock.now())) == [.removed(ringing)])
        #expect(book.nextWakeup(now: clock.now()) == nil)
    }

    @Test func noRingWithoutSoundWithRingForZeroOrWhenEndedByHand() throws {
        #expect(try ringingTea(options: TimerOptions(sound: false)).timer(tea)?.ringing == false)
        #expect(try ringingTea(limits: TimerLimits(ringForUSec: 0)).timer(tea)?.ringing == false)
        var book = TimerBook()
        try book.commit(book.start(tea, durationUSec: minute, options: TimerOptions(), now: clock.now()))
        try book.commit(book.adjust(tea, deltaUSec: -60_000_000, now: clock.now()))
        let ended = try #require(book.timer(tea))
        #expect(ended.state == .expired && !ended.ringing)
    }

    @Test func aRestEndedOnRecoveryRings() throws {
        var book = TimerBook()
        let rule = try RecoveryRule(plannedUSec: 3 * minute)
        try book.commit(
            book.start(tea, durationUSec: 3 * minute, options: TimerOptions(recovery: rule), now: clock.now()))
        clock.advance(minute)
        book.commit(book.endRecovered(tea, heartRateBPM: 99, atBoottimeUSec: clock.now().boottime, now: clock.now()))
        let ended = try #require(book.timer(tea))
        #expect(ended.endReason == .recovered && ended.ringing)
    }

    @Test func aRestartOfRestdRingsForWhatIsLeftOfRingFor() throws {
        let book = try ringingTea()
        let stored = book.sortedTimers
        clock.advance(20 * second)
        let restored = TimerBook.restoring(stored, now: clock.now())
        #expect(restored.events.isEmpty)
        #expect(restored.book.timer(tea)?.ringing == true)
        #expect(restored.book.nextWakeup(now: clock.now()) == clock.now().boottime + 40 * second)
        clock.advance(40 * second)
        let later = TimerBook.restoring(stored, now: clock.now())
        #expect(later.book.timer(tea)?.ringing == false)
        #expect(later.events.count == 1)
    }

    @Test func aRestThatRanOutWhileRestdWasDownRingsOnlyWithinRingFor() throws {
        var book = TimerBook()
        try book.commit(book.start(tea, durationUSec: minute, options: TimerOptions(), now: clock.now()))
        let stored = book.sortedTimers
        clock.advance(minute + 10 * second)
        #expect(TimerBook.restoring(stored, now: clock.now()).book.timer(tea)?.ringing == true)
        clock.advance(hour)
        #expect(TimerBook.restoring(stored, now: clock.now()).book.timer(tea)?.ringing == false)
    }
}
