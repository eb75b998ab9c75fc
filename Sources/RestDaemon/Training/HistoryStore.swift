import Localization
import RestCore
import SQLiteKit

/// The history's statements, prepared once for the life of the connection with the timers' own.
struct HistoryStatements {
    let insertSet, countSet, upsertRest, rememberRest, pruneSets, pruneRests: SQLiteStatement
    let openRests, lastSetID, lastExercise, exercise, previousSet, setsInARow, bests: SQLiteStatement
    let setsBetween, restsBetween, exercises, statsRows: SQLiteStatement
    let importedKeys, ownSets: SQLiteStatement
    let saveWorkout, clearWorkout, insertSummary, loadWorkout, summaries, lastSummary: SQLiteStatement
    let insertHeartRate, pruneHeartRates, heartRatesBetween: SQLiteStatement
    let setByID, lastSet, setsOfExercise, deleteSet, deleteRest, deleteHeartRate: SQLiteStatement
    let uncountSet, forgetUncounted, countMovedSet, editSet, moveRest: SQLiteStatement
    let renameSets, renameRests, mergeExercise, forgetExercise, renameExercise: SQLiteStatement
    let rememberDeletedImport, pruneDeletedImports, categorize: SQLiteStatement

    init(_ database: SQLiteDatabase) throws(SQLiteError) {
        insertSet = try database.prepare(HistorySchema.insertSet)
        countSet = try database.prepare(HistorySchema.countSet)
        upsertRest = try database.prepare(HistorySchema.upsertRest)
        rememberRest = try database.prepare(HistorySchema.rememberRest)
        pruneSets = try database.prepare(HistorySchema.pruneSets)
        pruneRests = try database.prepare(HistorySchema.pruneRests)
        openRests = try database.prepare(HistorySchema.openRests)
        lastSetID = try database.prepare(HistorySchema.lastSetID)
        lastExercise = try database.prepare(HistorySchema.lastExercise)
        exercise = try database.prepare(HistorySchema.exercise)
        previousSet = try database.prepare(HistorySchema.previousSet)
        setsInARow = try database.prepare(HistorySchema.setsInARow)
        bests = try database.prepare(HistorySchema.bests)
        setsBetween = try database.prepare(HistorySchema.setsBetween)
        restsBetween = try database.prepare(HistorySchema.restsBetween)
        exercises = try database.prepare(HistorySchema.exercises)
        statsRows = try database.prepare(HistorySchema.statsRows)
        importedKeys = try database.prepare(HistorySchema.importedKeys)
        ownSets = try database.prepare(HistorySchema.ownSets)
        saveWorkout = try database.prepare(WorkoutSchema.saveWorkout)
        clearWorkout = try database.prepare(WorkoutSchema.clearWorkout)
        insertSummary = try database.prepare(WorkoutSchema.insertSummary)
        loadWorkout = try database.prepare(WorkoutSchema.loadWorkout)
        summaries = try database.prepare(WorkoutSchema.summaries)
        lastSummary = try database.prepare(WorkoutSchema.lastSummary)
        insertHeartRate = try database.prepare(HeartRateSchema.insert)
        pruneHeartRates = try database.prepare(HeartRateSchema.prune)
        heartRatesBetween = try database.prepare(HeartRateSchema.between)
        setByID = try database.prepare(HistorySchema.setByID)
        lastSet = try database.prepare(HistorySchema.lastSet)
        setsOfExercise = try database.prepare(HistorySchema.setsOfExercise)
        deleteSet = try database.prepare(HistorySchema.deleteSet)
        deleteRest = try database.prepare(HistorySchema.deleteRest)
        deleteHeartRate = try database.prepare(HeartRateSchema.delete)
        uncountSet = try database.prepare(HistorySchema.uncountSet)
        forgetUncounted = try database.prepare(HistorySchema.forgetUncounted)
        countMovedSet = try database.prepare(HistorySchema.countMovedSet)
        editSet = try database.prepare(HistorySchema.editSet)
        moveRest = try database.prepare(HistorySchema.moveRest)
        renameSets = try database.prepare(HistorySchema.renameSets)
        renameRests = try database.prepare(HistorySchema.renameRests)
        mergeExercise = try database.prepare(HistorySchema.mergeExercise)
        forgetExercise = try database.prepare(HistorySchema.forgetExercise)
        renameExercise = try database.prepare(HistorySchema.renameExercise)
        rememberDeletedImport = try database.prepare(HistorySchema.rememberDeletedImport)
        pruneDeletedImports = try database.prepare(HistorySchema.pruneDeletedImports)
        categorize = try database.prepare(HistorySchema.categorize)
    }

