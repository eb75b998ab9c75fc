import RestCore
import TestClock
import Testing

@Suite struct TimerBookStartTests {
    let clock = ManualTimeSource()

    @Test func startAddsARunningTimer() throws {
        let book = TimerBook()
        let now = clock.now()
        let events = try book.start(
            tid("tea"), durationUSec: 60 * second, options: TimerOptions(label: "Tea", next: "Report", notify: false),
            now: now)
        let expected = RestTimer(
            id: tid("tea"), label: "Tea", next: "Report", notify: false, baseDurationUSec: 60 * second,
            state: .running, durationUSec: 60 * second, startedAtUSec: now.realtime,
            endsAtUSec: now.realtime + 60 * second, remainingUSec: 60 * second, expiredAtUSec: 0,
            updatedAtUSec: now.realtime, deadlineBoottime: now.boottime + 60 * second)
        #expect(events == [.added(expected)])
    }

    @Test func startOnAnExistingIDReplacesItInPlace() throws {
        var book = try bookWithTea(clock)
        let old = try #require(book.timer(tid("tea")))
        clock.advance(10 * second)
        try book.commit(book.adjust(tid("tea"), deltaUSec: 30_000_000, now: clock.now()))
        try book.commit(book.pause(tid("tea"), now: clock.now()))
        let before = try #require(book.timer(tid("tea")))
        clock.advance(5 * second)
        let now = clock.now()

        let events = try book.commit(
            book.start(tid("tea"), durationUSec: 5 * minute, options: TimerOptions(label: "Coffee"), now: now))

        let after = try #require(book.timer(tid("tea")))
        #expect(events == [.changed(from: before, to: after)])
        #expect(after != old)
        #expect(after.label == "Coffee")
        #expect(after.state == .running)
        #expect(after.baseDurationUSec == 5 * minute && after.durationUSec == 5 * minute)
        #expect(after.startedAtUSec == now.realtime && after.endsAtUSec == now.realtime + 5 * minute)
        #expect(after.remainingUSec == 5 * minute && after.deadlineBoottime == now.boottime + 5 * minute)
        #expect(book.timers.count == 1)
    }

    @Test func startRejectsDurationsOutOfRange() {
        let book = TimerBook()
        let now = clock.now()
        #expect(
            thrown { _ = try book.start(tid("a"), durationUSec: 0, options: .init(), now: now) }
                == .invalidArgs("duration 0 s is too short: give a rest of 1 s to 24 h"))
        #expect(
            thrown { _ = try book.start(tid("a"), durationUSec: 999_999, options: .init(), now: now) }
                == .invalidArgs("duration 999.999 ms is too short: give a rest of 1 s to 24 h"))
        #expect(
            thrown { _ = try book.start(tid("a"), durationUSec: 24 * hour + 1, options: .init(), now: now) }
                == .invalidArgs("duration 24 h 0.000001 s is too long: give a rest of 1 s to 24 h"))
        // Both ends of the range are allowed.
        #expect(thrown { _ = try book.start(tid("a"), durationUSec: second, options: .init(), now: now) } == nil)
        #expect(thrown { _ = try book.start(tid("a"), durationUSec: 24 * hour, options: .init(), now: now) } == nil)
    }

    @Test func startValidatesTexts() {
        let book = TimerBook()
        let now = clock.now()
        #expect(
            thrown { _ = try book.start(tid("a"), durationUSec: second, options: .init(label: "a\u{1B}[2J"), now: now) }
                == .invalidArgs("label contains a control character (U+001B) at position 2"))
        #expect(
            thrown {
                _ = try book.start(
                    tid("a"), durationUSec: second, options: .init(next: String(repeating: "n", count: 257)), now: now)
            } == .invalidArgs("next is 257 bytes long; at most 256 are allowed"))
    }

    @Test func startLimitsTheNumberOfTimersButAllowsReplacing() throws {
        var book = TimerBook(limits: TimerLimits(maxTimers: 2))
        let now = clock.now()
        try book.commit(book.start(tid("a"), durationUSec: second, options: .init(), now: now))
        try book.commit(book.start(tid("b"), durationUSec: second, options: .init(), now: now))
        #expect(
            thrown { _ = try book.start(tid("c"), durationUSec: second, options: .init(), now: now) }
                == .limitExceeded(
                    "cannot add timer \"c\": at most 2 timers may exist at once (expired ones count too); "
                        + "cancel one, reuse an id, or raise max_timers in config.toml"))
        #expect(try book.start(tid("b"), durationUSec: 2 * second, options: .init(), now: now).count == 1)
        // Expired timers still count until they are removed.
        clock.advance(second)
        book.commit(book.due(now: clock.now()))
        #expect(
            thrown { _ = try book.start(tid("c"), durationUSec: second, options: .init(), now: clock.now()) }?.kind
                == "limitExceeded")
        try book.commit(book.cancel(tid("a"), now: clock.now()))
        #expect(try book.start(tid("c"), durationUSec: second, options: .init(), now: clock.now()).count == 1)
    }
}

