import Localization
import RestCore

/// The numbers each part of the report draws, computed from `ReportInput` in one pass over the
/// sets (sorted, grouped, summed); the page only lays them out.
struct ReportModel {
    /// The local weeks from the first set's to the last set's, each week's first instant.
    let weeks: [USec]
    let volume: VolumeModel
    let progress: ProgressModel
    let rests: [RestSpread]
    let recovery: RecoveryModel
    let workouts: [WorkoutSection]
    let curves: CurveModel
    /// The unit the page shows weights in.
    let weights: ReportWeights

    init(_ input: ReportInput) {
        weights = ReportWeights(unit: input.weightUnit)
        var periods = LocalPeriods()
        let sets = input.sets
        if let first = sets.first, let last = sets.last {
            var weeks: [USec] = []
            var week = periods.weekStart(of: first.atUSec)
            let lastWeek = periods.weekStart(of: last.atUSec)
            while week <= lastWeek {
                weeks.append(week)
                let next = LocalPeriods.nextWeek(week)
                guard next > week else { break }
                week = next
            }
            self.weeks = weeks
        } else {
            weeks = []
        }
        let keys = ExerciseKeys(sets)
        volume = VolumeModel(sets, keys: keys, weeks: weeks, categories: input.categories, periods: &periods)
        progress = ProgressModel(sets, earlier: input.earlierSets, keys: keys, weeks: weeks, periods: &periods)
        rests = RestSpread.spreads(sets, keys: keys)
        recovery = RecoveryModel(sets, periods: &periods)
        // For one exercise, only the workouts it was done in.
        workouts = WorkoutSection.sections(input.workouts, sets: sets).filter {
            input.exercise == nil || !$0.sets.isEmpty
        }
        curves = CurveModel(input.heartRates, day: input.curveDayUSec, sets: sets)
    }
}

/// Each set's exercise as an index into the exercises of the window (names compared as restd
/// compares them, in lower case; each shown as first written in the window).
struct ExerciseKeys {
    /// The exercises, in the order they first appear.
    let names: [String]
    let keys: [String]
    /// The exercise of each set, by the set's position.
    let ofSet: [Int]

    init(_ sets: [HistorySet]) {
        var names: [String] = []
        var keys: [String] = []
        var index: [String: Int] = [:]
        var ofSet: [Int] = []
        ofSet.reserveCapacity(sets.count)
        // Sets of one exercise come in runs: its name is looked up once per run.
        var last: (name: String, exercise: Int)?
        for set in sets {
            if let last, last.name == set.exercise {
                ofSet.append(last.exercise)
                continue
            }
            let key = ExerciseName.key(of: set.exercise)
            let exercise: Int
            if let known = index[key] {
                exercise = known
            } else {
                exercise = names.count
                names.append(set.exercise)
                keys.append(key)
                index[key] = exercise
            }
            last = (set.exercise, exercise)
            ofSet.append(exercise)
        }
        self.names = names
        self.keys = keys
        self.ofSet = ofSet
    }
}

/// A set's volume: reps × weight, when it has both (as restd sums a workout's volume).
func volumeKg(_ set: HistorySet) -> Double? {
    guard let reps = set.reps, let weight = set.weightKg else { return nil }
    return Double(reps) * weight
}

// MARK: - Volume

/// Volume by week, stacked by category (config.toml's, through History.Exercises) or, for an
/// exercise without one, by the exercise itself.
struct VolumeModel {
    struct Series {
        /// The category, or the exercise's name.
        var name: String
        var isCategory: Bool
        /// kg by week, in the order of the report's weeks.
        var kgByWeek: [Double]
        /// How many series were put together in this one (the last, "other", when there are
        /// more than the palette has colours); 1 otherwise.
        var merged = 1
        var total: Double { kgByWeek.reduce(0, +) }
    }

    /// Largest total first; at most `maxSeries`.
    let series: [Series]
    /// Sets by week (all of them, with volume or not).
    let setsByWeek: [Int]
    /// Whether any exercise of the window has a category.
    let byCategory: Bool

    /// The palette's colours: more series than this and the smallest are shown together.
    static let maxSeries = 8

