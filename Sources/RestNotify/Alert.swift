import RestCore

/// What restd wants on screen: a timer's pre-alert, the news that its rest is over, or the end of
/// a workout.
public struct Alert: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// "10 s left": the rest ends at `deadlineUSec` (CLOCK_REALTIME µs).
        case warning(deadlineUSec: USec)
        /// "Rest over": the rest ended at `deadlineUSec` (CLOCK_REALTIME µs).
        case expired(deadlineUSec: USec)
        /// "Workout done": the workout `summary` sums up ended.
        case workoutDone(WorkoutSummary)
    }

    /// What an alert is about. Each subject has at most one notification on screen, which its
    /// next alert replaces.
    public enum Subject: Hashable, Comparable, Sendable, CustomStringConvertible {
        case timer(TimerID)
        /// The workout: its "Workout done".
        case workout

        public var description: String {
            switch self {
            case .timer(let id): "timer \(id)"
            case .workout: "the workout"
            }
        }
    }

    public var kind: Kind
    public var subject: Subject
    /// The timer's label, or the workout's name.
    public var label: String
    public var next: String
    /// The live activity's sets done of sets planned when the alert came ("3/15 sets").
    public var progress: LiveProgress?
    /// How a rest that may end on recovery ended, for "Rest over"; nil for a plain timed rest.
    public var recovery: RecoveryEnding?
    /// For "Rest over": the record the set before the rest beat (`PersonalRecord.line`), a line
    /// of its own under the body.
    public var record: String?

    /// How a rest that may end on recovery ended: "Recovered in 1:12 — ♥118", or that the strap
    /// was lost and it ran in full.
    public struct RecoveryEnding: Equatable, Sendable {
        public var reason: EndReason
        /// From the rest's start to its end.
        public var afterUSec: USec
        /// The heart rate when it recovered.
        public var heartRateBPM: Int?

        public init(reason: EndReason, afterUSec: USec, heartRateBPM: Int? = nil) {
            self.reason = reason
            self.afterUSec = afterUSec
            self.heartRateBPM = heartRateBPM
        }

        /// What an expired timer says of it: only a rest that ended as recovered or lost its
        /// strap has something to say.
        public init?(of timer: RestTimer) {
            guard timer.state == .expired, let reason = timer.endReason, reason == .recovered || reason == .sensorLost
            else { return nil }
            self.init(
                reason: reason, afterUSec: timer.expiredAtUSec.subtractingSaturated(timer.startedAtUSec),
                heartRateBPM: timer.recoveredBPM)
        }
    }

    public init(_ kind: Kind, timer: RestTimer, progress: LiveProgress? = nil) {
        self.init(kind, timerID: timer.id, label: timer.label, next: timer.next, progress: progress)
        if case .expired = kind { recovery = RecoveryEnding(of: timer) }
    }

    public init(
        _ kind: Kind, timerID: TimerID, label: String = "", next: String = "", progress: LiveProgress? = nil
    ) {
        self.kind = kind
        self.subject = .timer(timerID)
        self.label = label
        self.next = next
        self.progress = progress
    }

    /// "Workout done" with the summary of the workout that ended.
    public init(workoutDone summary: WorkoutSummary) {
        self.kind = .workoutDone(summary)
        self.subject = .workout
        self.label = summary.name
        self.next = ""
        self.progress = nil
    }

    /// A rest (or workout) that ended longer ago than this is not announced at all (it is also
    /// when the expired timer is removed).
    public static let tooLateUSec: USec = 3_600_000_000
    /// A rest announced at least this long after it ended says so ("ended 3 min ago"): after a
    /// suspend, a restart of restd, or a notification server that appeared late.
    public static let lateUSec: USec = 5_000_000

    /// Whether showing this alert at `now` would be pointless: the pre-alert of a rest that has
    /// ended, or the end of a rest or workout more than an hour ago.
    public func isStale(now: USec) -> Bool {
        now >= staleAtUSec
    }

    /// The first instant at which the alert is stale.
    public var staleAtUSec: USec {
        switch kind {
        case .warning(let deadline): deadline
        case .expired(let deadline): deadline.addingSaturated(Self.tooLateUSec + 1)
        case .workoutDone(let summary): summary.endedAtUSec.addingSaturated(Self.tooLateUSec + 1)
        }
    }
}