    /// One row written by a history change.
    enum Write {
        case insertSet([SQLiteValue]), countSet([SQLiteValue]), upsertRest([SQLiteValue]), rememberRest([SQLiteValue])
        case saveWorkout([SQLiteValue]), endWorkout(summary: [SQLiteValue]), discardWorkout
        case insertSummary([SQLiteValue])
        case keepHeartRate([SQLiteValue], pruneBefore: SQLiteValue)
        case deleteSet(id: SQLiteValue, exerciseKey: SQLiteValue)
        case editSet([SQLiteValue], movedFrom: SQLiteValue?, movedAt: SQLiteValue)
        case renameExercise(fromKey: SQLiteValue, to: SQLiteValue, toKey: SQLiteValue)
        case categorize([SQLiteValue])
    }

    /// The rows for a change, made before the transaction (a value that cannot be stored fails
    /// the whole batch without touching the file).
    static func writes(for change: HistoryChange) throws(StoreError) -> [Write] {
        switch change {
        case .setRecorded(let set):
            return try setWrites(set, importKey: nil)
        case .setImported(let set, let key):
            return try setWrites(set, importKey: key)
        case .workoutImported(let summary):
            return [.insertSummary(try summaryValues(summary))]
        case .categoryImported(let key, let category):
            return [.categorize([.text(key), .text(category)])]
        case .restOpen(let rest):
            return [.upsertRest(try values(rest))]
        case .restEnded(let rest) where rest.isRemembered:
            return [
                .upsertRest(try values(rest)),
                .rememberRest([try integer(rest.finalUSec(limits: .standard)), .text(rest.exerciseKey)]),
            ]
        case .restEnded(let rest):
            return [.upsertRest(try values(rest))]
        case .workoutSaved(let workout):
            let progress = workout.progress
            return [
                .saveWorkout([
                    .text(workout.name), .text(workout.planText), .text(workout.planSource),
                    .integer(Int64(progress.position)), .integer(Int64(progress.setsDone)),
                    try integer(progress.startedAtUSec), try integer(workout.touchedAtUSec),
                ])
            ]
        case .workoutDiscarded:
            return [.discardWorkout]
        case .heartRateKept(let trace, let pruneBeforeUSec):
            return [.keepHeartRate(try HeartRateSchema.values(trace), pruneBefore: try integer(pruneBeforeUSec))]
        case .setsDeleted(let sets):
            return sets.map { .deleteSet(id: .integer($0.id), exerciseKey: .text($0.exerciseKey)) }
        case .setEdited(let old, let new):
            return [
                .editSet(
                    [
                        .integer(new.id), .text(new.exercise), .text(new.exerciseKey),
                        new.reps.map { .integer(Int64($0)) } ?? .null, new.weightKg.map { .real($0) } ?? .null,
                        .integer(new.failed ? 1 : 0),
                    ], movedFrom: old.exerciseKey == new.exerciseKey ? nil : .text(old.exerciseKey),
                    movedAt: try integer(new.atUSec))
            ]
        case .exerciseRenamed(let fromKey, let name, let toKey):
            return [.renameExercise(fromKey: .text(fromKey), to: .text(name), toKey: .text(toKey))]
        case .workoutEnded(let summary):
            return [.endWorkout(summary: try summaryValues(summary))]
        }
    }

