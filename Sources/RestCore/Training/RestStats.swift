/// One set with the rest that followed it, as stats read them.
public struct StatsRow: Sendable, Equatable {
    public var exerciseKey: String
    public var exercise: String
    /// The rest it ran with (planned, after add/sub); nil when no rest followed.
    public var plannedUSec: USec?
    /// How long it was taken; nil while open.
    public var takenUSec: USec?
    public var outcome: RestOutcome?
    /// What stats read of its recovery; nil for a rest not followed for recovery.
    public var recovery: RecoveryStatsInput?

    public init(
        exerciseKey: String, exercise: String, plannedUSec: USec? = nil, takenUSec: USec? = nil,
        outcome: RestOutcome? = nil, recovery: RecoveryStatsInput? = nil
    ) {
        self.exerciseKey = exerciseKey
        self.exercise = exercise
        self.plannedUSec = plannedUSec
        self.takenUSec = takenUSec
        self.outcome = outcome
        self.recovery = recovery
    }
}

/// What stats read of a followed rest's recovery.
public struct RecoveryStatsInput: Sendable, Equatable {
    /// When the rest started (its set), CLOCK_REALTIME µs: which week its HRR60 counts in.
    public var startedAtUSec: USec
    public var timeToTargetUSec: USec?
    public var hrr60BPM: Double?

    public init(startedAtUSec: USec, timeToTargetUSec: USec? = nil, hrr60BPM: Double? = nil) {
        self.startedAtUSec = startedAtUSec
        self.timeToTargetUSec = timeToTargetUSec
        self.hrr60BPM = hrr60BPM
    }
}

/// Per exercise: are the rests taken the rests planned? Medians, so that one rest forgotten
/// over a phone call does not move the numbers; and figures that add up: `sets` is `rests`
/// plus `skipped` plus the sets no rest was taken to its end after (the last set, a rest
/// cancelled, replaced or still running), and the median taken is the median planned plus
/// `medianOverrunUSec`.
public struct ExerciseStats: Sendable, Equatable {
    public var exercise: String
    public var sets: Int
    /// Rests taken to their end, by the next set: those the medians are taken over.
    public var rests: Int
    /// The median rest planned (after add and sub) of `rests`.
    public var medianPlannedUSec: USec?
    /// The median rest taken of `rests`.
    public var medianTakenUSec: USec?
    /// The median taken minus the median planned: positive when rests run long.
    public var medianOverrunUSec: Int64?
    /// Rests ended early with a skip, counted apart: how long they lasted says nothing about
    /// the rest needed.
    public var skipped: Int
    /// Rests followed for recovery (that may end on recovery, with their metrics).
    public var recoveryRests: Int
    /// The median time from a rest's start until heart rate reached its target, over the
    /// followed rests that reached it; nil when none did.
    public var medianTimeToTargetUSec: USec?
    /// HRR60 week by week (local weeks from Monday, oldest first): how recovery after this
    /// exercise moves as training goes on. Weeks without an HRR60 are left out.
    public var hrr60Weeks: [WeekHRR60]

    /// One week's HRR60: the median over its rests that have one.
    public struct WeekHRR60: Sendable, Equatable {
        /// The first instant of the local week (Monday 00:00), CLOCK_REALTIME µs.
        public var weekStartAtUSec: USec
        public var medianBPM: Double
        public var rests: Int

        public init(weekStartAtUSec: USec, medianBPM: Double, rests: Int) {
            self.weekStartAtUSec = weekStartAtUSec
            self.medianBPM = medianBPM
            self.rests = rests
        }
    }

    public init(
        exercise: String, sets: Int, rests: Int, medianPlannedUSec: USec?, medianTakenUSec: USec?,
        medianOverrunUSec: Int64?, skipped: Int, recoveryRests: Int = 0, medianTimeToTargetUSec: USec? = nil,
        hrr60Weeks: [WeekHRR60] = []
    ) {
        self.exercise = exercise
        self.sets = sets
        self.rests = rests
        self.medianPlannedUSec = medianPlannedUSec
        self.medianTakenUSec = medianTakenUSec
        self.medianOverrunUSec = medianOverrunUSec
        self.skipped = skipped
        self.recoveryRests = recoveryRests
        self.medianTimeToTargetUSec = medianTimeToTargetUSec
        self.hrr60Weeks = hrr60Weeks
    }