@Suite struct TimerBookPauseResumeTests {
    let clock = ManualTimeSource()

    @Test func pauseFreezesTheRemainingTime() throws {
        var book = try bookWithTea(clock)
        let before = try #require(book.timer(tid("tea")))
        clock.advance(20 * second)
        let events = try book.commit(book.pause(tid("tea"), now: clock.now()))
        let paused = try #require(book.timer(tid("tea")))
        #expect(events == [.changed(from: before, to: paused)])
        #expect(paused.state == .paused)
        #expect(paused.remainingUSec == 40 * second)
        #expect(paused.endsAtUSec == 0 && paused.deadlineBoottime == 0)
        #expect(paused.startedAtUSec == before.startedAtUSec)
        #expect(paused.updatedAtUSec == clock.now().realtime)
        // Time passing while paused does not count.
        clock.advance(hour)
        #expect(book.due(now: clock.now()).isEmpty)
    }

    @Test func pauseAndResumeAreIdempotent() throws {
        var book = try bookWithTea(clock)
        #expect(try book.resume(tid("tea"), now: clock.now()).isEmpty)
        clock.advance(second)
        try book.commit(book.pause(tid("tea"), now: clock.now()))
        let paused = book
        clock.advance(second)
        #expect(try book.pause(tid("tea"), now: clock.now()).isEmpty)
        #expect(book == paused)
    }

    @Test func resumeContinuesFromTheFrozenRemainder() throws {
        var book = try bookWithTea(clock)
        let started = try #require(book.timer(tid("tea")))
        clock.advance(15 * second)
        try book.commit(book.pause(tid("tea"), now: clock.now()))
        clock.advance(10 * minute)
        let now = clock.now()
        let events = try book.commit(book.resume(tid("tea"), now: now))
        let running = try #require(book.timer(tid("tea")))
        #expect(events.count == 1)
        #expect(running.state == .running)
        #expect(running.remainingUSec == 45 * second)
        #expect(running.endsAtUSec == now.realtime + 45 * second)
        #expect(running.deadlineBoottime == now.boottime + 45 * second)
        #expect(running.startedAtUSec == started.startedAtUSec)
        #expect(running.durationUSec == 60 * second)
        clock.advance(45 * second - 1)
        #expect(book.due(now: clock.now()).isEmpty)
        clock.advance(1)
        #expect(book.due(now: clock.now()).count == 2)
    }

    @Test func pauseAndResumeRefuseExpiredTimers() throws {
        // Quiet (`ring_for` 0): a ringing one is silenced instead (RingingTests).
        var book = try bookWithTea(clock, limits: TimerLimits(ringForUSec: 0))
        clock.advance(60 * second)
        book.commit(book.due(now: clock.now()))
        #expect(
            thrown { _ = try book.pause(tid("tea"), now: clock.now()) }
                == .invalidState("timer \"tea\" has expired and cannot be paused; restart it or add time"))
        #expect(
            thrown { _ = try book.resume(tid("tea"), now: clock.now()) }
                == .invalidState("timer \"tea\" has expired and cannot be resumed; restart it or add time"))
    }

    @Test func pauseRefusesATimerThatRanOutBeforeDueRan() throws {
        let book = try bookWithTea(clock)
        clock.advance(61 * second)
        #expect(
            thrown { _ = try book.pause(tid("tea"), now: clock.now()) }
                == .invalidState("timer \"tea\" has already run out and cannot be paused; restart it or add time"))
    }
}