    /// A set's row (`HistorySchema.columns["sets"]`), and its count for its exercise.
    private static func setWrites(_ set: SetRecord, importKey: String?) throws(StoreError) -> [Write] {
        [
            .insertSet([
                .integer(set.id), .text(set.timerID.rawValue), try integer(set.atUSec), .text(set.exercise),
                .text(set.exerciseKey), set.reps.map { .integer(Int64($0)) } ?? .null,
                set.weightKg.map { .real($0) } ?? .null, .integer(set.failed ? 1 : 0), .integer(set.warmup ? 1 : 0),
                importKey.map { .text($0) } ?? .null,
            ]),
            .countSet([.text(set.exerciseKey), .text(set.exercise), try integer(set.atUSec)]),
        ]
    }

    private static func summaryValues(_ summary: WorkoutSummary) throws(StoreError) -> [SQLiteValue] {
        [
            .text(summary.name), try integer(summary.startedAtUSec), try integer(summary.endedAtUSec),
            .integer(Int64(summary.setsDone)), .integer(Int64(summary.setsPlanned)), .real(summary.volumeKG),
            try integer(summary.totalRestUSec), try integer(summary.medianRestUSec),
            .integer(summary.abandoned ? Int64(1) : 0),
        ]
    }

    func run(_ writes: [Write], pruneBeforeUSec: USec?) throws(SQLiteError) {
        for write in writes {
            switch write {
            case .insertSet(let values): try insertSet.run(values)
            case .countSet(let values): try countSet.run(values)
            case .upsertRest(let values): try upsertRest.run(values)
            case .rememberRest(let values): try rememberRest.run(values)
            case .saveWorkout(let values): try saveWorkout.run(values)
            case .endWorkout(let summary):
                try clearWorkout.run([])
                try insertSummary.run(summary)
            case .discardWorkout:
                try clearWorkout.run([])
            case .insertSummary(let summary):
                try insertSummary.run(summary)
            case .keepHeartRate(let values, let cutoff):
                try pruneHeartRates.run([cutoff])
                try insertHeartRate.run(values)
            case .deleteSet(let id, let key):
                try rememberDeletedImport.run([id])
                try deleteSet.run([id])
                try deleteRest.run([id])
                try deleteHeartRate.run([id])
                try uncountSet.run([key])
                try forgetUncounted.run([key])
            case .editSet(let values, let movedFrom, let movedAt):
                try editSet.run(values)
                try moveRest.run([values[0], values[1], values[2]])
                if let movedFrom {
                    try uncountSet.run([movedFrom])
                    try forgetUncounted.run([movedFrom])
                    try countMovedSet.run([values[2], values[1], movedAt])
                }
            case .renameExercise(let fromKey, let name, let toKey):
                try renameSets.run([fromKey, name, toKey])
                try renameRests.run([fromKey, name, toKey])
                try mergeExercise.run([fromKey, name, toKey])
                try forgetExercise.run([fromKey, toKey])
                try renameExercise.run([toKey, name])
            case .categorize(let values):
                try categorize.run(values)
            }
        }
        if let pruneBeforeUSec, let cutoff = Int64(exactly: pruneBeforeUSec) {
            try pruneSets.run([.integer(cutoff)])
            try pruneRests.run([.integer(cutoff)])
            try pruneHeartRates.run([.integer(cutoff)])
            try pruneDeletedImports.run([.integer(cutoff)])
        }
    }

    private static func integer(_ usec: USec) throws(StoreError) -> SQLiteValue {
        guard let value = Int64(exactly: usec) else {
            throw StoreError(description: localized("time %1$d is out of range", usec))
        }
        return .integer(value)
    }

    private static func values(_ rest: RestRecord) throws(StoreError) -> [SQLiteValue] {
        [
            .integer(rest.setID), .text(rest.timerID.rawValue), .text(rest.exercise), .text(rest.exerciseKey),
            try integer(rest.startedAtUSec), try integer(rest.plannedUSec), .text(rest.source),
            .integer(rest.adjustUSec),
            try integer(rest.pausedUSec), try integer(rest.pausedAtUSec),
            rest.outcome.map { .text($0.rawValue) } ?? .null,
            try integer(rest.endedAtUSec), try integer(rest.takenUSec),
            .text(rest.rrIntervalsMS.map(String.init).joined(separator: ",")),
        ] + recoveryValues(rest.recovery)
    }

