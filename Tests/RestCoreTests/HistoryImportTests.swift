import Testing

@testable import RestCore

/// An import planned in the core: which sets it adds and with which ids and times, what counts as
/// there already, the workouts it adds, a dry run, and keep_days. The history's facts are given by
/// hand; days are the local days of the process's zone, whatever it is, computed from a fixed instant.
@Suite struct HistoryImportTests {
    static let day: USec = 86_400_000_000
    static let hour: USec = 3_600_000_000
    /// 2026-06-15 12:00:00 UTC: the planning's now (the core reads no clock).
    static let now = Instant(realtime: 1_781_524_800_000_000, boottime: 5_000_000_000)
    /// The start of the local day three days before now.
    static let dayStart = LocalCalendar.startOfDay(containing: now.realtime - 3 * day)

    static func row(
        _ exercise: String, order: UInt32, at: USec, reps: UInt32? = 5, kg: Double? = 100, warmup: Bool = false,
        failed: Bool = false, workout: String = "2026-06-12 18:00:00", name: String = "Leg Day"
    ) -> ImportRow {
        ImportRow(
            source: "strong", workoutStart: workout, workoutName: name, exercise: try! ExerciseName(parsing: exercise),
            order: order, atUSec: at, reps: reps, weightKg: kg, warmup: warmup, failed: failed)
    }

    static func plan(
        _ rows: [ImportRow], facts: ImportFacts = ImportFacts(), dryRun: Bool = false,
        training: TrainingBook = TrainingBook(lastSetID: 10)
    ) throws(TimerError) -> ChangePlan {
        var history = HistoryFacts()
        history.imported = facts
        return try training.plan(
            .importHistory(HistoryImport(rows: rows, dryRun: dryRun)), timers: TimerBook(), facts: history, now: now)
    }

    static func sets(_ plan: ChangePlan) -> [SetRecord] {
        plan.history.compactMap { if case .setImported(let set, _) = $0 { set } else { nil } }
    }

    static func workouts(_ plan: ChangePlan) -> [WorkoutSummary] {
        plan.history.compactMap { if case .workoutImported(let summary) = $0 { summary } else { nil } }
    }

    @Test func setsGetTheirOwnTimesAndIdsAfterEveryOtherSet() throws {
        let rows = [
            Self.row("Squat", order: 2, at: Self.dayStart + 19 * Self.hour),
            Self.row(
                "Squat", order: 1, at: Self.dayStart + 18 * Self.hour, reps: 10, kg: 40, warmup: true, failed: true),
            Self.row("Bench", order: 1, at: Self.dayStart + 20 * Self.hour, reps: 3, kg: 80, failed: true),
            Self.row(
                "Squat", order: 1, at: Self.dayStart + Self.day + 9 * Self.hour, workout: "2026-06-13 09:00:00",
                name: "Morning"),
        ]
        let plan = try Self.plan(rows, facts: ImportFacts(exerciseNames: ["bench": "BENCH"]))
        let sets = Self.sets(plan)
        // Time order: the warm-up first; ids after the last set restd had (10).
        #expect(sets.map(\.id) == [11, 12, 13, 14])
        #expect(sets.map(\.atUSec) == rows.map(\.atUSec).sorted())
        #expect(sets.allSatisfy { $0.timerID == HistoryImport.timerID && $0.timerID.rawValue == "import" })
        #expect(sets.map(\.exercise) == ["Squat", "Squat", "BENCH", "Squat"])
        #expect(sets.map(\.warmup) == [true, false, false, false])
        // A warm-up is never a failed set.
        #expect(sets.map(\.failed) == [false, false, true, false])
        let keys = plan.history.compactMap { if case .setImported(_, let key) = $0 { key } else { nil } }
        #expect(keys.first == "strong\u{1F}2026-06-12 18:00:00\u{1F}Squat\u{1F}1")
        // Each workout summed up without its warm-ups; no rest is made up.
        #expect(Self.workouts(plan).map(\.name) == ["Leg Day", "Morning"])
        #expect(Self.workouts(plan).map(\.setsDone) == [2, 1])
        #expect(Self.workouts(plan).first?.volumeKG == 740.0)
        #expect(Self.workouts(plan).first?.totalRestUSec == 0)
        #expect(!plan.history.contains { if case .restOpen = $0 { true } else { false } })
        let outcome = try #require(plan.imported)
        #expect(outcome.setsAdded == 4 && outcome.warmupsAdded == 1 && outcome.workoutsAdded == 2)
        #expect(outcome.newExercises == ["Squat"] && outcome.matchedExercises == ["BENCH"])
        #expect(outcome.earliestUSec == Self.dayStart + 18 * Self.hour)
        #expect(outcome.latestUSec == Self.dayStart + Self.day + 9 * Self.hour)

        // Applied, the next set restd records comes after them.
        var training = TrainingBook(lastSetID: 10)
        training.apply(plan.history)
        #expect(training.nextSetID == 15)
    }

