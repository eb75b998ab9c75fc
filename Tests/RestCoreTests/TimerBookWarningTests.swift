import RestCore
import TestClock
import Testing

/// The optional pre-alert (`warnUSec`): due once per run, when time passing leaves that little.
@Suite struct TimerBookWarningTests {
    let clock = ManualTimeSource()

    /// A book with "tea" running for `duration` with a pre-alert `warn` before the end.
    func bookWithWarning(duration: USec = 60 * second, warn: USec = 10 * second) throws -> TimerBook {
        var book = TimerBook()
        try book.commit(
            book.start(
                tid("tea"), durationUSec: duration, options: TimerOptions(label: "Tea", warnUSec: warn),
                now: clock.now()))
        return book
    }

    func warnings(_ events: [TimerEvent]) -> [TimerEvent] {
        events.filter { if case .warning = $0 { true } else { false } }
    }

    @Test func startKeepsThePreAlertTimeAndNothingIsWarnedYet() throws {
        let book = try bookWithWarning()
        let tea = try #require(book.timer(tid("tea")))
        #expect(tea.warnUSec == 10 * second)
        #expect(!tea.warned)
        #expect(tea.options == TimerOptions(label: "Tea", warnUSec: 10 * second))
    }

    @Test func theWarningIsDueAtDeadlineMinusWarnAndNotBefore() throws {
        var book = try bookWithWarning()
        let started = try #require(book.timer(tid("tea")))
        #expect(book.nextWakeup(now: clock.now()) == clock.now().boottime + 50 * second)
        clock.advance(50 * second - 1)
        #expect(book.due(now: clock.now()).isEmpty)
        clock.advance(1)

        let events = book.commit(book.due(now: clock.now()))
        let warned = try #require(book.timer(tid("tea")))
        #expect(
            events == [
                .changed(from: started, to: warned),
                .warning(id: tid("tea"), remainingUSec: 10 * second, deadlineUSec: started.endsAtUSec),
            ])
        // Only the flag changes: no property a client sees, and not a touch.
        var expected = started
        expected.warned = true
        #expect(warned == expected)
        // Next comes the deadline itself.
        #expect(book.nextWakeup(now: clock.now()) == started.deadlineBoottime)
        #expect(book.due(now: clock.now()).isEmpty)
    }

    @Test func theWarningComesExactlyOncePerRun() throws {
        var book = try bookWithWarning()
        var all: [TimerEvent] = []
        for _ in 0..<70 {
            clock.advance(second)
            all += book.commit(book.due(now: clock.now()))
        }
        #expect(warnings(all).count == 1)
        #expect(all.contains { if case .expired = $0 { true } else { false } })

        // Restart is a new run: one more warning.
        try book.commit(book.restart(tid("tea"), now: clock.now()))
        #expect(book.timer(tid("tea"))?.warned == false)
        all = []
        for _ in 0..<70 {
            clock.advance(second)
            all += book.commit(book.due(now: clock.now()))
        }
        #expect(warnings(all).count == 1)
    }

    @Test func aLateWakeupReportsTheTimeActuallyLeft() throws {
        let book = try bookWithWarning()
        clock.advance(53 * second)
        let events = book.due(now: clock.now())
        #expect(
            warnings(events) == [
                .warning(
                    id: tid("tea"), remainingUSec: 7 * second,
                    deadlineUSec: try #require(book.timer(tid("tea"))).endsAtUSec)
            ])
    }

    @Test func aSuspendOverBothInstantsOnlyExpires() throws {
        var book = try bookWithWarning()
        clock.suspend(for: 2 * minute)
        let events = book.commit(book.due(now: clock.now()))
        #expect(warnings(events).isEmpty)
        #expect(book.timer(tid("tea"))?.state == .expired)
    }

    @Test func pauseAndResumeAfterTheWarningDoNotWarnAgain() throws {
        var book = try bookWithWarning()
        clock.advance(52 * second)
        book.commit(book.due(now: clock.now()))
        try book.commit(book.pause(tid("tea"), now: clock.now()))
        #expect(book.timer(tid("tea"))?.warned == true)
        clock.advance(minute)
        try book.commit(book.resume(tid("tea"), now: clock.now()))
        #expect(book.nextWakeup(now: clock.now()) == clock.now().boottime + 8 * second)
        clock.advance(8 * second)
        #expect(warnings(book.commit(book.due(now: clock.now()))).isEmpty)
        #expect(book.timer(tid("tea"))?.state == .expired)
    }

    @Test func pausingBeforeTheWarningKeepsItPending() throws {
        var book = try bookWithWarning()
        clock.advance(30 * second)
        try book.commit(book.pause(tid("tea"), now: clock.now()))
        clock.advance(10 * minute)
        #expect(book.due(now: clock.now()).isEmpty)
        try book.commit(book.resume(tid("tea"), now: clock.now()))
        #expect(book.nextWakeup(now: clock.now()) == clock.now().boottime + 20 * second)
        clock.advance(20 * second)
        #expect(warnings(book.due(now: clock.now())).count == 1)
    }

    @Test func addingTimeAfterTheWarningArmsItAgain() throws {
        var book = try bookWithWarning()
        clock.advance(55 * second)
        book.commit(book.due(now: clock.now()))
        try book.commit(book.adjust(tid("tea"), deltaUSec: 30_000_000, now: clock.now()))
        let adjusted = try #require(book.timer(tid("tea")))
        #expect(!adjusted.warned)
        // 35 s left: the warning is due again at 10 s left.
        #expect(book.nextWakeup(now: clock.now()) == clock.now().boottime + 25 * second)
        clock.advance(25 * second)
        #expect(warnings(book.due(now: clock.now())).count == 1)
    }

    @Test func addingTooLittleToLeaveTheWarningTimeKeepsItGiven() throws {
        var book = try bookWithWarning()
        clock.advance(55 * second)
        book.commit(book.due(now: clock.now()))
        try book.commit(book.adjust(tid("tea"), deltaUSec: 3_000_000, now: clock.now()))
        #expect(book.timer(tid("tea"))?.warned == true)
        #expect(book.nextWakeup(now: clock.now()) == clock.now().boottime + 8 * second)
    }

    @Test func shorteningIntoTheWarningTimeShowsNoWarning() throws {
        var book = try bookWithWarning()
        clock.advance(20 * second)
        try book.commit(book.adjust(tid("tea"), deltaUSec: -35_000_000, now: clock.now()))
        let shortened = try #require(book.timer(tid("tea")))
        #expect(shortened.warned)
        #expect(book.nextWakeup(now: clock.now()) == clock.now().boottime + 5 * second)
        clock.advance(5 * second)
        let events = book.due(now: clock.now())
        #expect(warnings(events).isEmpty)
        #expect(events.contains { if case .expired = $0 { true } else { false } })
    }

    @Test func shorteningAPausedTimerIntoTheWarningTimeAlsoCountsAsGiven() throws {
        var book = try bookWithWarning()
        clock.advance(20 * second)
        try book.commit(book.pause(tid("tea"), now: clock.now()))
        try book.commit(book.adjust(tid("tea"), deltaUSec: -35_000_000, now: clock.now()))
        #expect(book.timer(tid("tea"))?.warned == true)
        try book.commit(book.adjust(tid("tea"), deltaUSec: 60_000_000, now: clock.now()))
        #expect(book.timer(tid("tea"))?.warned == false)
    }

    @Test func aShortRunAfterExpiryGetsNoWarningALongOneDoes() throws {
        var book = try bookWithWarning(duration: 90 * second, warn: 60 * second)
        clock.advance(90 * second)
        book.commit(book.due(now: clock.now()))
        // +30 s with a 1 min pre-alert: the whole run is inside the pre-alert time.
        try book.commit(book.adjust(tid("tea"), deltaUSec: 30_000_000, now: clock.now()))
        #expect(book.timer(tid("tea"))?.warned == true)
        #expect(book.nextWakeup(now: clock.now()) == clock.now().boottime + 30 * second)
        clock.advance(30 * second)
        book.commit(book.due(now: clock.now()))
        try book.commit(book.adjust(tid("tea"), deltaUSec: 2 * 60_000_000, now: clock.now()))
        #expect(book.timer(tid("tea"))?.warned == false)
        #expect(book.nextWakeup(now: clock.now()) == clock.now().boottime + 60 * second)
    }

    @Test func startReplacingAWarnedTimerStartsOver() throws {
        var book = try bookWithWarning()
        clock.advance(55 * second)
        book.commit(book.due(now: clock.now()))
        try book.commit(
            book.start(
                tid("tea"), durationUSec: 30 * second, options: TimerOptions(warnUSec: 5 * second),
                now: clock.now()))
        let replaced = try #require(book.timer(tid("tea")))
        #expect(!replaced.warned && replaced.warnUSec == 5 * second)
        // Replacing without a pre-alert drops it.
        try book.commit(book.start(tid("tea"), durationUSec: 30 * second, options: .init(), now: clock.now()))
        #expect(book.timer(tid("tea"))?.warnUSec == 0)
        #expect(book.nextWakeup(now: clock.now()) == clock.now().boottime + 30 * second)
    }

    @Test func withoutAPreAlertNothingChanges() throws {
        var book = try bookWithTea(clock)
        var all: [TimerEvent] = []
        for _ in 0..<61 {
            clock.advance(second)
            all += book.commit(book.due(now: clock.now()))
        }
        #expect(warnings(all).isEmpty)
        #expect(all.count == 2)  // changed + expired
    }

    @Test func theWarningTimeIsValidated() throws {
        let book = TimerBook()
        let now = clock.now()
        func start(_ duration: USec, warn: USec) -> TimerError? {
            thrown {
                _ = try book.start(tid("a"), durationUSec: duration, options: TimerOptions(warnUSec: warn), now: now)
            }
        }
        #expect(
            start(60 * second, warn: 60 * second)
                == .invalidArgs(
                    "the pre-alert (warn_usec) 1 min is not shorter than the duration 1 min: give less than 1 min, or 0 for none"
                ))
        #expect(
            start(60 * second, warn: 2 * minute)
                == .invalidArgs(
                    "the pre-alert (warn_usec) 2 min is not shorter than the duration 1 min: give less than 1 min, or 0 for none"
                ))
        #expect(
            start(60 * second, warn: 500_000)
                == .invalidArgs("the pre-alert (warn_usec) 500 ms is too short: give at least 1 s, or 0 for none"))
        #expect(start(60 * second, warn: 0) == nil)
        #expect(start(60 * second, warn: second) == nil)
        #expect(start(60 * second, warn: 60 * second - 1) == nil)
        // A duration out of range is reported first.
        #expect(start(0, warn: second)?.message.hasPrefix("duration 0 s") == true)
    }

    @Test func restoringKeepsThePendingWarning() throws {
        var book = try bookWithWarning()
        clock.advance(20 * second)
        let stored = book.sortedTimers.map { timer -> RestTimer in
            var copy = timer
            copy.deadlineBoottime = 0
            return copy
        }
        clock.advance(35 * second)  // restd was down while the pre-alert time came
        let (restored, events) = TimerBook.restoring(stored, now: clock.now())
        #expect(events.isEmpty)
        // The pre-alert time passed while restd was down: due at once.
        #expect(try #require(restored.nextWakeup(now: clock.now())) <= clock.now().boottime)
        book = restored
        #expect(
            warnings(book.due(now: clock.now())) == [
                .warning(id: tid("tea"), remainingUSec: 5 * second, deadlineUSec: stored[0].endsAtUSec)
            ])
    }

    @Test func theWarningEventNamesItsTimer() {
        #expect(TimerEvent.warning(id: tid("x"), remainingUSec: 1, deadlineUSec: 2).timerID == tid("x"))
    }
}
