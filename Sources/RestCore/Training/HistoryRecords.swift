/// One set as history keeps it.
public struct SetRecord: Sendable, Equatable {
    /// Increasing with time; the rest that followed has the same id.
    public var id: Int64
    public var timerID: TimerID
    /// CLOCK_REALTIME µs of the set's completion.
    public var atUSec: USec
    /// The exercise's name as first written.
    public var exercise: String
    /// `ExerciseName.key`: what sets are grouped by.
    public var exerciseKey: String
    public var reps: UInt32?
    public var weightKg: Double?
    public var failed: Bool
    /// A warm-up (imported sets only): never a failed set or a record.
    public var warmup = false

    public init(
        id: Int64, timerID: TimerID, atUSec: USec, exercise: String, exerciseKey: String, reps: UInt32?,
        weightKg: Double?, failed: Bool
    ) {
        self.id = id
        self.timerID = timerID
        self.atUSec = atUSec
        self.exercise = exercise
        self.exerciseKey = exerciseKey
        self.reps = reps
        self.weightKg = weightKg
        self.failed = failed
    }
}

/// How a rest ended.
public enum RestOutcome: String, Sendable, CaseIterable {
    /// The next set came (whether the timer had run out or not: `taken` tells how long it was).
    case completed
    /// Ended on purpose with Skip before it was over.
    case skipped
    /// Its timer was cancelled, or removed while paused and untouched.
    case cancelled
    /// Its timer was started again for something else.
    case replaced

    /// A rest taken: one the next set ended, the only rests whose length says how long a rest
    /// was needed. Stats (`ExerciseStats`) and the training report count and take their medians
    /// over these alone; skipped rests are counted apart, cancelled and replaced ones not at all.
    public var isTaken: Bool { self == .completed }
}

/// A rest: the one that followed set `setID`, open until the next set (or a skip, a cancel,
/// a replacement) ends it.
public struct RestRecord: Sendable, Equatable {
    public var setID: Int64
    public var timerID: TimerID
    public var exercise: String
    public var exerciseKey: String
    /// CLOCK_REALTIME µs: the set's completion.
    public var startedAtUSec: USec
    /// The rest chosen when it started.
    public var plannedUSec: USec
    /// Which rule chose it (`RestChoice.sourceText`).
    public var source: String
    /// The sum of every add (+) and sub (−) during the rest.
    public var adjustUSec: Int64
    /// Time spent paused (whole pauses; one in progress is counted when the rest ends).
    public var pausedUSec: USec
    /// When the pause in progress began; 0 while not paused.
    public var pausedAtUSec: USec
    /// nil while the rest is open.
    public var outcome: RestOutcome?
    /// When it ended; 0 while open.
    public var endedAtUSec: USec
    /// From its start to its end, overtime and pauses included; 0 while open.
    public var takenUSec: USec
    /// Heart-rate RR intervals (ms) received while it ran (from a Bluetooth strap), oldest first.
    public var rrIntervalsMS: [UInt16]
    /// How heart rate recovered, for a rest that may end on recovery: computed when its timer
    /// stopped running (or when the rest ended first); nil for any other rest.
    public var recovery: RecoveryMetrics?

    public init(
        setID: Int64, timerID: TimerID, exercise: String, exerciseKey: String, startedAtUSec: USec,
        plannedUSec: USec, source: String, adjustUSec: Int64 = 0, pausedUSec: USec = 0, pausedAtUSec: USec = 0,
        outcome: RestOutcome? = nil, endedAtUSec: USec = 0, takenUSec: USec = 0, rrIntervalsMS: [UInt16] = [],
        recovery: RecoveryMetrics? = nil
    ) {
        self.setID = setID
        self.timerID = timerID
        self.exercise = exercise
        self.exerciseKey = exerciseKey
        self.startedAtUSec = startedAtUSec
        self.plannedUSec = plannedUSec
        self.source = source
        self.adjustUSec = adjustUSec
        self.pausedUSec = pausedUSec
        self.pausedAtUSec = pausedAtUSec
        self.outcome = outcome
        self.endedAtUSec = endedAtUSec
        self.takenUSec = takenUSec
        self.rrIntervalsMS = rrIntervalsMS
        self.recovery = recovery
    }