@Suite struct TimerBookAdjustTests {
    let clock = ManualTimeSource()

    @Test func addingTimeToARunningTimerExtendsTheRun() throws {
        var book = try bookWithTea(clock)
        clock.advance(10 * second)
        let now = clock.now()
        try book.commit(book.adjust(tid("tea"), deltaUSec: 30_000_000, now: now))
        let timer = try #require(book.timer(tid("tea")))
        #expect(timer.state == .running)
        #expect(timer.durationUSec == 90 * second)
        #expect(timer.baseDurationUSec == 60 * second)
        #expect(timer.remainingUSec == 80 * second)
        #expect(timer.endsAtUSec == now.realtime + 80 * second)
        #expect(timer.deadlineBoottime == now.boottime + 80 * second)
        #expect(timer.updatedAtUSec == now.realtime)
    }

    @Test func removingTimeToZeroExpiresAtOnce() throws {
        var book = try bookWithTea(clock)
        let before = try #require(book.timer(tid("tea")))
        clock.advance(20 * second)
        let now = clock.now()
        let events = try book.commit(book.adjust(tid("tea"), deltaUSec: -40_000_000, now: now))
        let expired = try #require(book.timer(tid("tea")))
        #expect(
            events == [
                .changed(from: before, to: expired),
                .expired(id: tid("tea"), deadlineUSec: now.realtime, firedUSec: now.realtime),
            ])
        #expect(expired.state == .expired)
        #expect(expired.expiredAtUSec == now.realtime)
        #expect(expired.remainingUSec == 0 && expired.endsAtUSec == 0 && expired.deadlineBoottime == 0)
        #expect(expired.durationUSec == 20 * second)
    }

    @Test func removingMoreThanIsLeftAlsoExpiresAndClampsTheDuration() throws {
        var book = try bookWithTea(clock)
        clock.advance(20 * second)
        let events = try book.commit(book.adjust(tid("tea"), deltaUSec: -2 * 3_600_000_000, now: clock.now()))
        #expect(events.count == 2)
        let expired = try #require(book.timer(tid("tea")))
        #expect(expired.state == .expired)
        #expect(expired.durationUSec == 0)
    }

    @Test func adjustingAPausedTimerChangesTheFrozenRemainder() throws {
        var book = try bookWithTea(clock)
        clock.advance(20 * second)
        try book.commit(book.pause(tid("tea"), now: clock.now()))
        clock.advance(minute)
        try book.commit(book.adjust(tid("tea"), deltaUSec: -30_000_000, now: clock.now()))
        var timer = try #require(book.timer(tid("tea")))
        #expect(timer.state == .paused)
        #expect(timer.remainingUSec == 10 * second)
        #expect(timer.durationUSec == 30 * second)
        #expect(timer.endsAtUSec == 0 && timer.deadlineBoottime == 0)

        let events = try book.commit(book.adjust(tid("tea"), deltaUSec: -10_000_000, now: clock.now()))
        timer = try #require(book.timer(tid("tea")))
        #expect(timer.state == .expired)
        #expect(
            events.last == .expired(id: tid("tea"), deadlineUSec: clock.now().realtime, firedUSec: clock.now().realtime)
        )
    }

    @Test func addingTimeToAnExpiredTimerStartsANewRun() throws {
        var book = try bookWithTea(clock)
        clock.advance(2 * minute)
        book.commit(book.due(now: clock.now()))
        let now = clock.now()
        try book.commit(book.adjust(tid("tea"), deltaUSec: 30_000_000, now: now))
        let timer = try #require(book.timer(tid("tea")))
        #expect(timer.state == .running)
        #expect(timer.durationUSec == 30 * second)
        #expect(timer.baseDurationUSec == 60 * second)
        #expect(timer.startedAtUSec == now.realtime)
        #expect(timer.endsAtUSec == now.realtime + 30 * second)
        #expect(timer.deadlineBoottime == now.boottime + 30 * second)
        #expect(timer.remainingUSec == 30 * second && timer.expiredAtUSec == 0)
        #expect(timer.label == "Tea")
    }

    @Test func shorteningAnExpiredTimerIsRefused() throws {
        // Quiet (`ring_for` 0): a ringing one is silenced instead (RingingTests).
        var book = try bookWithTea(clock, limits: TimerLimits(ringForUSec: 0))
        clock.advance(minute)
        book.commit(book.due(now: clock.now()))
        #expect(
            thrown { _ = try book.adjust(tid("tea"), deltaUSec: -1_000_000, now: clock.now()) }
                == .invalidState("timer \"tea\" has expired, so there is no time to take off; add time or restart it"))
    }

    @Test func adjustRejectsBadAmounts() throws {
        let book = try bookWithTea(clock)
        let now = clock.now()
        #expect(
            thrown { _ = try book.adjust(tid("tea"), deltaUSec: 0, now: now) }
                == .invalidArgs(
                    "adjustment +0 s is out of range: give a non-zero amount of at most 24 h either way"))
        #expect(thrown { _ = try book.adjust(tid("tea"), deltaUSec: -86_400_000_001, now: now) }?.kind == "invalidArgs")
        #expect(thrown { _ = try book.adjust(tid("tea"), deltaUSec: .min, now: now) }?.kind == "invalidArgs")
        // +24 h is a valid amount, but 24 h 1 min left would exceed the maximum.
        #expect(
            thrown { _ = try book.adjust(tid("tea"), deltaUSec: 86_400_000_000, now: now) }
                == .invalidArgs(
                    "timer \"tea\" would have 24 h 1 min left, and a timer may have at most 24 h; add at most 23 h 59 min"
                ))
    }
}