    /// Stats of `rows`, one entry per exercise, by name (case-insensitively).
    public static func compute(_ rows: [StatsRow]) -> [ExerciseStats] {
        var accumulator = Accumulator()
        for row in rows { accumulator.add(row) }
        return accumulator.result()
    }

    /// Stats gathered one row at a time, keeping only the durations per exercise (a year of
    /// 100,000 sets is two arrays of 8-byte values, not 100,000 rows).
    public struct Accumulator {
        private struct Group {
            var name: String
            var sets = 0
            var planned: [USec] = []
            var taken: [USec] = []
            var skipped = 0
            var recoveryRests = 0
            var timeToTarget: [USec] = []
            /// HRR60 values by the start of their local week.
            var hrr60ByWeek: [USec: [Double]] = [:]
        }
        private var groups: [Group] = []
        private var index: [String: Int] = [:]
        /// The last row's exercise: sets of one exercise come in runs, and hashing its key once
        /// per run instead of once per row is most of the cost over 100,000 rows.
        private var last: (key: String, group: Int)?

        public init() {}

        public mutating func add(_ row: StatsRow) {
            add(
                exerciseKey: row.exerciseKey, exercise: row.exercise, plannedUSec: row.plannedUSec,
                takenUSec: row.takenUSec, outcome: row.outcome, recovery: row.recovery)
        }

        /// `exercise` is read only for the first row of its exercise.
        public mutating func add(
            exerciseKey: String, exercise: @autoclosure () -> String, plannedUSec: USec?,
            takenUSec: USec?, outcome: RestOutcome?, recovery: RecoveryStatsInput? = nil
        ) {
            let group: Int
            if let last, last.key == exerciseKey {
                group = last.group
            } else if let known = index[exerciseKey] {
                group = known
            } else {
                group = groups.count
                groups.append(Group(name: exercise()))
                index[exerciseKey] = group
            }
            last = (exerciseKey, group)
            groups[group].sets += 1
            if let plannedUSec, let takenUSec, outcome?.isTaken == true {
                groups[group].planned.append(plannedUSec)
                groups[group].taken.append(takenUSec)
            }
            if outcome == .skipped { groups[group].skipped += 1 }
            if let recovery {
                groups[group].recoveryRests += 1
                if let time = recovery.timeToTargetUSec { groups[group].timeToTarget.append(time) }
                if let hrr60 = recovery.hrr60BPM {
                    groups[group].hrr60ByWeek[
                        LocalCalendar.startOfWeek(containing: recovery.startedAtUSec), default: []
                    ]
                    .append(hrr60)
                }
            }
        }

        /// One entry per exercise, by name.
        public func result() -> [ExerciseStats] {
            groups.map { group in
                let planned = group.planned.median()
                let taken = group.taken.median()
                return ExerciseStats(
                    exercise: group.name, sets: group.sets, rests: group.taken.count,
                    medianPlannedUSec: planned, medianTakenUSec: taken,
                    medianOverrunUSec: planned.flatMap { planned in taken.map { difference($0, planned) } },
                    skipped: group.skipped,
                    recoveryRests: group.recoveryRests, medianTimeToTargetUSec: group.timeToTarget.median(),
                    hrr60Weeks: group.hrr60ByWeek.sorted { $0.key < $1.key }.map { week, values in
                        WeekHRR60(weekStartAtUSec: week, medianBPM: values.median() ?? 0, rests: values.count)
                    })
            }.sorted {
                (ExerciseName.key(of: $0.exercise), $0.exercise) < (ExerciseName.key(of: $1.exercise), $1.exercise)
            }
        }
    }

    /// `a − b` as a signed value (rests are far below Int64's range).
    public static func difference(_ a: USec, _ b: USec) -> Int64 {
        a >= b ? Int64(clamping: a - b) : -Int64(clamping: b - a)
    }
}
