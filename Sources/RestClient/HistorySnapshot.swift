import DBusKit
import RestCore
import RestProtocol

/// One set with the rest that followed it, as io.restd.Rest1.History.Sets and SetRows report it.
public struct HistorySet: Sendable, Equatable {
    public var id: Int64
    public var timer: String
    public var atUSec: UInt64
    public var exercise: String
    public var reps: UInt32?
    public var weightKg: Double?
    public var failed: Bool
    /// An imported warm-up: never a failed set or a record.
    public var warmup = false
    public var rest: Rest?

    /// The rest after a set.
    public struct Rest: Sendable, Equatable {
        /// The rest the timer ran with, after add and sub.
        public var plannedUSec: UInt64
        /// Added minus taken away (the rest first chosen was planned − adjust, unless a sub past
        /// zero left planned at the shortest rest, 1 s).
        public var adjustUSec: Int64
        public var pausedUSec: UInt64
        public var source: String
        /// open, completed, skipped, cancelled or replaced.
        public var outcome: String
        public var takenUSec: UInt64?
        public var endedAtUSec: UInt64?
        /// How heart rate recovered, for a rest that may end on recovery; nil for any other.
        public var recovery: RecoveryMetrics? {
            get { recoveryBox?.metrics }
            set { recoveryBox = newValue.map(RecoveryBox.init) }
        }
        /// Held apart: the metrics are 200 bytes that most rests do not have, and a year of
        /// history is 100,000 sets copied as they are read.
        private var recoveryBox: RecoveryBox?

        public init(
            plannedUSec: UInt64, adjustUSec: Int64 = 0, pausedUSec: UInt64 = 0, source: String = "",
            outcome: String, takenUSec: UInt64? = nil, endedAtUSec: UInt64? = nil, recovery: RecoveryMetrics? = nil
        ) {
            self.plannedUSec = plannedUSec
            self.adjustUSec = adjustUSec
            self.pausedUSec = pausedUSec
            self.source = source
            self.outcome = outcome
            self.takenUSec = takenUSec
            self.endedAtUSec = endedAtUSec
            self.recovery = recovery
        }

        private final class RecoveryBox: Sendable, Equatable {
            let metrics: RecoveryMetrics
            init(_ metrics: RecoveryMetrics) { self.metrics = metrics }
            static func == (a: RecoveryBox, b: RecoveryBox) -> Bool { a.metrics == b.metrics }
        }

        /// taken − planned, when taken is known.
        public var overrunUSec: Int64? {
            guard let takenUSec else { return nil }
            return takenUSec >= plannedUSec
                ? Int64(clamping: takenUSec - plannedUSec) : -Int64(clamping: plannedUSec - takenUSec)
        }
    }

    public init(
        id: Int64, timer: String, atUSec: UInt64, exercise: String, reps: UInt32? = nil, weightKg: Double? = nil,
        failed: Bool = false, rest: Rest? = nil
    ) {
        self.id = id
        self.timer = timer
        self.atUSec = atUSec
        self.exercise = exercise
        self.reps = reps
        self.weightKg = weightKg
        self.failed = failed
        self.rest = rest
    }

    /// Reads one `a{sv}` entry; unknown keys (from a newer restd) are ignored.
    public init(entry: [String: DBusValue]) throws(ClientError) {
        func value(_ key: String) -> DBusValue? { entry[key]?.unwrapped }
        guard let id = value(HistoryKey.id)?.int64, let timer = value(HistoryKey.timer)?.string,
            let at = value(HistoryKey.atUSec)?.uint64, let exercise = value(HistoryKey.exercise)?.string
        else { throw .badReply("a set without id, timer, at_usec or exercise") }
        self.init(
            id: id, timer: timer, atUSec: at, exercise: exercise,
            reps: value(HistoryKey.reps)?.uint64.flatMap(UInt32.init(exactly:)),
            weightKg: value(HistoryKey.weightKg)?.double, failed: value(HistoryKey.failed)?.bool ?? false)
        warmup = value(HistoryKey.warmup)?.bool ?? false
        let prefix = HistoryKey.restPrefix
        if let planned = value(prefix + HistoryKey.plannedUSec)?.uint64 {
            rest = Rest(
                plannedUSec: planned, adjustUSec: value(prefix + HistoryKey.adjustUSec)?.int64 ?? 0,
                pausedUSec: value(prefix + HistoryKey.pausedUSec)?.uint64 ?? 0,
                source: value(prefix + HistoryKey.source)?.string ?? "",
                outcome: value(prefix + HistoryKey.outcome)?.string ?? HistoryKey.openOutcome,
                takenUSec: value(prefix + HistoryKey.takenUSec)?.uint64,
                endedAtUSec: value(prefix + HistoryKey.endedAtUSec)?.uint64,
                recovery: RecoveryFields.metrics(value, prefix: prefix))
        }
    }
}