@Suite struct TimerBookRestartCancelTests {
    let clock = ManualTimeSource()

    @Test(arguments: [TimerState.running, .paused, .expired])
    func restartRunsTheBaseDurationAgain(from state: TimerState) throws {
        var book = try bookWithTea(clock, durationUSec: 5 * minute)
        clock.advance(minute)
        try book.commit(book.adjust(tid("tea"), deltaUSec: 60_000_000, now: clock.now()))
        switch state {
        case .running: break
        case .paused: try book.commit(book.pause(tid("tea"), now: clock.now()))
        case .expired:
            clock.advance(10 * minute)
            book.commit(book.due(now: clock.now()))
        }
        #expect(book.timer(tid("tea"))?.state == state)
        clock.advance(second)
        let now = clock.now()
        let events = try book.commit(book.restart(tid("tea"), now: now))
        let timer = try #require(book.timer(tid("tea")))
        #expect(events.count == 1)
        #expect(timer.state == .running)
        #expect(timer.durationUSec == 5 * minute && timer.baseDurationUSec == 5 * minute)
        #expect(timer.startedAtUSec == now.realtime && timer.endsAtUSec == now.realtime + 5 * minute)
        #expect(timer.deadlineBoottime == now.boottime + 5 * minute && timer.remainingUSec == 5 * minute)
        #expect(timer.expiredAtUSec == 0)
        #expect(timer.label == "Tea" && timer.notify)
    }

    @Test func restartAtTheSameInstantChangesNothing() throws {
        let book = try bookWithTea(clock)
        #expect(try book.restart(tid("tea"), now: clock.now()).isEmpty)
    }

    @Test func cancelRemovesTheTimer() throws {
        var book = try bookWithTea(clock)
        let timer = try #require(book.timer(tid("tea")))
        #expect(try book.commit(book.cancel(tid("tea"), now: clock.now())) == [.removed(timer)])
        #expect(book.timers.isEmpty)
    }

    @Test func everyOperationReportsAMissingTimer() throws {
        let book = try bookWithTea(clock)
        let now = clock.now()
        let missing = TimerError.noSuchTimer("no timer \"coffee\"")
        #expect(thrown { _ = try book.pause(tid("coffee"), now: now) } == missing)
        #expect(thrown { _ = try book.resume(tid("coffee"), now: now) } == missing)
        #expect(thrown { _ = try book.adjust(tid("coffee"), deltaUSec: 1_000_000, now: now) } == missing)
        #expect(thrown { _ = try book.restart(tid("coffee"), now: now) } == missing)
        #expect(thrown { _ = try book.cancel(tid("coffee"), now: now) } == missing)
    }
}

