import Localization

/// Epley's estimate of the one-rep max, as the report draws it: weight × (1 + reps ÷ 30), the
/// weight itself for a single; only from sets of 1 to `maxReps` reps, beyond which it drifts.
public enum OneRepMax {
    public static let maxReps: UInt32 = 10

    public static func estimateKg(weightKg: Double?, reps: UInt32?) -> Double? {
        guard let weightKg, weightKg > 0, let reps, reps >= 1, reps <= maxReps else { return nil }
        return reps == 1 ? weightKg : weightKg * (1 + Double(reps) / 30)
    }
}

/// An exercise's best sets before a new one, read from the history (imported sets included):
/// what the new set is compared with. Failed sets and warm-ups never count.
public struct ExerciseBests: Sendable, Equatable {
    /// The heaviest weight of any set.
    public var heaviestKg: Double?
    /// The highest estimated one-rep max (`OneRepMax`).
    public var bestEstimateKg: Double?
    /// The most reps of a set at the new set's weight (without weight, for a set without).
    public var mostRepsAtWeight: UInt32?

    public init(heaviestKg: Double? = nil, bestEstimateKg: Double? = nil, mostRepsAtWeight: UInt32? = nil) {
        self.heaviestKg = heaviestKg
        self.bestEstimateKg = bestEstimateKg
        self.mostRepsAtWeight = mostRepsAtWeight
    }
}

/// A record a set beat, with the best it beat. An exercise's first counted set beats nothing:
/// a record is news only against a history.
public enum PersonalRecord: Sendable, Equatable {
    case heaviest(kg: Double, was: Double)
    /// Most reps at this weight (nil: without weight).
    case mostReps(UInt32, atKg: Double?, was: UInt32)
    case estimatedMax(kg: Double, was: Double)

    /// The records `set` beats against `bests` (before it), in the order they are said:
    /// heaviest, most reps at its weight, estimated one-rep max. A failed set or a warm-up
    /// beats none.
    public static func beaten(by set: SetRecord, warmup: Bool = false, bests: ExerciseBests) -> [PersonalRecord] {
        beaten(weightKg: set.weightKg, reps: set.reps, failed: set.failed, warmup: warmup, bests: bests)
    }

    public static func beaten(
        weightKg: Double?, reps: UInt32?, failed: Bool, warmup: Bool, bests: ExerciseBests
    ) -> [PersonalRecord] {
        guard !failed, !warmup else { return [] }
        var records: [PersonalRecord] = []
        if let weightKg, weightKg > 0, let was = bests.heaviestKg, weightKg > was {
            records.append(.heaviest(kg: weightKg, was: was))
        }
        if let reps, reps > 0, let was = bests.mostRepsAtWeight, reps > was {
            records.append(.mostReps(reps, atKg: weightKg, was: was))
        }
        // Estimates are compared as they are said, to 0.1 kg: "121 (was 121)" is no record.
        if let estimate = OneRepMax.estimateKg(weightKg: weightKg, reps: reps),
            let was = bests.bestEstimateKg, tenths(estimate) > tenths(was)
        {
            records.append(.estimatedMax(kg: estimate, was: was))
        }
        return records
    }

    private static func tenths(_ kg: Double) -> Double { (kg * 10).rounded() }

    /// `record: Squat 110 kg × 3, estimated 1RM 121 kg (was 118)`: what restctl set and the
    /// notification of the rest after it say, weights in `unit` (`Weight.text`), in `catalog`'s
    /// language; nil without a record.
    public static func line(
        exercise: String, weightKg: Double?, reps: UInt32?, records: [PersonalRecord], unit: WeightUnit,
        catalog: Catalog
    ) -> String? {
        guard !records.isEmpty else { return nil }
        func weight(_ kg: Double) -> String { Weight.text(kilograms: kg, in: unit, catalog: catalog) }
        var what = exercise
        switch (weightKg, reps) {
        case (let kg?, let reps?): what += " " + weight(kg) + " × " + String(reps)
        case (let kg?, nil): what += " " + weight(kg)
        case (nil, let reps?):
            // TRANSLATORS: a set without weight in a record line: "record: Pull-up 10 reps, …".
            what += " " + catalog.localizedPlural("%1$d rep", "%1$d reps", count: Int(reps), reps)
        case (nil, nil): break
        }
        let parts = records.map { record in
            switch record {
            case .heaviest(_, let was):
                // TRANSLATORS: a record beaten, in "record: Squat 105 kg × 3, heaviest (was 100 kg)".
                catalog.localized("heaviest (was %1$s)", weight(was))
            case .mostReps(_, let at?, let was):
                // TRANSLATORS: a record beaten: "most reps at 60 kg (was 15)".
                catalog.localized("most reps at %1$s (was %2$d)", weight(at), was)
            case .mostReps(_, nil, let was):
                // TRANSLATORS: a record beaten by a set without weight: "most reps (was 8)".
                catalog.localized("most reps (was %1$d)", was)
            case .estimatedMax(let estimate, let was):
                // TRANSLATORS: a record beaten: "estimated 1RM 121 kg (was 118)", Epley's estimated one-rep maximum.
                catalog.localized(
                    "estimated 1RM %1$s (was %2$s)",
                    Weight.text(kilograms: estimate, in: unit, catalog: catalog, tenths: true),
                    Weight.number(kilograms: was, in: unit, catalog: catalog, tenths: true))
            }
        }
        // TRANSLATORS: under restctl set and in "Rest over": "record: Squat 110 kg × 3, estimated 1RM 121 kg (was 118)".
        return catalog.localized("record: %1$s", ([what] + parts).joined(separator: ", "))
    }
}