    @Test func whatIsThereAlreadyIsLeftOut() throws {
        let first = Self.row("Squat", order: 1, at: Self.dayStart + 18 * Self.hour)
        let rows = [
            first,
            Self.row("Squat", order: 2, at: Self.dayStart + 19 * Self.hour),
            Self.row("Squat", order: 3, at: Self.dayStart + 20 * Self.hour),
            Self.row("Squat", order: 4, at: Self.dayStart + 21 * Self.hour, reps: 4),
            // Another workout, on the next day: new, and added whole.
            Self.row(
                "Squat", order: 1, at: Self.dayStart + Self.day + 9 * Self.hour, workout: "2026-06-13 09:00:00",
                name: "Morning"),
            // The same set twice in one file is one set.
            Self.row(
                "Squat", order: 1, at: Self.dayStart + Self.day + 9 * Self.hour, workout: "2026-06-13 09:00:00",
                name: "Morning"),
        ]
        // One own set of squat 5 × 100 kg that day (another day's does not count): it stands for
        // one imported set, not two.
        let facts = ImportFacts(
            importedKeys: [first.key],
            ownSets: [
                .init(exerciseKey: "squat", atUSec: Self.dayStart + 8 * Self.hour, reps: 5, weightKg: 100),
                .init(exerciseKey: "squat", atUSec: Self.dayStart - Self.hour, reps: 4, weightKg: 100),
            ], exerciseNames: ["squat": "squat"])
        let plan = try Self.plan(rows, facts: facts)
        #expect(Self.sets(plan).map(\.atUSec) == [rows[2], rows[3], rows[4]].map(\.atUSec))
        #expect(Self.sets(plan).map(\.exercise) == ["squat", "squat", "squat"])
        // Leg Day had a set imported before: it is a workout already.
        #expect(Self.workouts(plan).map(\.name) == ["Morning"])
        let outcome = try #require(plan.imported)
        #expect(outcome.alreadyImported == 1 && outcome.alreadyRecorded == 1 && outcome.setsAdded == 3)
        #expect(outcome.newExercises == [] && outcome.matchedExercises == ["squat"])

        // Everything there: nothing to write.
        let again = try Self.plan(
            [first], facts: ImportFacts(importedKeys: [first.key], exerciseNames: ["squat": "Squat"]))
        #expect(again.isEmpty && again.imported?.setsAdded == 0 && again.imported?.alreadyImported == 1)
    }

    @Test func aDryRunCountsAndWritesNothing() throws {
        let rows = [Self.row("Squat", order: 1, at: Self.dayStart + 18 * Self.hour)]
        let dry = try Self.plan(rows, dryRun: true)
        #expect(dry.isEmpty)
        var expected = try #require(try Self.plan(rows).imported)
        expected.dryRun = true
        #expect(dry.imported == expected)
    }

