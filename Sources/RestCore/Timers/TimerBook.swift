import Localization

/// The set of timers and every rule about them.
///
/// Operations do not mutate: they plan, returning the events that would happen, and `apply`
/// carries them out. The daemon writes the events to disk first and applies them only when
/// the write succeeded, so memory never holds a state that the disk does not.
public struct TimerBook: Sendable, Equatable {
    /// The timers by id.
    public private(set) var timers = TimerTable()
    /// The same timers by when each next needs restd; changed only with `timers` (`store`, `delete`).
    private var queue = WakeupQueue()
    /// The bounds enforced by the operations; a reloaded configuration may change them.
    /// Nothing is planned by the change itself: lower limits apply to what comes next (a lower
    /// `maxTimers` keeps existing timers), and a shorter retention shows up in `due`.
    public var limits: TimerLimits

    /// Creates an empty book.
    public init(limits: TimerLimits = .standard) {
        self.limits = limits
    }

    /// The timer called `id`, if any.
    public func timer(_ id: TimerID) -> RestTimer? {
        timers[id]
    }

    /// How many timers run and how many are paused (the rest have expired).
    public var counts: (running: Int, paused: Int) { (queue.running.count, queue.paused.count) }

    /// The running timers in order of their pre-alert or deadline (CLOCK_BOOTTIME), each never
    /// later than its deadline.
    var runningQueue: ArraySlice<(key: USec, id: TimerID)> { queue.running.ids(upTo: .max) }

    /// The timers whose alarm rings, in id order.
    public var ringingTimers: [RestTimer] {
        queue.ringing.ids(upTo: .max).compactMap { timers[$0.id] }.sorted { $0.id < $1.id }
    }

    /// All timers in id order.
    public var sortedTimers: [RestTimer] {
        timers.values.sorted { $0.id < $1.id }
    }

    /// Carries out planned events: added and changed timers are stored, removed ones deleted.
    public mutating func apply(_ events: [TimerEvent]) {
        for event in events {
            switch event {
            case .added(let timer), .changed(from: _, to: let timer):
                store(timer)
            case .removed(let timer):
                delete(timer.id)
            case .expired, .warning:
                break
            }
        }
    }

    // MARK: - Operations

    /// Plans `command`: the events that carrying it out at `now` would cause, or the refusal.
    /// Nothing changes until the caller applies the events (after storing them).
    public func plan(_ command: TimerCommand, now: Instant) throws(TimerError) -> [TimerEvent] {
        switch command {
        case .start(let id, let duration, let options):
            try start(id, durationUSec: duration, options: options, now: now)
        case .pause(let id): try pause(id, now: now)
        case .resume(let id): try resume(id, now: now)
        case .adjust(let id, let delta): try adjust(id, deltaUSec: delta, now: now)
        case .restart(let id): try restart(id, now: now)
        case .cancel(let id): try cancel(id, now: now)
        case .skip(let id): try skip(id, now: now)
        case .silence(let id): try silence(id, now: now)
        }
    }