    init(
        _ sets: [HistorySet], keys: ExerciseKeys, weeks: [USec], categories: [String: String],
        periods: inout LocalPeriods
    ) {
        // One group per category, and per exercise without one.
        var groupOfExercise: [Int] = []
        var groups: [Series] = []
        var groupIndex: [String: Int] = [:]
        for (exercise, key) in keys.keys.enumerated() {
            let category = categories[key]
            let id = category.map { "c:" + $0 } ?? "e:" + key
            if let known = groupIndex[id] {
                groupOfExercise.append(known)
            } else {
                groupIndex[id] = groups.count
                groupOfExercise.append(groups.count)
                groups.append(
                    Series(
                        name: category ?? keys.names[exercise], isCategory: category != nil,
                        kgByWeek: Array(repeating: 0, count: weeks.count)))
            }
        }
        var setsByWeek = Array(repeating: 0, count: weeks.count)
        var week = 0
        for (position, set) in sets.enumerated() {
            let start = periods.weekStart(of: set.atUSec)
            while week + 1 < weeks.count && weeks[week + 1] <= start { week += 1 }
            setsByWeek[week] += 1
            if let kg = volumeKg(set) { groups[groupOfExercise[keys.ofSet[position]]].kgByWeek[week] += kg }
        }
        var sorted = groups.filter { $0.total > 0 }.sorted { ($0.total, $1.name) > ($1.total, $0.name) }
        if sorted.count > Self.maxSeries {
            var other = Series(
                name: localized("other"), isCategory: false, kgByWeek: Array(repeating: 0, count: weeks.count),
                merged: sorted.count - (Self.maxSeries - 1))
            for series in sorted[(Self.maxSeries - 1)...] {
                for index in other.kgByWeek.indices { other.kgByWeek[index] += series.kgByWeek[index] }
            }
            sorted = Array(sorted[..<(Self.maxSeries - 1)]) + [other]
        }
        series = sorted
        self.setsByWeek = setsByWeek
        byCategory = groups.contains(where: \.isCategory)
    }
}

// MARK: - Top sets

/// Per exercise, its top set of each day (of each week over a long window): the heaviest set
/// not failed, the most reps among equally heavy ones; for an exercise done without weights,
/// the set of most reps.
struct ProgressModel {
    struct Point {
        /// When the top set was done.
        var atUSec: USec
        var weightKg: Double?
        var reps: UInt32?
        /// The set beat one of its exercise's records (over the whole history, `RecordBook`).
        var isRecord = false

        /// Epley's estimate of the one-rep max, weight × (1 + reps / 30), for a set of 1 to
        /// `maxRepsForEstimate` reps; nil beyond, where it stops meaning much.
        var estimatedMaxKg: Double? {
            guard let weightKg, let reps, reps >= 1, reps <= ProgressModel.maxRepsForEstimate else { return nil }
            return reps == 1 ? weightKg : weightKg * (1 + Double(reps) / 30)
        }
    }

    struct Exercise {
        var name: String
        var points: [Point]
        var hasWeights: Bool { points.contains { $0.weightKg != nil } }
        var hasReps: Bool { points.contains { $0.reps != nil } }
    }

    /// Over more weeks than this, a point is a week's top set rather than a day's: a year of
    /// daily points for ten exercises would be 3,650 points and their table rows.
    static let dailyUpToWeeks = 16
    /// Epley's formula is a fair estimate up to about 10 reps, and drifts beyond.
    static let maxRepsForEstimate: UInt32 = 10

    /// Exercises in the order they first appear, those without any top set left out.
    let exercises: [Exercise]
    /// Whether each point is a week's top set (else a day's).
    let weekly: Bool

    init(_ sets: [HistorySet], earlier: [HistorySet], keys: ExerciseKeys, weeks: [USec], periods: inout LocalPeriods) {
        weekly = weeks.count > Self.dailyUpToWeeks
        var book = RecordBook()
        func beatsRecord(_ set: HistorySet) -> Bool {
            !book.add(
                exercise: set.exercise, key: set.exercise.lowercased(), atUSec: set.atUSec, weightKg: set.weightKg,
                reps: set.reps, failed: set.failed, warmup: set.warmup
            ).isEmpty
        }
        for set in earlier { _ = beatsRecord(set) }
        let records = sets.map(beatsRecord)
        var best: [Point?] = Array(repeating: nil, count: keys.names.count)
        var bestPeriod: [USec] = Array(repeating: 0, count: keys.names.count)
        var points: [[Point]] = Array(repeating: [], count: keys.names.count)
        for (position, set) in sets.enumerated() where !set.failed && (set.weightKg != nil || set.reps != nil) {
            let exercise = keys.ofSet[position]
            let period = weekly ? periods.weekStart(of: set.atUSec) : periods.dayStart(of: set.atUSec)
            let candidate = Point(
                atUSec: set.atUSec, weightKg: set.weightKg, reps: set.reps, isRecord: records[position])
            if let current = best[exercise], bestPeriod[exercise] == period {
                if Self.isHeavier(candidate, than: current) { best[exercise] = candidate }
            } else {
                if let current = best[exercise] { points[exercise].append(current) }
                best[exercise] = candidate
                bestPeriod[exercise] = period
            }
        }
        for exercise in best.indices { if let last = best[exercise] { points[exercise].append(last) } }
        exercises = keys.names.indices.compactMap { index in
            points[index].isEmpty ? nil : Exercise(name: keys.names[index], points: points[index])
        }
    }