    /// The recovery columns (`HistorySchema.recoveryColumns`) of a rest; all NULL without one.
    private static func recoveryValues(_ metrics: RecoveryMetrics?) -> [SQLiteValue] {
        guard let metrics else { return Array(repeating: .null, count: HistorySchema.recoveryColumns.count) }
        func real(_ value: Double?) -> SQLiteValue { value.flatMap { $0.isFinite ? .real($0) : nil } ?? .null }
        return [
            real(metrics.setEndBPM), real(metrics.peakBPM),
            metrics.peakAfterUSec.flatMap(Int64.init(exactly:)).map { .integer($0) } ?? .null,
            real(metrics.bpmAfter30s), real(metrics.bpmAfter60s),
            real(metrics.bpmAfter120s), real(metrics.hrr60BPM),
            metrics.timeToTargetUSec.flatMap(Int64.init(exactly:)).map { .integer($0) } ?? .null,
            real(metrics.minimumBPM), real(metrics.coverage), real(metrics.rmssdMilliseconds),
            .integer(Int64(metrics.rmssdBeats)), real(metrics.rmssdRejectedShare),
        ]
    }

    /// A rest's recovery from the row's recovery columns, `HistorySchema.recoveryColumns` in
    /// order from column `first`; nil when it was not followed (`rmssd_beats` NULL). A value of
    /// the wrong type reads as nil.
    static func recovery(from row: SQLiteStatement, first: Int32) -> RecoveryMetrics? {
        guard let beats = row.column(first + 11).integer, let beatCount = Int(exactly: beats) else { return nil }
        func real(_ index: Int32) -> Double? { row.real(first + index) }
        func usec(_ index: Int32) -> USec? { row.usec(first + index) }
        return RecoveryMetrics(
            setEndBPM: real(0), peakBPM: real(1), peakAfterUSec: usec(2), bpmAfter30s: real(3), bpmAfter60s: real(4),
            bpmAfter120s: real(5), hrr60BPM: real(6), timeToTargetUSec: usec(7), minimumBPM: real(8),
            coverage: real(9), rmssdMilliseconds: real(10), rmssdBeats: beatCount, rmssdRejectedShare: real(12))
    }

    /// A rest from the current row of a query of `rests` (columns in `HistorySchema.columns["rests"]`
    /// order), decoded without trusting it; nil for a row that does not make one.
    static func rest(from row: SQLiteStatement) -> RestRecord? {
        func value(_ index: Int32) -> SQLiteValue { row.column(index) }
        func usec(_ index: Int32) -> USec? { row.usec(index) }
        guard row.columnCount == 14 + HistorySchema.recoveryColumns.count, let setID = value(0).integer,
            let rawID = value(1).text,
            let id = try? TimerID(parsing: rawID),
            let exercise = value(2).text, let key = value(3).text, let started = usec(4), let planned = usec(5),
            let source = value(6).text, let adjust = value(7).integer, let paused = usec(8), let pausedAt = usec(9),
            let ended = usec(11), let taken = usec(12)
        else { return nil }
        let outcome = value(10).text.flatMap(RestOutcome.init(rawValue:))
        let rr = (value(13).text ?? "").split(separator: ",").compactMap { UInt16($0) }
        return RestRecord(
            setID: setID, timerID: id, exercise: exercise, exerciseKey: key, startedAtUSec: started,
            plannedUSec: planned, source: source, adjustUSec: adjust, pausedUSec: paused,
            pausedAtUSec: pausedAt, outcome: outcome, endedAtUSec: ended, takenUSec: taken, rrIntervalsMS: rr,
            recovery: recovery(from: row, first: 14))
    }