    /// Plans starting `id` for `durationUSec`, replacing any timer of that name.
    public func start(
        _ id: TimerID, durationUSec: USec, options: TimerOptions, now: Instant
    ) throws(TimerError) -> [TimerEvent] {
        guard durationUSec >= limits.minDurationUSec, durationUSec <= limits.maxDurationUSec else {
            let (duration, shortest, longest) = (
                DurationText.describe(durationUSec), DurationText.describe(limits.minDurationUSec),
                DurationText.describe(limits.maxDurationUSec)
            )
            throw .invalidArgs(
                durationUSec < limits.minDurationUSec
                    ? localized("duration %1$s is too short: give a rest of %2$s to %3$s", duration, shortest, longest)
                    : localized("duration %1$s is too long: give a rest of %2$s to %3$s", duration, shortest, longest))
        }
        try options.validate(durationUSec: durationUSec, limits: limits)
        let old = timers[id]
        if old == nil, timers.count >= limits.maxTimers {
            throw .limitExceeded(
                localized(
                    "cannot add timer %1$s: at most %2$d timers may exist at once (expired ones count too); cancel one, reuse an id, or raise %3$s in config.toml",
                    MessageText.quoted(id.rawValue), limits.maxTimers, "max_timers"))
        }
        var fresh = RestTimer(
            id: id, label: options.label, next: options.next, notify: options.notify, sound: options.sound,
            baseDurationUSec: durationUSec, state: .running, durationUSec: 0, startedAtUSec: 0,
            endsAtUSec: 0, remainingUSec: 0, expiredAtUSec: 0, updatedAtUSec: 0, deadlineBoottime: 0,
            warnUSec: options.warnUSec, restSource: options.restSource, recovery: options.recovery)
        fresh = Self.freshRun(of: fresh, durationUSec: durationUSec, keepsRecovery: true, now: now)
        guard let old else { return [.added(fresh)] }
        return Self.change(from: old, to: fresh)
    }

    /// Plans freezing a running timer; pausing a paused timer changes nothing.
    public func pause(_ id: TimerID, now: Instant) throws(TimerError) -> [TimerEvent] {
        let timer = try existing(id)
        switch timer.state {
        case .paused:
            return []
        case .expired where timer.ringing:
            return Self.silenced(timer, now: now)
        case .expired:
            throw .invalidState(
                localized("timer %1$s has expired and cannot be paused; restart it or add time", Self.quoted(id)))
        case .running:
            let left = timer.deadlineBoottime.subtractingSaturated(now.boottime)
            // The deadline passed but due() has not run yet: the next pass expires it.
            // Pausing at zero would leave a paused timer with nothing left.
            guard left > 0 else {
                throw .invalidState(
                    localized(
                        "timer %1$s has already run out and cannot be paused; restart it or add time", Self.quoted(id)))
            }
            var paused = timer
            paused.state = .paused
            // A pause breaks the heart-rate series: the rest goes on as a plain timed rest.
            paused.recovery = nil
            paused.endReason = nil
            paused.remainingUSec = left
            paused.endsAtUSec = 0
            paused.deadlineBoottime = 0
            paused.updatedAtUSec = now.realtime
            return Self.change(from: timer, to: paused)
        }
    }

    /// Plans continuing a paused timer; resuming a running timer changes nothing.
    public func resume(_ id: TimerID, now: Instant) throws(TimerError) -> [TimerEvent] {
        let timer = try existing(id)
        switch timer.state {
        case .running:
            return []
        case .expired where timer.ringing:
            return Self.silenced(timer, now: now)
        case .expired:
            throw .invalidState(
                localized("timer %1$s has expired and cannot be resumed; restart it or add time", Self.quoted(id)))
        case .paused:
            var running = timer
            running.state = .running
            running.endsAtUSec = now.realtime.addingSaturated(timer.remainingUSec)
            running.deadlineBoottime = now.boottime.addingSaturated(timer.remainingUSec)
            running.updatedAtUSec = now.realtime
            return Self.change(from: timer, to: running)
        }
    }

    /// Plans adding (positive) or removing (negative) time.
    ///
    /// A timer brought to zero or below expires at once; time added to an expired timer
    /// starts a new run of that length.
    public func adjust(_ id: TimerID, deltaUSec: Int64, now: Instant) throws(TimerError) -> [TimerEvent] {
        guard deltaUSec != 0, deltaUSec.magnitude <= limits.maxDurationUSec else {
            throw .invalidArgs(
                localized(
                    "adjustment %1$s is out of range: give a non-zero amount of at most %2$s either way",
                    DurationText.describe(signed: deltaUSec), DurationText.describe(limits.maxDurationUSec)))
        }
        let timer = try existing(id)
        switch timer.state {
        case .running:
            let left = timer.deadlineBoottime.subtractingSaturated(now.boottime)
            return try adjusted(timer, left: left, deltaUSec: deltaUSec, now: now)
        case .paused:
            return try adjusted(timer, left: timer.remainingUSec, deltaUSec: deltaUSec, now: now)
        case .expired where deltaUSec < 0 && timer.ringing:
            return Self.silenced(timer, now: now)
        case .expired:
            guard deltaUSec > 0 else {
                throw .invalidState(
                    localized(
                        "timer %1$s has expired, so there is no time to take off; add time or restart it",
                        Self.quoted(id)))
            }
            // Time added after the rest is over is a plain timed rest: a recovered heart rate
            // would end it again within seconds.
            return Self.change(
                from: timer,
                to: Self.freshRun(of: timer, durationUSec: deltaUSec.magnitude, keepsRecovery: false, now: now))
        }
    }