/// Records followed through a history, set by set in the order they were done: which records
/// each set beat, and each exercise's records at the end. Pure, for what reads the whole history
/// (`restctl records`, the report); restd compares one new set through `ExerciseBests`, read
/// from its indexes, by the same rule (`PersonalRecord.beaten`).
public struct RecordBook: Sendable {
    /// A set that holds a record: when, and what it was.
    public struct Holder: Sendable, Equatable {
        public var atUSec: USec
        public var weightKg: Double?
        public var reps: UInt32?

        public init(atUSec: USec, weightKg: Double?, reps: UInt32?) {
            self.atUSec = atUSec
            self.weightKg = weightKg
            self.reps = reps
        }
    }

    /// An exercise's records: its heaviest set, its highest estimate, its set of most reps.
    public struct Records: Sendable, Equatable {
        public var exercise: String
        public var heaviest: Holder?
        public var bestEstimate: Holder?
        /// The estimate of `bestEstimate`.
        public var bestEstimateKg: Double?
        /// The set of most reps, at whatever weight (the heaviest among equals).
        public var mostReps: Holder?
        /// The most reps at each weight (hundredths of a kg; -1: without weight).
        var mostRepsAt: [Int64: UInt32] = [:]

        init(exercise: String) { self.exercise = exercise }

        func bests(atWeightKg weight: Double?) -> ExerciseBests {
            ExerciseBests(
                heaviestKg: heaviest?.weightKg, bestEstimateKg: bestEstimateKg,
                mostRepsAtWeight: mostRepsAt[Self.weightKey(weight)])
        }

        static func weightKey(_ weight: Double?) -> Int64 {
            weight.map { Int64(($0 * 100).rounded()) } ?? -1
        }
    }

    /// By exercise key.
    public private(set) var records: [String: Records] = [:]

    public init() {}

    /// The records `set` beats against the sets added before it; then it counts for the next.
    public mutating func add(_ set: SetRecord, warmup: Bool = false) -> [PersonalRecord] {
        add(
            exercise: set.exercise, key: set.exerciseKey, atUSec: set.atUSec, weightKg: set.weightKg, reps: set.reps,
            failed: set.failed, warmup: warmup)
    }

    /// A set as clients read it: `key` is `ExerciseName.key` of its exercise.
    public mutating func add(
        exercise name: String, key: String, atUSec: USec, weightKg: Double?, reps: UInt32?, failed: Bool,
        warmup: Bool = false
    ) -> [PersonalRecord] {
        var exercise = records[key] ?? Records(exercise: name)
        let beaten = PersonalRecord.beaten(
            weightKg: weightKg, reps: reps, failed: failed, warmup: warmup, bests: exercise.bests(atWeightKg: weightKg))
        guard !failed, !warmup else { return beaten }
        let set = (weightKg: weightKg, reps: reps, exerciseKey: key)
        let holder = Holder(atUSec: atUSec, weightKg: weightKg, reps: reps)
        if let weight = set.weightKg, weight > 0, weight > (exercise.heaviest?.weightKg ?? 0) {
            exercise.heaviest = holder
        }
        if let reps = set.reps {
            let key = Records.weightKey(set.weightKg)
            exercise.mostRepsAt[key] = max(exercise.mostRepsAt[key] ?? 0, reps)
            if let most = exercise.mostReps, let mostReps = most.reps,
                reps < mostReps || (reps == mostReps && (set.weightKg ?? 0) <= (most.weightKg ?? 0))
            {
                // Not more reps, nor as many heavier.
            } else if reps > 0 {
                exercise.mostReps = holder
            }
        }
        if let estimate = OneRepMax.estimateKg(weightKg: set.weightKg, reps: set.reps),
            estimate > (exercise.bestEstimateKg ?? 0)
        {
            exercise.bestEstimate = holder
            exercise.bestEstimateKg = estimate
        }
        records[key] = exercise
        return beaten
    }

    /// What restd reads for a new set of `exerciseKey` at `weightKg`.
    public func bests(exerciseKey: String, atWeightKg weightKg: Double?) -> ExerciseBests {
        records[exerciseKey]?.bests(atWeightKg: weightKg) ?? ExerciseBests()
    }
}
