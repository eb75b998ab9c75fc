import RestCore
import TestClock
import Testing

/// Start-up after the daemon was stopped: stored rows carry no boottime deadline.
@Suite struct TimerBookRestoreTests {
    let clock = ManualTimeSource()

    /// What the store hands back: the timers as persisted, deadlineBoottime zeroed, in the order
    /// of its table (here against the ids', which restoring must not rely on).
    func stored(_ book: TimerBook) -> [RestTimer] {
        book.sortedTimers.reversed().map { timer in
            var copy = timer
            copy.deadlineBoottime = 0
            return copy
        }
    }

    /// The machine rebooted: boottime starts again near zero while the wall clock moved on.
    func reboot(after usec: USec) -> Instant {
        let before = clock.now()
        return Instant(realtime: before.realtime + usec, boottime: 7 * second)
    }

    @Test func aRunningTimerWhoseDeadlinePassedExpiresWithAnEvent() throws {
        let book = try bookWithTea(clock)
        let original = try #require(book.timer(tid("tea")))
        let now = reboot(after: 10 * minute)
        let (restored, events) = TimerBook.restoring(stored(book), now: now)
        let expired = try #require(restored.timer(tid("tea")))
        #expect(expired.state == .expired)
        #expect(expired.expiredAtUSec == original.endsAtUSec)
        #expect(expired.endsAtUSec == 0 && expired.remainingUSec == 0 && expired.deadlineBoottime == 0)
        #expect(events.count == 2)
        #expect(events.last == .expired(id: tid("tea"), deadlineUSec: original.endsAtUSec, firedUSec: now.realtime))
    }

    @Test func aRunningTimerWithAFutureDeadlineKeepsItsWallClockDeadline() throws {
        let book = try bookWithTea(clock, durationUSec: hour)
        let original = try #require(book.timer(tid("tea")))
        let now = reboot(after: 20 * minute)
        let (restored, events) = TimerBook.restoring(stored(book), now: now)
        let running = try #require(restored.timer(tid("tea")))
        #expect(events.isEmpty)
        #expect(running.state == .running)
        #expect(running.endsAtUSec == original.endsAtUSec)
        #expect(running.deadlineBoottime == now.boottime + 40 * minute)
        #expect(restored.nextWakeup(now: now) == now.boottime + 40 * minute)
    }

    @Test func aPausedTimerStaysPaused() throws {
        var book = try bookWithTea(clock)
        clock.advance(15 * second)
        try book.commit(book.pause(tid("tea"), now: clock.now()))
        let paused = try #require(book.timer(tid("tea")))
        let (restored, events) = TimerBook.restoring(stored(book), now: reboot(after: 3 * hour))
        #expect(events.isEmpty)
        #expect(restored.timer(tid("tea")) == paused)
        #expect(paused.remainingUSec == 45 * second)
    }

    @Test func timersUntouchedForADayAreDropped() throws {
        var book = try bookWithTea(clock)
        clock.advance(second)
        try book.commit(book.pause(tid("tea"), now: clock.now()))
        let paused = try #require(book.timer(tid("tea")))
        let (restored, events) = TimerBook.restoring(stored(book), now: reboot(after: 24 * hour))
        #expect(events == [.removed(paused)])
        #expect(restored.timers.isEmpty)
    }

    /// What start-up finds is announced in id order, whatever the order of the rows.
    @Test func eventsAreInIdOrderWhateverTheRows() throws {
        var book = try bookWithTea(clock)
        for id in ["nap", "coffee"] {
            try book.commit(book.start(tid(id), durationUSec: minute, options: .init(), now: clock.now()))
        }
        clock.advance(second)
        for id in ["tea", "coffee", "nap"] { try book.commit(book.pause(tid(id), now: clock.now())) }
        let paused = book.sortedTimers
        #expect(stored(book).map(\.id) == [tid("tea"), tid("nap"), tid("coffee")])
        let (restored, events) = TimerBook.restoring(stored(book), now: reboot(after: 24 * hour))
        #expect(events == paused.map { .removed($0) })
        #expect(restored.timers.isEmpty)
    }

    @Test func expiredTimersPastRetentionAreDroppedOthersKept() throws {
        // No alarm (`ring_for` 0): the retention alone.
        var book = try bookWithTea(clock, limits: TimerLimits(ringForUSec: 0))
        try book.commit(book.start(tid("coffee"), durationUSec: 2 * minute, options: .init(), now: clock.now()))
        // A punctual daemon: each expiry handled at its deadline.
        clock.advance(minute)
        book.commit(book.due(now: clock.now()))
        clock.advance(minute)
        book.commit(book.due(now: clock.now()))
        let tea = try #require(book.timer(tid("tea")))
        // tea expired one minute before coffee; an hour after tea's expiry only coffee remains.
        let now = Instant(realtime: tea.expiredAtUSec + hour, boottime: 3 * second)
        let (restored, events) = TimerBook.restoring(stored(book), now: now)
        #expect(events == [.removed(tea)])
        #expect(restored.sortedTimers.map(\.id) == [tid("coffee")])
    }

    /// The same rule as a running daemon's, whatever the age: a rest that ran out while restd
    /// was down is announced as over ("ended 2 h ago"), then kept for the retention from now.
    @Test(arguments: [2 * hour, 25 * hour, 30 * 24 * hour])
    func aRunningTimerThatRanOutLongAgoIsExpiredAndAnnounced(_ downFor: USec) throws {
        let book = try bookWithTea(clock)
        let original = try #require(book.timer(tid("tea")))
        let now = reboot(after: downFor)
        let (restored, events) = TimerBook.restoring(stored(book), now: now)
        #expect(events.last == .expired(id: tid("tea"), deadlineUSec: original.endsAtUSec, firedUSec: now.realtime))
        let expired = try #require(restored.timer(tid("tea")))
        #expect(expired.state == .expired && expired.expiredAtUSec == original.endsAtUSec)
        #expect(restored.due(now: now).isEmpty)
        #expect(restored.nextWakeup(now: now) == now.boottime + hour)
        let later = Instant(realtime: now.realtime + hour, boottime: now.boottime + hour)
        #expect(restored.due(now: later) == [.removed(expired)])
    }

    @Test func theRestoredBookHasTheEventsApplied() throws {
        var book = try bookWithTea(clock)
        try book.commit(book.start(tid("nap"), durationUSec: 3 * hour, options: .init(), now: clock.now()))
        let rows = stored(book)
        let now = reboot(after: 5 * minute)
        let (restored, events) = TimerBook.restoring(rows, limits: TimerLimits(maxTimers: 5), now: now)

        var rebuilt = TimerBook(limits: TimerLimits(maxTimers: 5))
        rebuilt.apply(rows.map { .added($0) })
        rebuilt.apply(events)
        #expect(restored.sortedTimers.map(\.id) == rebuilt.sortedTimers.map(\.id))
        #expect(restored.sortedTimers.map(\.state) == rebuilt.sortedTimers.map(\.state))
        #expect(restored.limits.maxTimers == 5)
        #expect(restored.timer(tid("tea"))?.state == .expired)
        #expect(restored.timer(tid("nap"))?.state == .running)
    }
}