    /// Plans a fresh run of the duration last given to Start, from any state.
    public func restart(_ id: TimerID, now: Instant) throws(TimerError) -> [TimerEvent] {
        let timer = try existing(id)
        return Self.change(
            from: timer,
            to: Self.freshRun(of: timer, durationUSec: timer.baseDurationUSec, keepsRecovery: true, now: now))
    }

    /// Plans removing a timer.
    public func cancel(_ id: TimerID, now: Instant) throws(TimerError) -> [TimerEvent] {
        [.removed(try existing(id))]
    }

    /// Plans ending a running or paused rest now, on purpose: the timer is over from this moment
    /// (`expiredAtUSec` = now), without an `.expired` event — nobody needs telling that a rest
    /// they skipped is over, so there is no Expired signal and no "Rest over" notification.
    /// Skipping a rest that is already over changes nothing.
    public func skip(_ id: TimerID, now: Instant) throws(TimerError) -> [TimerEvent] {
        let timer = try existing(id)
        guard timer.state != .expired else { return Self.silenced(timer, now: now) }
        var skipped = timer
        skipped.state = .expired
        skipped.endReason = .user
        skipped.recoveredBPM = nil
        skipped.expiredAtUSec = now.realtime
        skipped.remainingUSec = 0
        skipped.endsAtUSec = 0
        skipped.deadlineBoottime = 0
        skipped.updatedAtUSec = now.realtime
        return Self.change(from: timer, to: skipped)
    }

    /// Plans stopping the alarm of a rest that is over. A timer that does not ring changes
    /// nothing: silencing is what any command on a ringing timer also does.
    public func silence(_ id: TimerID, now: Instant) throws(TimerError) -> [TimerEvent] {
        Self.silenced(try existing(id), now: now)
    }

    /// The change that stops `timer`'s alarm (a touch, so retention counts from now), or none
    /// when it does not ring.
    private static func silenced(_ timer: RestTimer, now: Instant) -> [TimerEvent] {
        guard timer.ringing else { return [] }
        var quiet = timer
        quiet.ringsUntilUSec = 0
        quiet.updatedAtUSec = now.realtime
        return [.changed(from: timer, to: quiet)]
    }

    // MARK: - Recovery

    /// Plans ending a running rest that may end on recovery because the heart rate recovered
    /// (`RecoveryTracker` said so): it expires as at its deadline ("Rest over"), with
    /// `.recovered` and the heart rate then, stamped at `atBoottimeUSec` — the instant the hold
    /// completed, which restd may only see later (after a suspend, say). Anything else changes
    /// nothing: the rest was paused, ended or replaced in the meantime.
    public func endRecovered(_ id: TimerID, heartRateBPM: Int?, atBoottimeUSec: USec, now: Instant) -> [TimerEvent] {
        guard let timer = timers[id], timer.state == .running, timer.recovery != nil else { return [] }
        var ending = timer
        ending.endReason = .recovered
        ending.recoveredBPM = heartRateBPM
        let recoveredAt = now.realtime.subtractingSaturated(now.boottime.subtractingSaturated(atBoottimeUSec))
        return Self.expiry(
            of: ending, from: timer, deadlineUSec: recoveredAt, ringForUSec: limits.ringForUSec, now: now)
    }

