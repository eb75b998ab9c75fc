/// One set with the rest that followed it, as stats read them.
public struct StatsRow: Sendable, Equatable {
    public var exerciseKey: String
    public var exercise: String
    /// The rest it ran with (planned, after add/sub); nil when no rest followed.
    public var plannedUSec: USec?
    /// How long it was taken; nil while open.
    public var takenUSec: USec?
    public var outcome: RestOutcome?

    public init(exerciseKey: String, exercise: String, plannedUSec: USec? = nil, takenUSec: USec? = nil,
                outcome: RestOutcome? = nil) {
        self.exerciseKey = exerciseKey
        self.exercise = exercise
        self.plannedUSec = plannedUSec
        self.takenUSec = takenUSec
        self.outcome = outcome
    }
}

/// Per exercise: are the rests taken the rests planned? Medians, so that one rest forgotten
/// over a phone call does not move the numbers.
public struct ExerciseStats: Sendable, Equatable {
    public var exercise: String
    public var sets: Int
    /// Rests that ended by the next set or a skip: those the medians are taken over.
    public var rests: Int
    public var medianPlannedUSec: USec?
    public var medianTakenUSec: USec?
    /// Median of taken − planned, per rest: positive when rests run long.
    public var medianOverrunUSec: Int64?
    public var skipped: Int

    public init(exercise: String, sets: Int, rests: Int, medianPlannedUSec: USec?, medianTakenUSec: USec?,
                medianOverrunUSec: Int64?, skipped: Int) {
        self.exercise = exercise
        self.sets = sets
        self.rests = rests
        self.medianPlannedUSec = medianPlannedUSec
        self.medianTakenUSec = medianTakenUSec
        self.medianOverrunUSec = medianOverrunUSec
        self.skipped = skipped
    }

    /// Stats of `rows`, one entry per exercise, by name (case-insensitively).
    public static func compute(_ rows: [StatsRow]) -> [ExerciseStats] {
        var groups: [String: (name: String, sets: Int, planned: [USec], taken: [USec], overrun: [Int64], skipped: Int)] = [:]
        for row in rows {
            var group = groups[row.exerciseKey] ?? (row.exercise, 0, [], [], [], 0)
            group.sets += 1
            if let planned = row.plannedUSec, let taken = row.takenUSec,
               row.outcome == .completed || row.outcome == .skipped {
                group.planned.append(planned)
                group.taken.append(taken)
                group.overrun.append(Self.difference(taken, planned))
            }
            if row.outcome == .skipped { group.skipped += 1 }
            groups[row.exerciseKey] = group
        }
        return groups.values.map { group in
            ExerciseStats(exercise: group.name, sets: group.sets, rests: group.taken.count,
                          medianPlannedUSec: median(group.planned), medianTakenUSec: median(group.taken),
                          medianOverrunUSec: median(group.overrun), skipped: group.skipped)
        }.sorted { ($0.exercise.lowercased(), $0.exercise) < ($1.exercise.lowercased(), $1.exercise) }
    }

    /// The middle value; for an even count, the mean of the two middle ones (rounded down).
    public static func median(_ values: [USec]) -> USec? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        if sorted.count % 2 == 1 { return sorted[middle] }
        let (low, high) = (sorted[middle - 1], sorted[middle])
        return low + (high - low) / 2
    }

    public static func median(_ values: [Int64]) -> Int64? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        if sorted.count % 2 == 1 { return sorted[middle] }
        let (low, high) = (sorted[middle - 1], sorted[middle])
        return low + (high - low) / 2
    }

    /// `a − b` as a signed value (rests are far below Int64's range).
    static func difference(_ a: USec, _ b: USec) -> Int64 {
        a >= b ? Int64(clamping: a - b) : -Int64(clamping: b - a)
    }
}
