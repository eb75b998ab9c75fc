import RestCore
import SeededRandom
import TestClock
import Testing

/// `due` and `nextWakeup` find timers through the book's wake-up queue instead of looking at
/// every timer; here they are checked against that plain pass over every timer, after each step
/// of seeded random workloads (starts, pauses, resumes, adjustments, cancels, restarts, the
/// clock moving, the wall clock jumping, retention changing).
@Suite struct TimerBookQueueTests {
    /// What `due` plans, found the plain way: every timer, by the rules, in id order.
    private func plainDue(_ book: TimerBook, now: Instant) -> [TimerID] {
        book.timers.values.filter { timer in
            switch timer.state {
            case .running:
                let warning =
                    timer.warnUSec != 0 && !timer.warned
                    ? timer.deadlineBoottime.subtractingSaturated(timer.warnUSec) : .max
                return timer.deadlineBoottime <= now.boottime || warning <= now.boottime
            case .expired where timer.ringing:
                return timer.ringsUntilUSec <= now.realtime
            case .expired:
                return timer.updatedAtUSec.addingSaturated(book.limits.expiredRetentionUSec) <= now.realtime
            case .paused:
                return timer.updatedAtUSec.addingSaturated(book.limits.untouchedDropUSec) <= now.realtime
            }
        }.map(\.id).sorted()
    }

    /// What `nextWakeup` answers, found the plain way.
    private func plainWakeup(_ book: TimerBook, now: Instant) -> USec? {
        let boottime = { (realtime: USec) in now.boottime.addingSaturated(realtime.subtractingSaturated(now.realtime)) }
        return book.timers.values.map { timer -> USec in
            switch timer.state {
            case .running:
                timer.warnUSec != 0 && !timer.warned
                    ? timer.deadlineBoottime.subtractingSaturated(timer.warnUSec) : timer.deadlineBoottime
            case .expired where timer.ringing: boottime(timer.ringsUntilUSec)
            case .expired: boottime(timer.updatedAtUSec.addingSaturated(book.limits.expiredRetentionUSec))
            case .paused: boottime(timer.updatedAtUSec.addingSaturated(book.limits.untouchedDropUSec))
            }
        }.min()
    }

    private func ids(of events: [TimerEvent]) -> [TimerID] {
        var seen: [TimerID] = []
        for event in events {
            let id: TimerID
            switch event {
            case .added(let timer), .changed(_, let timer), .removed(let timer): id = timer.id
            case .expired(let expired, _, _): id = expired
            case .warning(let warned, _, _): id = warned
            }
            if seen.last != id { seen.append(id) }
        }
        return seen
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func dueAndWakeupAgreeWithAPassOverEveryTimer(seed: UInt64) throws {
        var random = SplitMix64(state: seed)
        let clock = ManualTimeSource()
        var book = TimerBook(
            limits: TimerLimits(maxTimers: 40, expiredRetentionUSec: 5 * minute, untouchedDropUSec: 20 * minute))
        let names = (0..<30).map { tid("t\($0)") }
        for step in 0..<1_500 {
            let now = clock.now()
            let id = names.randomElement(using: &random)!
            var events: [TimerEvent] = []
            switch Int.random(in: 0..<12, using: &random) {
            case 0, 1, 2:
                let warn = Bool.random(using: &random) ? USec.random(in: 1...30, using: &random) * second : 0
                events =
                    (try? book.start(
                        id, durationUSec: USec.random(in: 1...600, using: &random) * second,
                        options: TimerOptions(sound: Bool.random(using: &random), warnUSec: warn), now: now)) ?? []
            case 3: events = (try? book.pause(id, now: now)) ?? []
            case 4: events = (try? book.resume(id, now: now)) ?? []
            case 5:
                events =
                    (try? book.adjust(id, deltaUSec: Int64.random(in: -120...120, using: &random) * 1_000_000, now: now))
                    ?? []
            case 6: events = (try? book.cancel(id, now: now)) ?? []
            case 7:
                events =
                    (try? (Bool.random(using: &random) ? book.restart(id, now: now) : book.silence(id, now: now))) ?? []
            case 8: clock.advance(USec.random(in: 0...(3 * minute), using: &random))
            case 9:
                // Either clock's own jump (a suspend moves boottime only; a set clock, realtime only).
                clock.jumpWallClock(by: Int64.random(in: -3_600...3_600, using: &random) * 1_000_000)
                events = book.wallClockChanged(now: clock.now())
            case 10:
                book.limits.expiredRetentionUSec = USec.random(in: 1...10, using: &random) * minute
            default:
                clock.advance(USec.random(in: 0...(30 * second), using: &random))
            }
            book.apply(events)
            let later = clock.now()
            let due = book.due(now: later)
            #expect(ids(of: due) == plainDue(book, now: later), "step \(step)")
            #expect(book.nextWakeup(now: later) == plainWakeup(book, now: later), "step \(step)")
            let counts = book.counts
            #expect(counts.running == book.timers.values.filter { $0.state == .running }.count)
            #expect(counts.paused == book.timers.values.filter { $0.state == .paused }.count)
            book.apply(due)
            if step % 25 == 0 {
                // A book restored at start-up builds its queue in one sort: the same answers.
                // Its own generator, so that the seeded workload stays what it was.
                var shuffler = SplitMix64(state: seed &+ UInt64(step))
                let stored = book.timers.values.shuffled(using: &shuffler)
                let restored = TimerBook.restoring(stored, limits: book.limits, now: later).book
                #expect(ids(of: restored.due(now: later)) == plainDue(restored, now: later), "restored at \(step)")
                #expect(restored.nextWakeup(now: later) == plainWakeup(restored, now: later), "restored at \(step)")
                #expect(restored.counts.running == restored.timers.values.filter { $0.state == .running }.count)
                #expect(restored.counts.paused == restored.timers.values.filter { $0.state == .paused }.count)
            }
        }
    }
}