@Suite struct TimerBookPlanningTests {
    let clock = ManualTimeSource()

    @Test func planningDoesNotMutate() throws {
        let book = try bookWithTea(clock)
        let snapshot = book
        let now = clock.now()
        let later = Instant(realtime: now.realtime + 2 * hour, boottime: now.boottime + hour)
        _ = try book.start(tid("tea"), durationUSec: 10 * second, options: .init(), now: now)
        _ = try book.start(tid("other"), durationUSec: 10 * second, options: .init(), now: now)
        _ = try book.pause(tid("tea"), now: now)
        _ = try book.adjust(tid("tea"), deltaUSec: -60_000_000, now: now)
        _ = try book.restart(tid("tea"), now: later)
        _ = try book.cancel(tid("tea"), now: now)
        #expect(!book.due(now: later).isEmpty)
        #expect(!book.wallClockChanged(now: later).isEmpty)
        #expect(book == snapshot)
    }

    @Test func applyHandlesEachEventKind() throws {
        let source = try bookWithTea(clock)
        let tea = try #require(source.timer(tid("tea")))
        var coffee = tea
        coffee.id = tid("coffee")
        var changed = tea
        changed.label = "Green tea"

        var book = TimerBook()
        book.apply([.added(tea), .added(coffee)])
        #expect(book.sortedTimers == [coffee, tea])
        book.apply([.changed(from: tea, to: changed), .expired(id: tid("tea"), deadlineUSec: 1, firedUSec: 2)])
        #expect(book.timer(tid("tea")) == changed)
        book.apply([.removed(coffee)])
        #expect(book.sortedTimers == [changed])
        #expect(TimerEvent.removed(coffee).timerID == tid("coffee"))
    }

    @Test("a lengthening past 24 h says how much could still be added, in minutes and seconds")
    func adjustPastTheMaximumSaysWhatWouldWork() throws {
        var book = TimerBook()
        book.commit(try book.start(tid("nap"), durationUSec: 23 * hour, options: .init(), now: clock.now()))
        clock.advance(10_206)  // a few milliseconds gone, as between two commands
        #expect(
            thrown { _ = try book.adjust(tid("nap"), deltaUSec: Int64(2 * hour), now: clock.now()) }
                == .invalidArgs(
                    "timer \"nap\" would have 25 h left, and a timer may have at most 24 h; add at most 1 h"))
        book.commit(try book.adjust(tid("nap"), deltaUSec: Int64(hour) - 10_206, now: clock.now()))
        #expect(
            thrown { _ = try book.adjust(tid("nap"), deltaUSec: 1_000_000, now: clock.now()) }
                == .invalidArgs(
                    "timer \"nap\" would have 24 h left, and a timer may have at most 24 h; it already has that much"))
    }
}

/// Skip: a rest ended on purpose.
@Suite struct TimerBookSkipTests {
    let clock = ManualTimeSource()

    @Test(arguments: [false, true])
    func endsARunningOrPausedRestNowWithoutAnExpiredEvent(_ paused: Bool) throws {
        var book = try bookWithTea(clock)
        clock.advance(20 * second)
        if paused { try book.commit(book.plan(.pause(tid("tea")), now: clock.now())) }
        clock.advance(5 * second)
        let before = try #require(book.timer(tid("tea")))
        let events = try book.plan(.skip(tid("tea")), now: clock.now())
        guard case .changed(let old, let new)? = events.first, events.count == 1 else {
            Issue.record("expected one change, got \(events)")
            return
        }
        #expect(old == before)
        #expect(new.state == .expired && new.expiredAtUSec == clock.now().realtime)
        #expect(new.remainingUSec == 0 && new.endsAtUSec == 0 && new.deadlineBoottime == 0)
        book.commit(events)
        #expect(try book.plan(.skip(tid("tea")), now: clock.now()).isEmpty, "skipping what is over changes nothing")
        #expect(throws: TimerError.self) { try book.plan(.skip(tid("none")), now: clock.now()) }
    }
}