    /// Plans unmarking a running rest whose strap had been lost and is back: recovery may end
    /// it again, and its EndReason says so (nil again). Changes nothing for any other timer.
    public func recoveryRegained(_ id: TimerID) -> [TimerEvent] {
        guard let timer = timers[id], timer.state == .running, timer.recovery != nil, timer.endReason == .sensorLost
        else { return [] }
        var regained = timer
        regained.endReason = nil
        return Self.change(from: timer, to: regained)
    }

    /// Plans marking a running rest whose strap was lost: recovery can no longer end it, it runs
    /// to its planned maximum and ends as `.sensorLost`. Changes nothing for any other timer.
    public func recoveryLost(_ id: TimerID) -> [TimerEvent] {
        guard let timer = timers[id], let lost = Self.markedLost(timer) else { return [] }
        return Self.change(from: timer, to: lost)
    }

    /// `timer` marked as having lost its strap, or nil when that changes nothing (it is not a
    /// running rest that may end on recovery, or already has a reason).
    private static func markedLost(_ timer: RestTimer) -> RestTimer? {
        guard timer.state == .running, timer.recovery != nil, timer.endReason == nil else { return nil }
        var lost = timer
        lost.endReason = .sensorLost
        return lost
    }

    // MARK: - Time passing

    /// Plans what is due at `now`: running timers past their deadline expire, running timers
    /// whose time left dropped to their pre-alert time get their one warning of the run, ringing
    /// timers whose `ring_for` ran out fall quiet, expired timers past retention and paused
    /// timers left untouched too long are removed.
    ///
    /// `recoveryLost` names the rests whose strap was lost by `now` (the recovery service's
    /// word), planned here with the rest in one change: one that expires now ends as
    /// `.sensorLost` in its expiry, and, when `marksRunning`, one that runs on is marked
    /// (`recoveryLost(_:)`). A caller's command leaves those to its rest's end or the next
    /// housekeeping (`marksRunning` false): it writes nothing before its own plan.
    public func due(now: Instant, recoveryLost lost: Set<TimerID> = [], marksRunning: Bool = true) -> [TimerEvent] {
        let dueIDs =
            queue.running.ids(upTo: now.boottime).map(\.id)
            + queue.ringing.ids(upTo: now.realtime).map(\.id)
            + queue.expired.ids(upTo: now.realtime.subtractingSaturated(limits.expiredRetentionUSec)).map(\.id)
            + queue.paused.ids(upTo: now.realtime.subtractingSaturated(limits.untouchedDropUSec)).map(\.id)
        var events: [TimerEvent] = []
        var planned = Set<TimerID>()
        for timer in dueIDs.sorted().compactMap({ timers[$0] }) where isDue(timer, now: now) {
            planned.insert(timer.id)
            let marked = lost.contains(timer.id) ? Self.markedLost(timer) ?? timer : timer
            switch timer.state {
            case .running where timer.deadlineBoottime <= now.boottime:
                // A deadline passed together with the pre-alert time (a suspend): only the expiry.
                events += Self.expiry(
                    of: marked, from: timer, deadlineUSec: timer.endsAtUSec, ringForUSec: limits.ringForUSec, now: now)
            case .running where marksRunning:
                events += Self.warning(of: marked, from: timer, now: now)
            case .running:
                events += Self.warning(of: timer, from: timer, now: now)
            case .expired where timer.ringing:
                // Rung out: quiet, and gone at once when retention ran out while it rang.
                var quiet = timer
                quiet.ringsUntilUSec = 0
                events.append(.changed(from: timer, to: quiet))
                if isDue(quiet, now: now) { events.append(.removed(quiet)) }
            case .paused, .expired:
                events.append(.removed(timer))
            }
        }
        guard marksRunning else { return events }
        for id in lost.sorted() where !planned.contains(id) {
            events += recoveryLost(id)
        }
        return events
    }