    /// A set from the current row of a query of `HistorySchema.setColumns`, decoded without
    /// trusting it; nil for a row that does not make a set.
    static func set(from row: SQLiteStatement) -> SetRecord? {
        guard let id = row.column(0).integer, let timer = row.column(1).text.flatMap({ try? TimerID(parsing: $0) }),
            let at = row.usec(2), let exercise = row.column(3).text
        else { return nil }
        let reps = row.column(4).integer.flatMap(UInt32.init(exactly:))
        return SetRecord(
            id: id, timerID: timer, atUSec: at, exercise: exercise, exerciseKey: ExerciseName.key(of: exercise),
            reps: reps, weightKg: row.real(5), failed: row.column(6).integer == 1)
    }

    /// A set and the rest that followed it from the current row of `setsBetween`, decoded
    /// without trusting it; nil for a row that does not make a set.
    static func setRow(from row: SQLiteStatement) -> HistorySetRow? {
        func value(_ index: Int32) -> SQLiteValue { row.column(index) }
        func usec(_ index: Int32) -> USec? { row.usec(index) }
        guard let id = value(0).integer, let timer = value(1).text.flatMap({ try? TimerID(parsing: $0) }),
            let at = usec(2), let exercise = value(3).text
        else { return nil }
        // Reps no set can have (a damaged file) read as none, as SetRows would send them.
        let reps = value(4).integer.flatMap(UInt32.init(exactly:)).flatMap { $0 <= SetInput.maxReps ? $0 : nil }
        var set = SetRecord(
            id: id, timerID: timer, atUSec: at, exercise: exercise, exerciseKey: ExerciseName.key(of: exercise),
            reps: reps, weightKg: row.real(5), failed: value(6).integer == 1)
        set.warmup = value(14 + Int32(HistorySchema.recoveryColumns.count)).integer == 1
        var rest: RestRecord?
        if let planned = usec(7) {
            rest = RestRecord(
                setID: id, timerID: timer, exercise: exercise, exerciseKey: set.exerciseKey,
                startedAtUSec: at, plannedUSec: planned, source: value(10).text ?? "",
                adjustUSec: value(8).integer ?? 0, pausedUSec: usec(9) ?? 0,
                outcome: value(11).text.flatMap(RestOutcome.init(rawValue:)),
                endedAtUSec: usec(13) ?? 0, takenUSec: usec(12) ?? 0,
                recovery: recovery(from: row, first: 14))
        }
        return HistorySetRow(set: set, rest: rest)
    }
}

/// One set with the rest that followed it, as Sets and SetRows return it.
struct HistorySetRow {
    var set: SetRecord
    var rest: RestRecord?
}

extension SQLiteStatement {
    /// A column of µs: nil when NULL, of another type, or negative.
    fileprivate func usec(_ index: Int32) -> USec? { column(index).integer.flatMap(USec.init(exactly:)) }

    /// A column of a real number, which SQLite may hold as an integer (100 kg): nil when NULL.
    fileprivate func real(_ index: Int32) -> Double? {
        switch column(index) {
        case .real(let value): value
        case .integer(let value): Double(value)
        default: nil
        }
    }
}

extension StateStore {
    /// The most rows one history query returns; more is refused (the caller pages).
    static let maxHistoryRows = 100_000

    /// The rests in progress, and the id of the last set: what `TrainingBook` starts from.
    func loadTraining() throws(StoreError) -> (openRests: [RestRecord], lastSetID: Int64) {
        try reading { statements throws(SQLiteError) in
            try statements.openRests.bind([])
            var rests: [RestRecord] = []
            while try statements.openRests.step() {
                if let rest = HistoryStatements.rest(from: statements.openRests) { rests.append(rest) }
            }
            let last = try Self.all(statements.lastSetID, []).first?.first?.integer ?? 0
            return (rests, last)
        }
    }