extension HistorySet {
    /// Reads one structure of SetRows (`SetRow`): the same set as its entry in Sets.
    public init(row: DBusValue) throws(ClientError) {
        guard case .structure(let columns) = row, columns.count == 15,
            case .int64(let id) = columns[0], case .string(let timer) = columns[1],
            case .uint64(let at) = columns[2], case .string(let exercise) = columns[3],
            case .uint32(let reps) = columns[4], case .double(let weightKg) = columns[5],
            case .boolean(let failed) = columns[6], case .uint64(let planned) = columns[7],
            case .int64(let adjust) = columns[8], case .uint64(let paused) = columns[9],
            case .string(let source) = columns[10], case .string(let outcome) = columns[11],
            case .uint64(let taken) = columns[12], case .uint64(let endedAt) = columns[13],
            case .dictionary(.string, .variant, let otherEntries) = columns[14]
        else { throw .badReply("a row of SetRows is not \(SetRow.signature)") }
        self.init(
            id: id, timer: timer, atUSec: at, exercise: exercise, reps: reps == SetRow.noReps ? nil : reps,
            weightKg: weightKg.isNaN ? nil : weightKg, failed: failed)
        guard !outcome.isEmpty else {
            warmup = otherEntries.contains { $0.key == .string(HistoryKey.warmup) && $0.value.unwrapped.bool == true }
            return
        }
        let ended = outcome != HistoryKey.openOutcome
        rest = Rest(
            plannedUSec: planned, adjustUSec: adjust, pausedUSec: paused, source: source, outcome: outcome,
            takenUSec: ended ? taken : nil, endedAtUSec: ended ? endedAt : nil,
            recovery: otherEntries.isEmpty ? nil : Self.recovery(columns[14]))
    }

    /// The recovery in a row's last column (most rows have none, and skip the dictionary).
    private static func recovery(_ otherKeys: DBusValue) -> RecoveryMetrics? {
        let entries = otherKeys.vardictEntries ?? [:]
        return RecoveryFields.metrics({ entries[$0]?.unwrapped }, prefix: HistoryKey.restPrefix)
    }
}

/// One exercise's numbers, as io.restd.Rest1.History.Stats reports them.
public struct ExerciseStatsSnapshot: Sendable, Equatable {
    public var exercise: String
    public var sets: UInt64
    /// Rests taken to their end (by the next set).
    public var rests: UInt64
    /// Rests ended with a skip.
    public var skipped: UInt64
    /// Over `rests`: the median planned and taken, and the second minus the first.
    public var medianPlannedUSec: UInt64?
    public var medianTakenUSec: UInt64?
    public var medianOverrunUSec: Int64?
    /// Rests followed for recovery; 0 for none (and from a restd without it).
    public var recoveryRests: UInt64
    public var medianTimeToTargetUSec: UInt64?
    /// HRR60 by local week, oldest first.
    public var hrr60Weeks: [ExerciseStats.WeekHRR60]

    public init(
        exercise: String, sets: UInt64, rests: UInt64 = 0, skipped: UInt64 = 0, medianPlannedUSec: UInt64? = nil,
        medianTakenUSec: UInt64? = nil, medianOverrunUSec: Int64? = nil, recoveryRests: UInt64 = 0,
        medianTimeToTargetUSec: UInt64? = nil, hrr60Weeks: [ExerciseStats.WeekHRR60] = []
    ) {
        self.exercise = exercise
        self.sets = sets
        self.rests = rests
        self.skipped = skipped
        self.medianPlannedUSec = medianPlannedUSec
        self.medianTakenUSec = medianTakenUSec
        self.medianOverrunUSec = medianOverrunUSec
        self.recoveryRests = recoveryRests
        self.medianTimeToTargetUSec = medianTimeToTargetUSec
        self.hrr60Weeks = hrr60Weeks
    }

    /// The sets no rest was taken to its end or skipped after: the last set, a rest cancelled,
    /// replaced or still running, or none at all.
    public var other: UInt64 {
        let ended = rests.addingReportingOverflow(skipped)
        return ended.overflow || ended.partialValue > sets ? 0 : sets - ended.partialValue
    }

    public init(entry: [String: DBusValue]) throws(ClientError) {
        func value(_ key: String) -> DBusValue? { entry[key]?.unwrapped }
        guard let exercise = value(HistoryKey.exercise)?.string else { throw .badReply("stats without an exercise") }
        self.init(
            exercise: exercise, sets: value(HistoryKey.sets)?.uint64 ?? 0, rests: value(HistoryKey.rests)?.uint64 ?? 0,
            skipped: value(HistoryKey.skipped)?.uint64 ?? 0,
            medianPlannedUSec: value(HistoryKey.medianPlannedUSec)?.uint64,
            medianTakenUSec: value(HistoryKey.medianTakenUSec)?.uint64,
            medianOverrunUSec: value(HistoryKey.medianOverrunUSec)?.int64,
            recoveryRests: value(HistoryKey.recoveryRests)?.uint64 ?? 0,
            medianTimeToTargetUSec: value(HistoryKey.medianTimeToTargetUSec)?.uint64,
            hrr60Weeks: (value(HistoryKey.hrr60Weeks)?.arrayElements ?? []).compactMap { element in
                guard let week = element.vardictEntries, let start = week[HistoryKey.weekStartAtUSec]?.unwrapped.uint64,
                    let median = week[HistoryKey.medianHRR60]?.unwrapped.double
                else { return nil }
                return ExerciseStats.WeekHRR60(
                    weekStartAtUSec: start, medianBPM: median,
                    rests: (week[HistoryKey.rests]?.unwrapped.uint64).flatMap(Int.init(exactly:)) ?? 0)
            })
    }
}
