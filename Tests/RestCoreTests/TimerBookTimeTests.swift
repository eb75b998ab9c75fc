import RestCore
import TestClock
import Testing

@Suite struct TimerBookDueTests {
    let clock = ManualTimeSource()

    @Test func dueExpiresARunningTimerAtItsDeadlineAndNotBefore() throws {
        var book = try bookWithTea(clock)
        let started = try #require(book.timer(tid("tea")))
        clock.advance(60 * second - 1)
        #expect(book.due(now: clock.now()).isEmpty)
        clock.advance(1)
        let now = clock.now()
        let events = book.commit(book.due(now: now))
        let expired = try #require(book.timer(tid("tea")))
        #expect(
            events == [
                .changed(from: started, to: expired),
                .expired(id: tid("tea"), deadlineUSec: started.endsAtUSec, firedUSec: now.realtime),
            ])
        #expect(expired.state == .expired)
        #expect(expired.expiredAtUSec == started.endsAtUSec)
        #expect(expired.remainingUSec == 0 && expired.endsAtUSec == 0 && expired.deadlineBoottime == 0)
        #expect(book.due(now: now).isEmpty)
    }

    @Test func expiredTimersAreRemovedAfterTheRetention() throws {
        // Quiet (`ring_for` 0): a ringing one stays until it falls quiet (RingingTests).
        var book = try bookWithTea(clock, limits: TimerLimits(ringForUSec: 0))
        clock.advance(minute)
        book.commit(book.due(now: clock.now()))
        let expired = try #require(book.timer(tid("tea")))
        clock.advance(hour - 1)
        #expect(book.due(now: clock.now()).isEmpty)
        clock.advance(1)
        #expect(book.commit(book.due(now: clock.now())) == [.removed(expired)])
        #expect(book.timers.isEmpty)
    }

    @Test func pausedTimersUntouchedForADayAreDropped() throws {
        var book = try bookWithTea(clock)
        clock.advance(second)
        try book.commit(book.pause(tid("tea"), now: clock.now()))
        clock.advance(20 * hour)
        // Any change counts as a touch and restarts the 24 hours.
        try book.commit(book.adjust(tid("tea"), deltaUSec: 1_000_000, now: clock.now()))
        clock.advance(24 * hour - 1)
        #expect(book.due(now: clock.now()).isEmpty)
        clock.advance(1)
        let paused = try #require(book.timer(tid("tea")))
        #expect(book.commit(book.due(now: clock.now())) == [.removed(paused)])
    }

    @Test func dueListsEventsInIDOrder() throws {
        var book = TimerBook()
        for name in ["c", "a", "B", "b"] {
            try book.commit(book.start(tid(name), durationUSec: second, options: .init(), now: clock.now()))
        }
        clock.advance(second)
        let expiredIDs = book.due(now: clock.now()).compactMap { event -> TimerID? in
            if case .expired(let id, _, _) = event { id } else { nil }
        }
        #expect(expiredIDs == [tid("B"), tid("a"), tid("b"), tid("c")])
    }
}

@Suite struct TimerBookWakeupTests {
    let clock = ManualTimeSource()

    @Test func anIdleBookNeverWakesUp() {
        #expect(TimerBook().nextWakeup(now: clock.now()) == nil)
    }

    @Test func wakesUpAtTheEarliestDeadline() throws {
        var book = try bookWithTea(clock, durationUSec: 10 * minute)
        let now = clock.now()
        try book.commit(book.start(tid("coffee"), durationUSec: 3 * minute, options: .init(), now: now))
        try book.commit(book.start(tid("nap"), durationUSec: 20 * minute, options: .init(), now: now))
        #expect(book.nextWakeup(now: now) == now.boottime + 3 * minute)
    }

    @Test func wakesUpForHousekeeping() throws {
        // No alarm (`ring_for` 0): the housekeeping alone.
        var book = try bookWithTea(clock, limits: TimerLimits(ringForUSec: 0))
        clock.advance(minute)
        book.commit(book.due(now: clock.now()))
        // Expired at the deadline: removal is due one hour after it, converted to boottime.
        #expect(book.nextWakeup(now: clock.now()) == clock.now().boottime + hour)
        // The wall clock moved forward: the removal comes sooner on the boottime scale.
        clock.jumpWallClock(by: 30 * 60_000_000)
        #expect(book.nextWakeup(now: clock.now()) == clock.now().boottime + 30 * minute)

        var paused = try bookWithTea(clock)
        clock.advance(second)
        try paused.commit(paused.pause(tid("tea"), now: clock.now()))
        #expect(paused.nextWakeup(now: clock.now()) == clock.now().boottime + 24 * hour)
    }

    @Test func overdueHousekeepingWakesUpNowNotInThePast() throws {
        var book = try bookWithTea(clock)
        clock.advance(minute)
        book.commit(book.due(now: clock.now()))
        clock.jumpWallClock(by: 2 * 3_600_000_000)
        #expect(book.nextWakeup(now: clock.now()) == clock.now().boottime)
    }
}

@Suite struct TimerBookClockTests {
    let clock = ManualTimeSource()

    @Test(arguments: [Int64(3_600_000_000), -3_600_000_000])
    func wallClockJumpKeepsTheTimeLeftAndRepublishesTheDeadline(jump: Int64) throws {
        var book = try bookWithTea(clock, durationUSec: 10 * minute)
        let before = try #require(book.timer(tid("tea")))
        clock.advance(4 * minute)
        clock.jumpWallClock(by: jump)
        let now = clock.now()

        let events = book.commit(book.wallClockChanged(now: now))
        let after = try #require(book.timer(tid("tea")))
        #expect(events == [.changed(from: before, to: after)])
        #expect(after.endsAtUSec == now.realtime + 6 * minute)
        #expect(Int64(after.endsAtUSec) - Int64(before.endsAtUSec) == jump)
        #expect(Int64(after.startedAtUSec) - Int64(before.startedAtUSec) == jump)
        #expect(after.deadlineBoottime == before.deadlineBoottime)
        #expect(after.remainingUSec == 6 * minute)
        #expect(after.updatedAtUSec == before.updatedAtUSec)

        // The deadline still comes after six real minutes, not earlier or later.
        clock.advance(6 * minute - 1)
        #expect(book.due(now: clock.now()).isEmpty)
        clock.advance(1)
        #expect(book.due(now: clock.now()).count == 2)
    }

    @Test func wallClockChangedReportsOnlyTimersThatMoved() throws {
        var book = try bookWithTea(clock)
        try book.commit(book.start(tid("nap"), durationUSec: hour, options: .init(), now: clock.now()))
        try book.commit(book.pause(tid("nap"), now: clock.now()))
        clock.advance(10 * second)
        // No jump: the published deadline is still right.
        #expect(book.wallClockChanged(now: clock.now()).isEmpty)
        clock.jumpWallClock(by: 5_000_000)
        let events = book.wallClockChanged(now: clock.now())
        #expect(events.map(\.timerID) == [tid("tea")])
    }

    @Test func suspendPastTheDeadlineExpiresOnWakeWithALaterFiringTime() throws {
        var book = try bookWithTea(clock)
        let started = try #require(book.timer(tid("tea")))
        clock.advance(10 * second)
        clock.suspend(for: 30 * minute)
        let now = clock.now()
        let events = book.commit(book.due(now: now))
        #expect(events.last == .expired(id: tid("tea"), deadlineUSec: started.endsAtUSec, firedUSec: now.realtime))
        #expect(now.realtime > started.endsAtUSec)
        #expect(book.timer(tid("tea"))?.expiredAtUSec == started.endsAtUSec)
    }
}
