import Localization

/// A set from another app's export (Strong, Hevy, FitNotes), as restctl read it and restd
/// stages it until the import is committed.
public struct ImportRow: Sendable, Equatable {
    /// The app it comes from, one of `HistoryImport.sources`.
    public var source: String
    /// The workout's start as the file writes it (a date alone where the file has no time of day).
    public var workoutStart: String
    /// Strong's workout name, Hevy's title; "" where the app has none (FitNotes).
    public var workoutName: String
    public var exercise: ExerciseName
    /// The set's place among the sets of its exercise in its workout, from 1.
    public var order: UInt32
    /// When it was done (CLOCK_REALTIME µs).
    public var atUSec: USec
    public var reps: UInt32?
    public var weightKg: Double?
    /// A warm-up set: kept and marked, never a failed set or a record.
    public var warmup: Bool
    public var failed: Bool
    /// The exercise's category in the app (FitNotes' Category); nil where it has none.
    public var category: String?

    public init(
        source: String, workoutStart: String, workoutName: String, exercise: ExerciseName, order: UInt32,
        atUSec: USec, reps: UInt32?, weightKg: Double?, warmup: Bool, failed: Bool, category: String? = nil
    ) {
        self.source = source
        self.workoutStart = workoutStart
        self.workoutName = workoutName
        self.exercise = exercise
        self.order = order
        self.atUSec = atUSec
        self.reps = reps
        self.weightKg = weightKg
        self.warmup = warmup
        self.failed = failed && !warmup
        self.category = category
    }

    /// What makes it the same set when a file is imported again: the app, the workout's start
    /// as written, the exercise as written and the set's order within the workout and exercise.
    public var key: String {
        Self.key(source: source, workoutStart: workoutStart, exercise: exercise.display, order: order)
    }

    /// The key of a set (fields joined by U+001F, which no field holds).
    public static func key(source: String, workoutStart: String, exercise: String, order: UInt32) -> String {
        [source, workoutStart, exercise, String(order)].joined(separator: "\u{1F}")
    }

    /// The workout it belongs to: its app, start and name.
    var workoutKey: String { [source, workoutStart, workoutName].joined(separator: "\u{1F}") }
}

/// An import of another app's history (`Command.importHistory`): every staged row, planned and
/// written at once, or only planned (`dryRun`), to say what it would add.
public struct HistoryImport: Sendable, Equatable {
    public var rows: [ImportRow]
    public var dryRun: Bool

    public init(rows: [ImportRow], dryRun: Bool) {
        self.rows = rows
        self.dryRun = dryRun
    }

    /// The apps whose exports are imported, as restctl's --from names them.
    public static let sources = ["strong", "hevy", "fitnotes"]
    /// The timer imported sets are recorded on: none of restd's own rests follows them.
    public static let timerID = try! TimerID(parsing: "import")
    /// The most sets one import holds: planned and written in one transaction on restd's loop,
    /// which does nothing else meanwhile, so that many must stay quick to commit (docs/
    /// PERFORMANCE.md, scenario 11). restctl sends a larger file as several imports, whole
    /// workouts each (`maxParts`).
    public static let maxRows = 5_000
    /// The most imports staged at once: a file of more than 100,000 sets (years of anyone's
    /// training) in parts of whole workouts, staged whole before the first part is committed.
    public static let maxParts = 24

    /// The span of local days the rows fall on (with a day more on each side, for a set placed
    /// at now), which the history is asked about; nil without rows.
    func span() -> (sinceUSec: USec, untilUSec: USec)? {
        guard let first = rows.lazy.map(\.atUSec).min(), let last = rows.lazy.map(\.atUSec).max() else { return nil }
        let since = LocalCalendar.startOfPreviousDay(before: first)
        let until = LocalCalendar.startOfDay(containing: last.addingSaturated(2 * 86_400_000_000))
        return (since, until)
    }
}

/// What the history holds where an import falls (`HistoryQuestions.importSpan`).
public struct ImportFacts: Sendable, Equatable {
    /// The keys of the sets imported before (`ImportRow.key`).
    public var importedKeys: Set<String>
    /// restd's own sets on those days.
    public var ownSets: [OwnSet]
    /// Every exercise restd knows: its name as first written, by key.
    public var exerciseNames: [String: String]

    /// One of restd's own sets, as an imported set is compared with it.
    public struct OwnSet: Sendable, Equatable {
        public var exerciseKey: String
        public var atUSec: USec
        public var reps: UInt32?
        public var weightKg: Double?