    /// The workout in progress as stored, nil when none.
    func loadWorkout() throws(StoreError) -> StoredWorkout? {
        try reading { statements throws(SQLiteError) in
            guard let row = try Self.all(statements.loadWorkout, []).first,
                let name = row[0].text, let text = row[1].text, let source = row[2].text,
                let position = row[3].integer.flatMap(Int.init(exactly:)),
                let done = row[4].integer.flatMap(Int.init(exactly:)),
                let started = row[5].integer.flatMap(USec.init(exactly:)),
                let touched = row[6].integer.flatMap(USec.init(exactly:))
            else { return nil }
            return StoredWorkout(
                name: name, planText: text, planSource: source, position: position, setsDone: done,
                startedAtUSec: started, touchedAtUSec: touched)
        }
    }

    /// The sets done and rests ended in [since, until): what a workout's summary is made of.
    func workoutSoFar(since: USec, until: USec) throws(StoreError) -> WorkoutSoFar {
        // A plan holds at most 100 × 100 sets.
        let rows = try sets(since: since, until: until, exerciseKey: "", limit: 20_000).rows
        return WorkoutSoFar(
            sets: rows.map { (reps: $0.set.reps.map(Int.init), weightKG: $0.set.weightKg) },
            restsTakenUSec: rows.compactMap { $0.rest?.outcome == nil ? nil : $0.rest?.takenUSec })
    }

    /// The summaries of workouts that ended in [since, until), oldest first, at most `limit`.
    func workoutSummaries(since: USec, until: USec, limit: Int) throws(StoreError) -> [WorkoutSummary] {
        try reading { statements throws(SQLiteError) in
            let bounds: [SQLiteValue] = [
                .integer(Int64(clamping: since)), .integer(Int64(clamping: until)), .integer(Int64(limit)),
            ]
            return try Self.all(statements.summaries, bounds).compactMap(Self.summary)
        }
    }

    /// The workout that ended last, nil when none did.
    func lastWorkoutSummary() throws(StoreError) -> WorkoutSummary? {
        try reading { statements throws(SQLiteError) in
            try Self.all(statements.lastSummary, []).first.flatMap(Self.summary)
        }
    }

    /// A summary from a row of `WorkoutSchema.summaries`, nil for a row that does not make one.
    private static func summary(_ row: [SQLiteValue]) -> WorkoutSummary? {
        func usec(_ index: Int) -> USec? { row[index].integer.flatMap(USec.init(exactly:)) }
        guard let name = row[0].text, let started = usec(1), let ended = usec(2),
            let done = row[3].integer.flatMap(Int.init(exactly:)),
            let planned = row[4].integer.flatMap(Int.init(exactly:)), let total = usec(6),
            let median = usec(7)
        else { return nil }
        let volume: Double = if case .real(let kg) = row[5] { kg } else { row[5].integer.map(Double.init) ?? 0 }
        return WorkoutSummary(
            name: name, startedAtUSec: started, endedAtUSec: ended, setsDone: done, setsPlanned: planned,
            volumeKG: volume, totalRestUSec: total, medianRestUSec: median, abandoned: row[8].integer == 1)
    }

    /// What the history holds in [since, until) for an import: the keys imported before, restd's
    /// own sets, and every exercise's name.
    func importFacts(since: USec, until: USec) throws(StoreError) -> ImportFacts {
        let names = Dictionary(try exercises().map { ($0.key, $0.name) }, uniquingKeysWith: { first, _ in first })
        return try reading { statements throws(SQLiteError) in
            let bounds: [SQLiteValue] = [.integer(Int64(clamping: since)), .integer(Int64(clamping: until))]
            var facts = ImportFacts(exerciseNames: names)
            try statements.importedKeys.bind(bounds)
            while try statements.importedKeys.step() {
                if let key = statements.importedKeys.column(0).text { facts.importedKeys.insert(key) }
            }
            let own = statements.ownSets
            try own.bind(bounds)
            while try own.step() {
                guard let key = own.column(0).text, let at = own.usec(1) else { continue }
                facts.ownSets.append(
                    ImportFacts.OwnSet(
                        exerciseKey: key, atUSec: at, reps: own.column(2).integer.flatMap(UInt32.init(exactly:)),
                        weightKg: own.real(3)))
            }
            return facts
        }
    }