    /// The earliest CLOCK_BOOTTIME instant at which `due` would plan something, or nil
    /// when nothing is pending, so that an idle daemon never wakes up.
    public func nextWakeup(now: Instant) -> USec? {
        let wakeups = [
            queue.running.first,
            queue.ringing.first.map { Self.boottime(forRealtime: $0, now: now) },
            queue.expired.first.map {
                Self.boottime(forRealtime: $0.addingSaturated(limits.expiredRetentionUSec), now: now)
            },
            queue.paused.first.map {
                Self.boottime(forRealtime: $0.addingSaturated(limits.untouchedDropUSec), now: now)
            },
        ]
        return wakeups.compactMap { $0 }.min()
    }

    /// Plans re-publishing wall-clock deadlines after CLOCK_REALTIME jumped.
    ///
    /// Running timers keep their boottime deadline, so the time left is unchanged; only the
    /// wall-clock `endsAtUSec` and `startedAtUSec` move, and only changed timers are reported.
    public func wallClockChanged(now: Instant) -> [TimerEvent] {
        var events: [TimerEvent] = []
        for timer in sortedTimers where timer.state == .running {
            let left = timer.deadlineBoottime.subtractingSaturated(now.boottime)
            let endsAt = now.realtime.addingSaturated(left)
            guard endsAt != timer.endsAtUSec else { continue }
            var moved = timer
            moved.startedAtUSec =
                endsAt > timer.endsAtUSec
                ? timer.startedAtUSec.addingSaturated(endsAt - timer.endsAtUSec)
                : timer.startedAtUSec.subtractingSaturated(timer.endsAtUSec - endsAt)
            moved.endsAtUSec = endsAt
            moved.remainingUSec = left
            events.append(.changed(from: timer, to: moved))
        }
        return events
    }

    /// Rebuilds the book at daemon start-up from stored timers.
    ///
    /// The stored wall-clock deadline is authoritative. The rules are those of a running daemon
    /// (`due`): running timers whose deadline passed expire with an `.expired` event, however
    /// long ago that was (the person is told the rest ended, "ended 3 h ago"), and are then kept
    /// for the retention counted from now; expired timers past retention and paused timers
    /// untouched for too long are removed silently. The returned book has the events applied;
    /// the daemon persists and announces them.
    public static func restoring(
        _ stored: consuming [RestTimer], limits: TimerLimits = .standard, now: Instant
    ) -> (book: TimerBook, events: [TimerEvent]) {
        var book = TimerBook(limits: limits)
        // Thousands of timers at once: stored in one go, the queue sorted once.
        for index in stored.indices {
            // Boottime restarts at every boot: rebuild the deadline from the wall clock.
            stored[index].deadlineBoottime =
                stored[index].state == .running ? boottime(forRealtime: stored[index].endsAtUSec, now: now) : 0
        }
        book.timers = TimerTable(consume stored)
        book.queue = WakeupQueue(book.timers.values)
        var events: [TimerEvent] = []
        let ending = book.timers.values.filter { timer in
            switch timer.state {
            case .running: timer.endsAtUSec <= now.realtime
            case .expired, .paused: book.isDue(timer, now: now)
            }
        }
        for timer in ending.sorted(by: { $0.id < $1.id }) {
            switch timer.state {
            case .running:
                events += expiry(
                    of: timer, from: timer, deadlineUSec: timer.endsAtUSec, ringForUSec: limits.ringForUSec, now: now)
            case .expired where timer.ringing:
                // Rung out while restd was down: quiet, and gone when retention ran out too.
                var quiet = timer
                quiet.ringsUntilUSec = 0
                events.append(.changed(from: timer, to: quiet))
                if book.isDue(quiet, now: now) { events.append(.removed(quiet)) }
            case .expired, .paused:
                events.append(.removed(timer))
            }
        }
        book.apply(events)
        return (book, events)
    }

    // MARK: - Helpers