    /// Heavier; as heavy with more reps. A set with a weight beats one without.
    static func isHeavier(_ a: Point, than b: Point) -> Bool {
        switch (a.weightKg, b.weightKg) {
        case (let x?, let y?) where x != y: x > y
        case (.some, nil): true
        case (nil, .some): false
        default: (a.reps ?? 0) > (b.reps ?? 0)
        }
    }
}

// MARK: - Rests

/// Five numbers of a spread of values: lowest, lower quartile, median, upper quartile, highest.
/// The median is `stats`' (the mean of the two middle values of an even count); the quartiles
/// are the medians of the halves below and above it (Tukey's hinges).
struct FiveNumbers: Equatable {
    var lowest, lowerQuartile, median, upperQuartile, highest: Double

    /// Of `values`; nil for none.
    init?(_ values: [Double]) {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let half = sorted.count / 2
        lowest = sorted[0]
        highest = sorted[sorted.count - 1]
        median = sorted.medianOfSorted ?? lowest
        // A single value is its own quartiles: its halves are empty.
        lowerQuartile = sorted[..<half].medianOfSorted ?? lowest
        upperQuartile = sorted[(sorted.count - half)...].medianOfSorted ?? highest
    }
}

/// One exercise's rests: planned against taken, the share run over, the rests skipped and the
/// rules that chose them. Rests are counted as `stats` counts them (`RestOutcome.isTaken`: ended
/// by the next set), skipped ones apart.
struct RestSpread {
    var exercise: String
    /// In seconds.
    var planned: FiveNumbers
    var taken: FiveNumbers
    var rests: Int
    var skipped: Int
    /// Taken at least `overrunMarginUSec` longer than planned.
    var overran: Int
    /// Which rule chose each rest (CompleteSet's rest_source), most used first.
    var sources: [(source: String, rests: Int)]

    /// A rest counts as run over from one whole second past its plan, as `history` shows it.
    static let overrunMarginUSec: UInt64 = 1_000_000

    static func spreads(_ sets: [HistorySet], keys: ExerciseKeys) -> [RestSpread] {
        var planned: [[Double]] = Array(repeating: [], count: keys.names.count)
        var taken: [[Double]] = Array(repeating: [], count: keys.names.count)
        var skipped = Array(repeating: 0, count: keys.names.count)
        var overran = Array(repeating: 0, count: keys.names.count)
        var sources: [[String: Int]] = Array(repeating: [:], count: keys.names.count)
        for (position, set) in sets.enumerated() {
            guard let rest = set.rest, let outcome = RestOutcome(rawValue: rest.outcome) else { continue }
            let exercise = keys.ofSet[position]
            if outcome == .skipped { skipped[exercise] += 1 }
            guard outcome.isTaken, let takenUSec = rest.takenUSec else { continue }
            planned[exercise].append(Double(rest.plannedUSec) / 1e6)
            taken[exercise].append(Double(takenUSec) / 1e6)
            if takenUSec >= rest.plannedUSec + overrunMarginUSec { overran[exercise] += 1 }
            sources[exercise][rest.source, default: 0] += 1
        }
        return keys.names.indices.compactMap { index in
            guard let plannedNumbers = FiveNumbers(planned[index]), let takenNumbers = FiveNumbers(taken[index])
            else { return nil }
            return RestSpread(
                exercise: keys.names[index], planned: plannedNumbers, taken: takenNumbers,
                rests: planned[index].count, skipped: skipped[index], overran: overran[index],
                sources: sources[index].map { ($0.key, $0.value) }.sorted { ($0.1, $1.0) > ($1.1, $0.0) })
        }.sorted { (ExerciseName.key(of: $0.exercise), $0.exercise) < (ExerciseName.key(of: $1.exercise), $1.exercise) }
    }
}

