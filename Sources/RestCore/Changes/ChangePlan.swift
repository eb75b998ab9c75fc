import Localization

/// A message planned in full (`Books.plan`): the timer events, what the history gains with them,
/// what the books only keep in memory, and how the daemon writes it. Nothing changes until the
/// daemon applies it (`Books.apply`), after or before writing it as `write` says.
public struct ChangePlan: Sendable, Equatable {
    public var events: [TimerEvent]
    public var history: [HistoryChange]
    /// For CompleteSet: the set recorded and the rest chosen for it.
    public var set: PlannedSet?
    /// For an import: what it adds (or, dry, would add).
    public var imported: ImportOutcome?
    /// For a fix of the history: what it did.
    public var fixed: FixedSets?
    /// A line for restd's log.
    public enum Logged: Sendable, Equatable {
        case info(String)
        case debug(String)
    }

    /// What the books keep in memory only, applied first: written with the rest it belongs to.
    public var notes: [BookNote] = []
    public var write: Write = .first
    /// History older than this goes in the same transaction (`[history] keep_days`).
    public var pruneBeforeUSec: USec?
    /// What restd logs of it, when anything.
    public var logged: Logged?
    /// What a failed write of it is called in the log, in restd's language.
    // TRANSLATORS: what restd could not store, in its error "could not store %1$s: …".
    public var what = localized("a change")

    /// When a plan is written, against when it is applied and announced.
    public enum Write: Sendable, Equatable {
        /// A caller's change: written first, in one transaction, and refused (nothing changes)
        /// when it cannot be; so no reply or signal announces what a crash would lose.
        case first
        /// restd's own change that no start could compute again (a rest ended on recovery, a
        /// strap lost or back, the wall clock's step, an abandoned workout, a heart-rate trace,
        /// any change to the history): written right after it is announced, never refused.
        case afterAnnouncing
        /// restd's own change that the next start would compute again from the stored deadlines
        /// (an expiry, a clean-up): written a little later with what follows, so that a burst of
        /// expiries is a few transactions and the disk's sync does not delay Expired.
        case batched
    }

    public init(events: [TimerEvent] = [], history: [HistoryChange] = [], set: PlannedSet? = nil) {
        self.events = events
        self.history = history
        self.set = set
    }

    /// Whether it changes nothing that is stored or announced (a note may still be kept).
    public var isEmpty: Bool { events.isEmpty && history.isEmpty }

    /// This plan for a moment when no heart rate is coming in (no valid sample in the last 5 s):
    /// every run it starts now that may end on recovery is marked `.sensorLost` from its start, so
    /// that the reply, `restctl status` and the bars say at once that it runs its full length
    /// unless heart rate comes (`RecoveryTracker`, which starts such a rest in the same state).
    func withoutHeartRate(now: Instant) -> ChangePlan {
        var plan = self
        plan.events = events.map { event in
            switch event {
            case .added(let timer): .added(Self.markedLost(timer, now: now))
            case .changed(let from, let to): .changed(from: from, to: Self.markedLost(to, now: now))
            case .removed, .expired, .warning: event
            }
        }
        return plan
    }

    private static func markedLost(_ timer: RestTimer, now: Instant) -> RestTimer {
        guard timer.state == .running, timer.recovery != nil, timer.endReason == nil,
            timer.runStartBoottime == now.boottime
        else { return timer }
        var lost = timer
        lost.endReason = .sensorLost
        return lost
    }
}

/// A line for restd's log.
public enum Logged: Sendable, Equatable {
    case info(String)
    case debug(String)
}

/// What the books keep in memory only: stored with the rest it belongs to when that is next
/// written, or in force from now (a reload).
public enum BookNote: Sendable, Equatable {
    case rrIntervals([Int])
    case recovery(RecoveryMetrics, timer: TimerID)
    case limits(TimerLimits)
    case trainingSettings(TrainingSettings)
    case wallClock(WallClockSteps)
}