        public init(exerciseKey: String, atUSec: USec, reps: UInt32?, weightKg: Double?) {
            self.exerciseKey = exerciseKey
            self.atUSec = atUSec
            self.reps = reps
            self.weightKg = weightKg
        }
    }

    public init(importedKeys: Set<String> = [], ownSets: [OwnSet] = [], exerciseNames: [String: String] = [:]) {
        self.importedKeys = importedKeys
        self.ownSets = ownSets
        self.exerciseNames = exerciseNames
    }
}

/// What an import added, or would add (a dry run): CommitImport's reply.
public struct ImportOutcome: Sendable, Equatable {
    public var dryRun = false
    /// Sets added, warm-ups among them.
    public var setsAdded = 0
    public var warmupsAdded = 0
    public var workoutsAdded = 0
    /// Sets left out: imported before (same key), or already there as restd's own (the same
    /// exercise, reps and weight on the same local day).
    public var alreadyImported = 0
    public var alreadyRecorded = 0
    /// The exercises of the sets added, by the name restd keeps: new to restd, or matched to
    /// one it knew (case-insensitively).
    public var newExercises: [String] = []
    public var matchedExercises: [String] = []
    /// The span of the sets added.
    public var earliestUSec: USec?
    public var latestUSec: USec?

    public init() {}

    /// This outcome and that of the next part of the same file (committed after it): counts
    /// added; an exercise the first part brought is new, not one restd knew.
    public mutating func add(_ next: ImportOutcome) {
        setsAdded += next.setsAdded
        warmupsAdded += next.warmupsAdded
        workoutsAdded += next.workoutsAdded
        alreadyImported += next.alreadyImported
        alreadyRecorded += next.alreadyRecorded
        let new = Set(newExercises)
        newExercises += next.newExercises.filter { !new.contains($0) }
        let allNew = Set(newExercises)
        matchedExercises = Set(matchedExercises + next.matchedExercises).subtracting(allNew).sorted()
        earliestUSec = [earliestUSec, next.earliestUSec].compactMap { $0 }.min()
        latestUSec = [latestUSec, next.latestUSec].compactMap { $0 }.max()
    }
}