    /// Keeps `timer` (replacing the one of its id), in the queue too.
    private mutating func store(_ timer: RestTimer) {
        if let old = timers.update(timer) { queue.remove(old) }
        queue.insert(timer)
    }

    private mutating func delete(_ id: TimerID) {
        if let old = timers.remove(id) { queue.remove(old) }
    }

    private func existing(_ id: TimerID) throws(TimerError) -> RestTimer {
        guard let timer = timers[id] else {
            throw .noSuchTimer(localized("no timer %1$s", Self.quoted(id)))
        }
        return timer
    }

    private func adjusted(
        _ timer: RestTimer, left: USec, deltaUSec: Int64, now: Instant
    ) throws(TimerError) -> [TimerEvent] {
        var updated = timer
        updated.durationUSec = timer.durationUSec.addingSaturated(signed: deltaUSec)
        updated.updatedAtUSec = now.realtime
        let newLeft = left.addingSaturated(signed: deltaUSec)
        if newLeft == 0 {
            updated.endReason = .user
            return Self.expiry(of: updated, from: timer, deadlineUSec: now.realtime, ringForUSec: 0, now: now)
        }
        guard newLeft <= limits.maxDurationUSec else {
            // Only a lengthening gets here; say how much could still be added, if anything.
            let room = limits.maxDurationUSec.subtractingSaturated(left)
            let (id, wouldHave, most) = (
                Self.quoted(timer.id), DurationText.readable(newLeft), DurationText.describe(limits.maxDurationUSec)
            )
            throw .invalidArgs(
                room >= 1_000_000
                    ? localized(
                        "timer %1$s would have %2$s left, and a timer may have at most %3$s; add at most %4$s", id,
                        wouldHave, most, DurationText.readable(room, roundingDown: true))
                    : localized(
                        "timer %1$s would have %2$s left, and a timer may have at most %3$s; it already has that much",
                        id, wouldHave, most))
        }
        updated.remainingUSec = newLeft
        // The planned maximum follows the timer (the tracker's rule follows `durationUSec`).
        updated.recovery = timer.recovery?.replanned(updated.durationUSec)
        updated.warned = Self.isWithinWarning(left: newLeft, warnUSec: timer.warnUSec)
        if timer.state == .running {
            updated.endsAtUSec = now.realtime.addingSaturated(newLeft)
            updated.deadlineBoottime = now.boottime.addingSaturated(newLeft)
        }
        return Self.change(from: timer, to: updated)
    }

    private func isDue(_ timer: RestTimer, now: Instant) -> Bool {
        // Retention counts from when the expiry was handled (`updatedAtUSec`): the deadline for a
        // timer restd saw run out, the start-up for one that ran out while restd was down.
        switch timer.state {
        case .running:
            timer.deadlineBoottime <= now.boottime || (Self.warningBoottime(of: timer) ?? .max) <= now.boottime
        case .expired where timer.ringing:
            timer.ringsUntilUSec <= now.realtime
        case .expired:
            timer.updatedAtUSec.addingSaturated(limits.expiredRetentionUSec) <= now.realtime
        case .paused:
            timer.updatedAtUSec.addingSaturated(limits.untouchedDropUSec) <= now.realtime
        }
    }

    /// Converts a wall-clock moment to CLOCK_BOOTTIME as seen at `now`; past moments map to now.
    private static func boottime(forRealtime realtime: USec, now: Instant) -> USec {
        now.boottime.addingSaturated(realtime.subtractingSaturated(now.realtime))
    }