    @Test func eachExerciseGetsTheFirstCategoryItsRowsGiveOnce() throws {
        var bench = Self.row("Bench", order: 1, at: Self.dayStart + 18 * Self.hour)
        bench.category = "Chest"
        var benchAgain = Self.row("bench", order: 2, at: Self.dayStart + 19 * Self.hour)
        benchAgain.category = "Push"
        let squat = Self.row("Squat", order: 1, at: Self.dayStart + 20 * Self.hour)
        let categories = try Self.plan([benchAgain, bench, squat]).history.compactMap {
            if case .categoryImported(let key, let category) = $0 { (key, category) } else { nil }
        }
        #expect(categories.map(\.0) == ["bench"] && categories.map(\.1) == ["Chest"])
        #expect(try Self.plan([bench], dryRun: true).history.isEmpty)
    }

    @Test func theOutcomesOfAFilesPartsAddUp() {
        var first = ImportOutcome()
        first.setsAdded = 3
        first.warmupsAdded = 1
        first.workoutsAdded = 1
        first.newExercises = ["Squat", "Bench"]
        first.matchedExercises = ["Row"]
        first.earliestUSec = 200
        first.latestUSec = 300
        var second = ImportOutcome()
        second.setsAdded = 2
        second.workoutsAdded = 1
        second.alreadyImported = 4
        second.alreadyRecorded = 1
        // What the first part added, the second finds known; a dry run finds it new again.
        second.newExercises = ["Bench", "Curl"]
        second.matchedExercises = ["Row", "Squat"]
        second.earliestUSec = 100
        second.latestUSec = 150
        first.add(second)
        #expect((first.setsAdded, first.warmupsAdded, first.workoutsAdded) == (5, 1, 2))
        #expect((first.alreadyImported, first.alreadyRecorded) == (4, 1))
        #expect(first.newExercises == ["Squat", "Bench", "Curl"] && first.matchedExercises == ["Row"])
        #expect(first.earliestUSec == 100 && first.latestUSec == 300)
    }

    @Test func aSetStillToComeIsPlacedAtNow() throws {
        let plan = try Self.plan([Self.row("Squat", order: 1, at: Self.now.realtime + Self.hour)])
        #expect(Self.sets(plan).map(\.atUSec) == [Self.now.realtime])
    }

    @Test func setsOlderThanKeepDaysAreRefused() throws {
        var settings = TrainingSettings()
        settings.keepDays = 30
        let training = TrainingBook(settings: settings)
        let old = Self.row("Squat", order: 1, at: Self.now.realtime - 40 * Self.day)
        let date = LocalCalendar.parts(of: old.atUSec)!.dateText
        #expect(
            throws: TimerError.limitExceeded(
                "the file goes back to \(date), further than the 30 days of history restd keeps ([history] keep_days), "
                    + "which would delete those sets again; set keep_days = 41 in config.toml and run 'restctl reload' "
                    + "to keep them")
        ) { try Self.plan([old], training: training) }
        let kept = Self.row("Squat", order: 1, at: Self.now.realtime - 29 * Self.day)
        #expect(try Self.plan([kept], training: training).imported?.setsAdded == 1)
    }

    @Test func theHistoryIsAskedAboutTheDaysTheImportFallsOn() {
        let rows = [
            Self.row("Squat", order: 1, at: Self.dayStart + 18 * Self.hour),
            Self.row("Squat", order: 2, at: Self.dayStart + Self.day + 9 * Self.hour),
        ]
        let books = Books(timers: TimerBook(), training: TrainingBook(), publishedAt: Self.now)
        let questions = books.questions(
            for: .command(.importHistory(HistoryImport(rows: rows, dryRun: false))), now: Self.now)
        #expect(questions.importSinceUSec.map { $0 < Self.dayStart } == true)
        #expect(questions.importUntilUSec > Self.dayStart + 2 * Self.day)
        #expect(questions.previousExerciseOf == nil && !questions.asksExercise)
    }
}