    /// The rest it ran with after any add/sub: what "last used" remembers.
    public func finalUSec(limits: TimerLimits) -> USec {
        Self.finalUSec(chosen: plannedUSec, adjustUSec: adjustUSec, limits: limits)
    }

    /// The rest a timer ran with: the one chosen, plus every add and sub, within the limits
    /// (a sub past zero ends the rest at once, and the record keeps the shortest rest there is).
    public static func finalUSec(chosen: USec, adjustUSec: Int64, limits: TimerLimits) -> USec {
        RestChoice.clamp(chosen.addingSaturated(signed: adjustUSec), limits)
    }

    /// Whether its exercise remembers it as the rest last used: not a rest after a failed set
    /// (failed_rest, or failed_extra added), which says nothing about the usual rest.
    public var isRemembered: Bool {
        source != RestSource.failedRest.rawValue && source != RestSource.planFailedRest.rawValue
            && !source.hasSuffix(RestChoice.failedExtraSuffix)
    }

    /// This rest ended at `now` with `outcome`; a pause in progress counts up to `now`.
    public func ended(_ outcome: RestOutcome, at now: USec) -> RestRecord {
        var rest = self
        if rest.pausedAtUSec != 0 {
            rest.pausedUSec = rest.pausedUSec.addingSaturated(now.subtractingSaturated(rest.pausedAtUSec))
            rest.pausedAtUSec = 0
        }
        rest.outcome = outcome
        rest.endedAtUSec = now
        rest.takenUSec = now.subtractingSaturated(startedAtUSec)
        return rest
    }
}

/// A change to the history, planned with the timer events of the same command and committed
/// with them in one transaction.
public enum HistoryChange: Sendable, Equatable {
    /// A set was done; its exercise's count and last-seen time follow.
    case setRecorded(SetRecord)
    /// A set of another app's export (`HistoryImport`), kept with its key so that the same
    /// file imported again adds nothing; counted for its exercise like a recorded set.
    case setImported(SetRecord, importKey: String)
    /// A workout of another app's export, summed up from its imported sets.
    case workoutImported(WorkoutSummary)
    /// The category an export gives exercise `key` (FitNotes' Category), kept when the
    /// exercise has none yet: an import never overwrites one.
    case categoryImported(exerciseKey: String, category: String)
    /// A rest began (with its set) or changed (an add, a pause) while open.
    case restOpen(RestRecord)
    /// A rest ended; its exercise's last-used rest follows.
    case restEnded(RestRecord)
    /// The workout in progress started or moved on (a set, next, previous).
    case workoutSaved(ActiveWorkout)
    /// The workout in progress ended (the last set, `end`, or abandoned): it is summed up.
    case workoutEnded(WorkoutSummary)
    /// The workout in progress ended before its first set (`end`, or abandoned): it leaves
    /// nothing in the history, and nothing is announced.
    case workoutDiscarded
    /// Sets removed (undo, delete), each with the rest that followed it; what restd remembers
    /// of their exercises follows.
    case setsDeleted([SetRecord])
    /// A set changed (edit); the rest that followed it moves with it to its exercise.
    case setEdited(from: SetRecord, to: SetRecord)
    /// Every set and rest of exercise `fromKey` now of exercise `to` (`toKey`), and what restd
    /// remembers of it merged into `to`.
    case exerciseRenamed(fromKey: String, to: String, toKey: String)
    /// A followed rest's heart rate, kept once restd stopped following it; the traces that
    /// began before `pruneBeforeUSec` go (`[history] heart_rate_keep_days`).
    case heartRateKept(HeartRateTrace, pruneBeforeUSec: USec)
}