    /// The exercise of the last set on `timer`, nil when it has none.
    func lastExercise(timer: TimerID) throws(StoreError) -> String? {
        try reading { statements throws(SQLiteError) in
            try Self.all(statements.lastExercise, [.text(timer.rawValue)]).first?.first?.text
        }
    }

    /// What the history knows of `name`, with its sets since `dayStartUSec` and its bests at
    /// `weightKg` (nil: the weight of its previous set, which a set without one repeats).
    func facts(_ name: ExerciseName, dayStartUSec: USec, weightKg: Double?) throws(StoreError) -> ExerciseFacts {
        try reading { statements throws(SQLiteError) in
            let row = try Self.all(statements.exercise, [.text(name.key)]).first
            let inARow = try Self.all(
                statements.setsInARow, [.text(name.key), .integer(Int64(clamping: dayStartUSec))])
            let previous = try Self.all(statements.previousSet, [.text(name.key)]).first
            // Only values a set may have: a file edited by hand must not make the next set refused.
            let reps = previous?[0].integer.flatMap(UInt32.init(exactly:)).flatMap {
                $0 <= SetInput.maxReps ? $0 : nil
            }
            let weight: Double? =
                switch previous?[1] {
                case .real(let kg)?: kg
                case .integer(let kg)?: Double(kg)
                default: nil
                }
            let previousWeight = weight.flatMap { $0.isFinite && $0 >= 0 && $0 <= SetInput.maxWeightKg ? $0 : nil }
            let atWeight: SQLiteValue = (weightKg ?? previousWeight).map { .real($0) } ?? .null
            let best = try Self.all(statements.bests, [.text(name.key), atWeight]).first
            let bests = ExerciseBests(
                heaviestKg: best.flatMap { Self.kilograms($0[0]) },
                bestEstimateKg: best.flatMap { Self.kilograms($0[1]) },
                mostRepsAtWeight: best?[2].integer.flatMap(UInt32.init(exactly:)))
            return ExerciseFacts(
                firstWritten: row?[0].text, lastRestUSec: row?[1].integer.flatMap(USec.init(exactly:)),
                setsInARow: Int(inARow.first?.first?.integer ?? 0), previousReps: reps,
                previousWeightKg: previousWeight, bests: bests)
        }
    }

    /// A number of kilograms as SQLite returns it (a whole REAL may come back as an integer).
    private static func kilograms(_ value: SQLiteValue) -> Double? {
        switch value {
        case .real(let kg): kg.isFinite ? kg : nil
        case .integer(let kg): Double(kg)
        default: nil
        }
    }

    /// Sets done in [since, until), each with the rest that followed it, oldest first; at most
    /// `limit` (1…`maxHistoryRows`), and whether more match.
    func sets(
        since: USec, until: USec, exerciseKey: String, limit: Int
    ) throws(StoreError)
        -> (rows: [HistorySetRow], more: Bool)
    {
        try query(
            \.setsBetween, since: since, until: until, exerciseKey: exerciseKey, limit: limit,
            row: HistoryStatements.setRow(from:))
    }

    /// Rests started in [since, until), oldest first, limited like `sets`.
    func rests(
        since: USec, until: USec, exerciseKey: String, limit: Int
    ) throws(StoreError)
        -> (rows: [RestRecord], more: Bool)
    {
        try query(
            \.restsBetween, since: since, until: until, exerciseKey: exerciseKey, limit: limit,
            row: HistoryStatements.rest(from:))
    }

    /// Every exercise restd remembers: key, name, last rest, sets, last seen, imported category.
    func exercises() throws(StoreError) -> [(
        key: String, name: String, lastRestUSec: USec?, sets: Int, lastSeenUSec: USec, category: String?
    )] {
        try reading { statements throws(SQLiteError) in
            try Self.all(statements.exercises, []).compactMap { row in
                guard let key = row[0].text, let name = row[1].text, let sets = row[3].integer,
                    let seen = row[4].integer.flatMap(USec.init(exactly:))
                else { return nil }
                return (key, name, row[2].integer.flatMap(USec.init(exactly:)), Int(sets), seen, row[5].text)
            }
        }
    }