    /// `timer` running afresh for `durationUSec` from `now`; base duration and options kept, and
    /// its recovery rule when `keepsRecovery` (a restart), else none (time added when over).
    private static func freshRun(
        of timer: RestTimer, durationUSec: USec, keepsRecovery: Bool, now: Instant
    ) -> RestTimer {
        var run = timer
        run.state = .running
        run.durationUSec = durationUSec
        run.startedAtUSec = now.realtime
        run.endsAtUSec = now.realtime.addingSaturated(durationUSec)
        run.deadlineBoottime = now.boottime.addingSaturated(durationUSec)
        run.remainingUSec = durationUSec
        run.expiredAtUSec = 0
        run.updatedAtUSec = now.realtime
        run.recovery = keepsRecovery ? timer.recovery?.replanned(durationUSec) : nil
        run.endReason = nil
        run.recoveredBPM = nil
        run.ringsUntilUSec = 0
        // A run no longer than the pre-alert time (+30 s with a 1 min pre-alert) gets none.
        run.warned = isWithinWarning(left: durationUSec, warnUSec: timer.warnUSec)
        return run
    }

    /// Whether `left` is already within the pre-alert time, so that no pre-alert is due.
    /// A change made on purpose (shortening, a short run) that leaves this little time shows
    /// none: the pre-alert is for time running out, not for the caller's own action.
    private static func isWithinWarning(left: USec, warnUSec: USec) -> Bool {
        warnUSec != 0 && left <= warnUSec
    }

    /// The CLOCK_BOOTTIME instant of a running timer's pending pre-alert, nil when none is due.
    private static func warningBoottime(of timer: RestTimer) -> USec? {
        guard timer.state == .running, timer.warnUSec != 0, !timer.warned else { return nil }
        return timer.deadlineBoottime.subtractingSaturated(timer.warnUSec)
    }

    /// The events for a running timer reaching its pre-alert time: `warned` is set (not a
    /// touch, so `updatedAtUSec` stays) and the warning is announced.
    private static func warning(of updated: RestTimer, from timer: RestTimer, now: Instant) -> [TimerEvent] {
        var warned = updated
        warned.warned = true
        return [
            .changed(from: timer, to: warned),
            .warning(
                id: timer.id, remainingUSec: timer.deadlineBoottime.subtractingSaturated(now.boottime),
                deadlineUSec: timer.endsAtUSec),
        ]
    }

    /// The events for `updated` (a modified `original`) expiring with the given deadline. A rest
    /// with sound rings for `ringForUSec` from its deadline, what is left of it after a restart
    /// of restd; one the person ended themselves (shortened to zero) does not ring.
    private static func expiry(
        of updated: RestTimer, from original: RestTimer, deadlineUSec: USec, ringForUSec: USec, now: Instant
    ) -> [TimerEvent] {
        var expired = updated
        let ringsUntil = deadlineUSec.addingSaturated(ringForUSec)
        let rings = updated.sound && ringForUSec > 0 && updated.endReason != .user && ringsUntil > now.realtime
        expired.ringsUntilUSec = rings ? ringsUntil : 0
        expired.state = .expired
        // A rest that lost its strap says so at its planned end; one shortened to zero by hand
        // comes with `.user` set.
        expired.endReason = updated.endReason ?? .planned
        expired.expiredAtUSec = deadlineUSec
        expired.remainingUSec = 0
        expired.endsAtUSec = 0
        expired.deadlineBoottime = 0
        expired.updatedAtUSec = now.realtime
        return [
            .changed(from: original, to: expired),
            .expired(id: original.id, deadlineUSec: deadlineUSec, firedUSec: now.realtime),
        ]
    }

    // Emit a change only when a value changed: a no-op must not wake up bus clients.
    /// Plans `next` = `new` for the timers `ids` that exist (what comes after a rest changed:
    /// a workout moved on).
    public func settingNext(_ new: String, on ids: [TimerID], now: Instant) -> [TimerEvent] {
        ids.compactMap { timers[$0] }.flatMap { timer in
            var relabelled = timer
            relabelled.next = new
            relabelled.updatedAtUSec = now.realtime
            return Self.change(from: timer, to: relabelled)
        }
    }

    private static func change(from old: RestTimer, to new: RestTimer) -> [TimerEvent] {
        old == new ? [] : [.changed(from: old, to: new)]
    }

    private static func quoted(_ id: TimerID) -> String {
        MessageText.quoted(id.rawValue)
    }
}