// MARK: - Recovery

/// Rests followed for recovery with a strap, week by week: HRR60 and the time to the target.
struct RecoveryModel {
    struct Week {
        var startUSec: USec
        var numbers: FiveNumbers
        var rests: Int
    }

    /// Weeks with an HRR60, oldest first; bpm.
    let hrr60: [Week]
    /// Weeks with a rest that reached its target, oldest first; seconds.
    let timeToTarget: [Week]
    /// Followed rests in the window.
    let followedRests: Int
    /// The median HRR60 over the whole window.
    let medianHRR60: Double?

    init(_ sets: [HistorySet], periods: inout LocalPeriods) {
        var hrr60: [(USec, [Double])] = []
        var timeToTarget: [(USec, [Double])] = []
        var followed = 0
        var all: [Double] = []
        func add(_ value: Double, week: USec, to weeks: inout [(USec, [Double])]) {
            if weeks.last?.0 == week { weeks[weeks.count - 1].1.append(value) } else { weeks.append((week, [value])) }
        }
        for set in sets {
            guard let recovery = set.rest?.recovery else { continue }
            followed += 1
            let week = periods.weekStart(of: set.atUSec)
            if let value = recovery.hrr60BPM {
                add(value, week: week, to: &hrr60)
                all.append(value)
            }
            if let usec = recovery.timeToTargetUSec { add(Double(usec) / 1e6, week: week, to: &timeToTarget) }
        }
        func weeks(_ values: [(USec, [Double])]) -> [Week] {
            values.compactMap { week, values in
                FiveNumbers(values).map { Week(startUSec: week, numbers: $0, rests: values.count) }
            }
        }
        self.hrr60 = weeks(hrr60)
        self.timeToTarget = weeks(timeToTarget)
        followedRests = followed
        medianHRR60 = FiveNumbers(all)?.median
    }
}

// MARK: - Workouts

/// One workout: restd's summary, and the sets done between its start and its end.
struct WorkoutSection {
    var summary: WorkoutSnapshot.Summary
    var sets: ArraySlice<HistorySet>

    /// The sets of each workout, found by time: a workout's sets are those from its start to its
    /// end (its last set ends it), as restd records them.
    static func sections(_ workouts: [WorkoutSnapshot.Summary], sets: [HistorySet]) -> [WorkoutSection] {
        workouts.map { summary in
            let first = sets.partitioningIndex { $0.atUSec >= summary.startedAtUSec }
            let end = sets[first...].partitioningIndex { $0.atUSec > summary.endedAtUSec }
            return WorkoutSection(summary: summary, sets: sets[first..<end])
        }
    }
}

extension Collection {
    /// The first index whose element satisfies `belongs`, which must be false then true along
    /// the collection (a binary search); `endIndex` when none does.
    func partitioningIndex(where belongs: (Element) -> Bool) -> Index {
        var low = startIndex
        var count = self.count
        while count > 0 {
            let half = count / 2
            let middle = index(low, offsetBy: half)
            if belongs(self[middle]) {
                count = half
            } else {
                low = index(after: middle)
                count -= half + 1
            }
        }
        return low
    }
}

// MARK: - Heart-rate curves

/// The followed rests of one local day, each with its heart rate second by second
/// (`HeartRateTrace`) and the set it followed.
struct CurveModel {
    struct Curve {
        var trace: HeartRateTrace
        /// The set the rest followed, nil when it is not among the report's sets.
        var set: HistorySet?
    }

    /// The first instant of the day drawn; nil when there is no trace to draw.
    let dayUSec: USec?
    let curves: [Curve]

    /// The traces of `day`'s local day (of the last trace's when nil) whose set is among `sets`
    /// (an `--exercise` report draws that exercise's rests only).
    init(_ traces: [HeartRateTrace], day: USec?, sets: [HistorySet]) {
        var byID: [Int64: HistorySet] = [:]
        if !traces.isEmpty {
            for set in sets { byID[set.id] = set }
        }
        let kept = traces.filter { byID[$0.setID] != nil }
        guard let anchor = day ?? kept.last?.startedAtUSec else {
            dayUSec = nil
            curves = []
            return
        }
        let start = LocalCalendar.startOfDay(containing: anchor)
        let end = LocalPeriods.nextDay(start)
        dayUSec = start
        curves = kept.filter { $0.startedAtUSec >= start && $0.startedAtUSec < end }.map {
            Curve(trace: $0, set: byID[$0.setID])
        }
    }
}