extension TrainingBook {
    /// Plans an import at `now`: each row not there yet becomes a set at its time, on the
    /// `import` timer, with ids after every set so far (ids say the order sets were recorded
    /// in; the history's reads order by time); each workout none of whose sets was imported
    /// before becomes a workout of the history. No rest is made up: rests stay the ones restd
    /// saw. Refused, with the `keep_days` that would keep them, when sets reach further back
    /// than the history is kept. A dry run plans the same and changes nothing.
    func planImport(_ request: HistoryImport, facts: ImportFacts, now: USec) throws(TimerError) -> ChangePlan {
        let cutoff = settings.historyCutoffUSec(now: now)
        if let earliest = request.rows.lazy.map(\.atUSec).min(), earliest < cutoff {
            let days = (now.subtractingSaturated(LocalCalendar.startOfDay(containing: earliest))) / 86_400_000_000 + 1
            let (keepDays, keepsDays) = ("[history] keep_days", settings.keepDays)
            guard let date = LocalCalendar.parts(of: earliest)?.dateText else {
                throw .limitExceeded(
                    localized(
                        "the file goes back before 1970, further than the %1$d days of history restd keeps (%2$s), which would delete those sets again; set %3$s = %4$d in config.toml and run 'restctl reload' to keep them",
                        keepsDays, keepDays, "keep_days", days))
            }
            throw .limitExceeded(
                localized(
                    "the file goes back to %1$s, further than the %2$d days of history restd keeps (%3$s), which would delete those sets again; set %4$s = %5$d in config.toml and run 'restctl reload' to keep them",
                    date, keepsDays, keepDays, "keep_days", days))
        }
        var outcome = ImportOutcome()
        outcome.dryRun = request.dryRun
        // restd's own sets, by exercise and local day: each stands for one imported set at most.
        var own: [OwnKey: Int] = [:]
        for set in facts.ownSets {
            own[
                OwnKey(set.exerciseKey, LocalCalendar.startOfDay(containing: set.atUSec), set.reps, set.weightKg),
                default: 0] += 1
        }
        // Time order, the file's order among equals: ids then grow with time within the import.
        let rows = request.rows.enumerated().sorted { ($0.element.atUSec, $0.offset) < ($1.element.atUSec, $1.offset) }
        var seenKeys: Set<String> = []
        var importedBefore: Set<String> = []
        var added: [(row: ImportRow, set: SetRecord, key: String)] = []
        var names = facts.exerciseNames
        var newNames: [String] = []
        var matchedNames: Set<String> = []
        var nextID = nextSetID
        for (_, row) in rows {
            let key = row.key
            guard seenKeys.insert(key).inserted else { continue }
            if facts.importedKeys.contains(key) {
                outcome.alreadyImported += 1
                importedBefore.insert(row.workoutKey)
                continue
            }
            let ownKey = OwnKey(
                row.exercise.key, LocalCalendar.startOfDay(containing: min(row.atUSec, now)), row.reps, row.weightKg)
            if let count = own[ownKey], count > 0 {
                own[ownKey] = count - 1
                outcome.alreadyRecorded += 1
                continue
            }
            let name: String
            if let known = names[row.exercise.key] {
                name = known
                if facts.exerciseNames[row.exercise.key] != nil { matchedNames.insert(known) }
            } else {
                name = row.exercise.display
                names[row.exercise.key] = name
                newNames.append(name)
            }
            var set = SetRecord(
                id: nextID, timerID: HistoryImport.timerID, atUSec: min(row.atUSec, now), exercise: name,
                exerciseKey: row.exercise.key, reps: row.reps, weightKg: row.weightKg, failed: row.failed)
            set.warmup = row.warmup
            nextID += 1
            added.append((row, set, key))
        }
        outcome.setsAdded = added.count
        outcome.warmupsAdded = added.count { $0.set.warmup }
        outcome.newExercises = newNames
        outcome.matchedExercises = matchedNames.sorted()
        outcome.earliestUSec = added.lazy.map(\.set.atUSec).min()
        outcome.latestUSec = added.lazy.map(\.set.atUSec).max()
        var history: [HistoryChange] = added.map { .setImported($0.set, importKey: $0.key) }
        // A workout of the file is one of the history's when none of its sets was imported before.
        var workouts: [String: (name: String, sets: [SetRecord])] = [:]
        var workoutOrder: [String] = []
        for (row, set, _) in added where !importedBefore.contains(row.workoutKey) {
            if workouts[row.workoutKey] == nil {
                workoutOrder.append(row.workoutKey)
                workouts[row.workoutKey] = (Self.workoutName(of: row), [])
            }
            workouts[row.workoutKey]!.sets.append(set)
        }
        for key in workoutOrder {
            let (name, sets) = workouts[key]!
            let counted = sets.filter { !$0.warmup }
            history.append(
                .workoutImported(
                    WorkoutSummary(
                        name: name, startedAtUSec: sets.first!.atUSec, endedAtUSec: sets.last!.atUSec,
                        setsPlanned: counted.count,
                        sets: counted.map { (reps: $0.reps.map(Int.init), weightKG: $0.weightKg) }, restsTakenUSec: [],
                        abandoned: false)))
        }
        outcome.workoutsAdded = workoutOrder.count
        // Each exercise's category as the file first gives it, from every row (a file imported
        // before categories were kept gives them now); the store keeps it only where the
        // exercise has none.
        var categorized: Set<String> = []
        for (_, row) in rows {
            guard let category = row.category, categorized.insert(row.exercise.key).inserted else { continue }
            history.append(.categoryImported(exerciseKey: row.exercise.key, category: category))
        }
        var plan = ChangePlan(history: request.dryRun ? [] : history)
        plan.imported = outcome
        // TRANSLATORS: what restd could not store, in its error "could not store %1$s: …".
        plan.what = localized("an import")
        return plan
    }

    /// An imported workout's name: the app's, else the app and the day ("FitNotes 2026-03-13").
    private static func workoutName(of row: ImportRow) -> String {
        guard row.workoutName.isEmpty else { return row.workoutName }
        let app =
            switch row.source {
            case "fitnotes": "FitNotes"
            case "hevy": "Hevy"
            default: "Strong"
            }
        return "\(app) \(row.workoutStart)"
    }

    /// An own set as an imported one is compared with it.
    private struct OwnKey: Hashable {
        var exerciseKey: String
        var dayStartUSec: USec
        var reps: UInt32?
        /// Hundredths of a kilogram: weights compare as history keeps them.
        var weight: Int64?

        init(_ exerciseKey: String, _ dayStartUSec: USec, _ reps: UInt32?, _ weightKg: Double?) {
            self.exerciseKey = exerciseKey
            self.dayStartUSec = dayStartUSec
            self.reps = reps
            weight = weightKg.map { Int64(($0 * 100).rounded()) }
        }
    }
}