    /// Stats of every set in [since, until) with its rest, read one row at a time.
    func stats(since: USec, until: USec, exerciseKey: String) throws(StoreError) -> [ExerciseStats] {
        try reading { statements throws(SQLiteError) in
            let select = statements.statsRows
            try select.bind([.integer(Int64(clamping: since)), .integer(Int64(clamping: until)), .text(exerciseKey)])
            var accumulator = ExerciseStats.Accumulator()
            while try select.step() {
                // The rest it ran with, clamped as on the bus (a sub past zero leaves 1 s).
                let planned = select.column(2).integer.flatMap(USec.init(exactly:)).map { chosen in
                    RestRecord.finalUSec(chosen: chosen, adjustUSec: select.column(3).integer ?? 0, limits: .standard)
                }
                accumulator.add(
                    exerciseKey: select.column(0).text ?? "", exercise: select.column(1).text ?? "",
                    plannedUSec: planned, takenUSec: select.column(4).integer.flatMap(USec.init(exactly:)),
                    outcome: select.column(5).text.flatMap(RestOutcome.init(rawValue:)),
                    recovery: Self.recoveryStatsInput(
                        startedAt: select.column(6), timeToTarget: select.column(7), hrr60: select.column(8),
                        beats: select.column(9)))
            }
            return accumulator.result()
        }
    }

    /// A followed rest's recovery as stats read it; nil for one not followed (`rmssd_beats` NULL).
    private static func recoveryStatsInput(
        startedAt: SQLiteValue, timeToTarget: SQLiteValue, hrr60: SQLiteValue, beats: SQLiteValue
    ) -> RecoveryStatsInput? {
        guard beats.integer != nil, let started = startedAt.integer.flatMap(USec.init(exactly:)) else { return nil }
        let drop: Double? =
            switch hrr60 {
            case .real(let value): value
            case .integer(let value): Double(value)
            default: nil
            }
        return RecoveryStatsInput(
            startedAtUSec: started, timeToTargetUSec: timeToTarget.integer.flatMap(USec.init(exactly:)),
            hrr60BPM: drop)
    }

    /// The rows of a window query (since, until, exercise key, limit + 1 bound), each read
    /// straight from the statement by `row` (a row it cannot read is left out): at most `limit`
    /// (1…`maxHistoryRows`), and whether more match.
    private func query<Row>(
        _ statement: KeyPath<HistoryStatements, SQLiteStatement>, since: USec, until: USec, exerciseKey: String,
        limit: Int, row: (SQLiteStatement) -> Row?
    ) throws(StoreError) -> (rows: [Row], more: Bool) {
        let cap = min(max(limit, 1), Self.maxHistoryRows)
        return try reading { statements throws(SQLiteError) in
            let select = statements[keyPath: statement]
            try select.bind([
                .integer(Int64(clamping: since)), .integer(Int64(clamping: until)), .text(exerciseKey),
                .integer(Int64(cap + 1)),
            ])
            // Left on the row past the limit, the statement would hold its read open.
            defer { select.reset() }
            var rows: [Row] = []
            var read = 0
            while try select.step() {
                read += 1
                guard read <= cap else { return (rows, true) }
                if let decoded = row(select) { rows.append(decoded) }
            }
            return (rows, false)
        }
    }

    func reading<T>(_ body: (HistoryStatements) throws(SQLiteError) -> T) throws(StoreError) -> T {
        do {
            return try body(try openStatements().history)
        } catch {
            throw StoreError(description: localized("could not read the history in %1$s: %2$s", path, error.reason))
        }
    }

    static func all(
        _ statement: SQLiteStatement, _ values: [SQLiteValue]
    ) throws(SQLiteError) -> [[SQLiteValue]] {
        try statement.bind(values)
        var rows: [[SQLiteValue]] = []
        while try statement.step() { rows.append(statement.columns()) }
        return rows
    }
}
