import RestCore
import TestClock
import Testing

/// A gym session on an injected clock: every message planned by `Books` and applied the way the
/// daemon does it (its questions answered from the history kept in memory).
struct Session {
    let clock: ManualTimeSource
    var books: Books
    /// The books' two halves, set by a test that starts from a book of its own.
    var timers: TimerBook {
        get { books.timers }
        set { books = Books(timers: newValue, training: books.training, publishedAt: clock.now()) }
    }
    var training: TrainingBook {
        get { books.training }
        set { books = Books(timers: books.timers, training: newValue, publishedAt: clock.now()) }
    }
    /// What the store would answer: last set per timer, last rest and sets per exercise key.
    var lastExercise: [TimerID: String] = [:]
    var remembered: [String: (name: String, rest: USec?, sets: Int)] = [:]
    /// The reps and weight of each exercise key's latest set.
    var previousWork: [String: (reps: UInt32?, weightKg: Double?)] = [:]
    /// What the store would read of each exercise key's bests, at the new set's weight.
    var bests: [String: (Double?) -> ExerciseBests] = [:]
    var history: [HistoryChange] = []
    /// Every set the history holds now, oldest first.
    var sets: [SetRecord] = []

    init(_ settings: TrainingSettings = TrainingSettings()) {
        clock = ManualTimeSource()
        books = Books(timers: TimerBook(), training: TrainingBook(settings: settings), publishedAt: clock.now())
    }

    /// Answers the questions `command` raises as the daemon does, plans it, and carries it out.
    @discardableResult
    mutating func run(_ command: Command) throws(TimerError) -> ChangePlan {
        try carryOut(.command(command))
    }

    /// Something that happens to restd (`Occurrence`), planned and carried out the same way.
    @discardableResult
    mutating func happen(_ occurrence: Occurrence) -> ChangePlan {
        (try? carryOut(.occurrence(occurrence))) ?? ChangePlan()
    }

    private mutating func carryOut(_ change: Change) throws(TimerError) -> ChangePlan {
        let now = clock.now()
        let facts = answer(books.questions(for: change, now: now))
        let plan = try books.plan(change, facts: facts, heartRateComingIn: true, now: now)
        books.apply(plan)
        record(plan.history)
        return plan
    }

    /// What the store would answer to `questions`, and nothing more.
    private func answer(_ questions: HistoryQuestions) -> HistoryFacts {
        var facts = HistoryFacts()
        if let id = questions.previousExerciseOf { facts.previousExercise = lastExercise[id] }
        if let name = questions.exercise(previous: facts.previousExercise) {
            let known = remembered[name.key]
            let previous = previousWork[name.key]
            facts.exercises[name.key] = ExerciseFacts(
                firstWritten: known?.name, lastRestUSec: known?.rest, setsInARow: known?.sets ?? 0,
                previousReps: previous?.reps, previousWeightKg: previous?.weightKg,
                bests: bests[name.key]?(questions.weightKg ?? previous?.weightKg) ?? ExerciseBests())
        }
        if questions.workoutSinceUSec != nil { facts.workoutSoFar = Self.soFar(history) }
        if questions.lastSet, let last = sets.max(by: { $0.id < $1.id }) { facts.fixedSets.append(last) }
        facts.fixedSets += sets.filter {
            questions.setIDs.contains($0.id) || $0.exerciseKey == questions.setsOfExercise
        }
        for key in questions.exerciseNames { facts.exerciseNames[key] = remembered[key]?.name }
        return facts
    }

    /// What the store answers for a workout's summary: every set, and every rest that ended.
    static func soFar(_ history: [HistoryChange]) -> WorkoutSoFar {
        var soFar = WorkoutSoFar()
        for change in history {
            switch change {
            case .setRecorded(let set): soFar.sets.append((set.reps.map(Int.init), set.weightKg))
            case .restEnded(let rest): soFar.restsTakenUSec.append(rest.takenUSec)
            default: break
            }
        }
        return soFar
    }

    /// The workout's next or previous, planned with the timers and carried out on both books.
    mutating func move(forward: Bool) throws(TimerError) {
        try run(.workout(forward ? .next : .previous))
    }

    /// Time passes and restd's housekeeping runs, as the expiry timer would make it.
    mutating func wait(_ usec: USec) {
        clock.advance(usec)
        happen(.due(strapsLost: [], marksRunning: true))
    }

    /// What the store does with each change.
    private mutating func record(_ changes: [HistoryChange]) {
        history += changes
        for change in changes {
            switch change {
            case .setRecorded(let set):
                sets.append(set)
                lastExercise[set.timerID] = set.exercise
                previousWork[set.exerciseKey] = (set.reps, set.weightKg)
                let known = remembered[set.exerciseKey]
                remembered[set.exerciseKey] = (known?.name ?? set.exercise, known?.rest, (known?.sets ?? 0) + 1)
            case .restEnded(let rest) where rest.isRemembered:
                remembered[rest.exerciseKey]?.rest = rest.finalUSec(limits: .standard)
            case .setsDeleted(let deleted):
                for set in deleted {
                    sets.removeAll { $0.id == set.id }
                    forget(set)
                }
            case .setEdited(let old, let new):
                sets = sets.map { $0.id == new.id ? new : $0 }
                if old.exerciseKey != new.exerciseKey {
                    forget(old)
                    let known = remembered[new.exerciseKey]
                    remembered[new.exerciseKey] = (known?.name ?? new.exercise, known?.rest, (known?.sets ?? 0) + 1)
                }
                rememberLatest(old.exerciseKey)
                rememberLatest(new.exerciseKey)
            case .exerciseRenamed(let fromKey, let name, let toKey):
                sets = sets.map { set in
                    guard set.exerciseKey == fromKey else { return set }
                    var renamed = set
                    renamed.exercise = name
                    renamed.exerciseKey = toKey
                    return renamed
                }
                let old = remembered.removeValue(forKey: fromKey)
                let known = remembered[toKey]
                remembered[toKey] = (name, known?.rest ?? old?.rest, (known?.sets ?? 0) + (old?.sets ?? 0))
                previousWork[fromKey] = nil
                rememberLatest(toKey)
            case .restOpen, .restEnded, .workoutSaved, .workoutEnded, .workoutDiscarded, .heartRateKept, .setImported,
                .workoutImported, .categoryImported:
                break
            }
        }
    }

    /// A set gone from its exercise: one fewer, forgotten without sets; its latest set repeated.
    private mutating func forget(_ set: SetRecord) {
        remembered[set.exerciseKey]?.sets -= 1
        if remembered[set.exerciseKey]?.sets == 0 { remembered[set.exerciseKey] = nil }
        rememberLatest(set.exerciseKey)
    }

    private mutating func rememberLatest(_ key: String) {
        previousWork[key] = sets.last { $0.exerciseKey == key }.map { ($0.reps, $0.weightKg) }
    }

    var endedRests: [RestRecord] {
        history.compactMap { if case .restEnded(let rest) = $0 { rest } else { nil } }
    }

    mutating func set(
        _ exercise: String? = nil, reps: UInt32? = 5, weightKg: Double? = 100, failed: Bool = false, rest: USec? = nil
    ) throws -> PlannedSet {
        try #require(
            run(
                .completeSet(
                    tid("default"),
                    SetInput(
                        exercise: exercise, reps: reps, weightKg: weightKg, failed: failed,
                        restUSec: rest))
            ).set)
    }
}

@Suite struct ExerciseNameTests {
    @Test func trimsAndComparesWithoutCase() throws {
        let name = try ExerciseName(parsing: "  Bench Press\t")
        #expect(name.display == "Bench Press" && name.key == "bench press")
        #expect(try ExerciseName(parsing: "BENCH press").key == name.key)
        #expect(try ExerciseName(parsing: String(repeating: "é", count: 32)).display.utf8.count == 64)
    }

    @Test(arguments: [
        ("", "the exercise name is empty; give 1 to 64 bytes of text, as in \"Squat\""),
        ("   ", "the exercise name is empty; give 1 to 64 bytes of text, as in \"Squat\""),
        (
            "Squat\u{7}",
            "the exercise name contains a control character (U+0007) at position 6; give plain text, as in \"Squat\""
        ),
        (
            "Sq\nuat",
            "the exercise name contains a control character (U+000A) at position 3; give plain text, as in \"Squat\""
        ),
        (
            String(repeating: "x", count: 65),
            "the exercise name \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…\" is 65 bytes long; at most 64 are allowed"
        ),
    ])
    func refusesWithOneSentence(_ raw: String, _ sentence: String) {
        #expect(thrown { _ = try ExerciseName(parsing: raw) } == .invalidArgs(sentence))
    }
}

@Suite struct SetInputTests {
    @Test(arguments: [
        (SetInput(reps: 10_001), "reps 10001 is out of range: give 0 to 10000"),
        (SetInput(weightKg: -1), "weight -1.0 kg is out of range: give 0 to 1000 kg"),
        (SetInput(weightKg: .nan), "weight nan kg is out of range: give 0 to 1000 kg"),
        (SetInput(weightKg: 1000.5), "weight 1000.5 kg is out of range: give 0 to 1000 kg"),
        (SetInput(restUSec: 999_999), "rest 999 ms is too short: give a rest of 1 s to 24 h"),
        (SetInput(restUSec: 86_400_000_001), "rest 24 h is too long: give a rest of 1 s to 24 h"),
    ])
    func refusesValuesNoSetHas(_ input: SetInput, _ sentence: String) {
        let error = thrown { try input.validate(limits: .standard) }
        #expect(error?.kind == "invalidArgs")
        #expect(
            error?.message == sentence
                || (sentence.hasPrefix("rest ") && error?.message.hasPrefix("rest ") == true
                    && error?.message.hasSuffix("give a rest of 1 s to 24 h") == true),
            "\(String(describing: error))")
    }

    @Test func takesTheLimitsThemselves() throws {
        try SetInput(reps: 10_000, weightKg: 1000, restUSec: 86_400_000_000).validate(limits: .standard)
        try SetInput(reps: 0, weightKg: 0, restUSec: 1_000_000).validate(limits: .standard)
    }
}

@Suite struct RestChoiceTests {
    var settings: TrainingSettings {
        var settings = TrainingSettings()
        settings.categories = ["compound": 150 * second, "isolation": 75 * second]
        settings.defaultDurationUSec = 90 * second
        return settings
    }

    func choose(
        given: USec? = nil, failed: Bool = false, _ exercise: TrainingSettings.Exercise?, last: USec?
    ) -> RestChoice {
        RestChoice.choose(
            given: given, failed: failed, exercise: exercise, lastUsedUSec: last, settings: settings,
            limits: .standard)
    }

    @Test func theFirstRuleThatAppliesWins() {
        let full = TrainingSettings.Exercise(restUSec: 180 * second, failedRestUSec: 240 * second, category: "compound")
        #expect(choose(given: 45 * second, full, last: 100 * second) == RestChoice(usec: 45 * second, source: .given))
        #expect(choose(full, last: 100 * second) == RestChoice(usec: 180 * second, source: .exercise))
        let noRest = TrainingSettings.Exercise(category: "compound")
        #expect(choose(noRest, last: 100 * second) == RestChoice(usec: 100 * second, source: .lastUsed))
        #expect(choose(noRest, last: nil) == RestChoice(usec: 150 * second, source: .category))
        #expect(choose(TrainingSettings.Exercise(category: "unknown"), last: nil).source == .default)
        #expect(choose(nil, last: nil) == RestChoice(usec: 90 * second, source: .default))
    }

    @Test func aFailedSetRestsLonger() {
        let withFailedRest = TrainingSettings.Exercise(restUSec: 180 * second, failedRestUSec: 240 * second)
        #expect(choose(failed: true, withFailedRest, last: nil) == RestChoice(usec: 240 * second, source: .failedRest))
        let failed = choose(failed: true, TrainingSettings.Exercise(restUSec: 180 * second), last: nil)
        #expect(failed == RestChoice(usec: 210 * second, source: .exercise, failedExtra: true))
        #expect(failed.sourceText == "exercise+failed_extra")
        #expect(choose(failed: true, nil, last: 100 * second).usec == 130 * second)
        #expect(
            choose(given: 60 * second, failed: true, withFailedRest, last: nil).usec == 60 * second,
            "a rest given by hand is taken as it is")
        #expect(choose(failed: true, nil, last: 86_400 * second).usec == 86_400 * second, "kept within 24 h")
    }
}

@Suite struct TrainingBookTests {
    @Test func aSetStartsTheRestAndTheNextSetEndsItWithTheTimeTaken() throws {
        var session = Session()
        let first = try session.set("Squat")
        #expect(first.rest == RestChoice(usec: 90 * second, source: .default))
        #expect(first.setsInARow == 1 && first.record.exercise == "Squat" && first.record.id == 1)
        let timer = try #require(session.timers.timer(tid("default")))
        #expect(timer.label == "Squat" && timer.state == .running && timer.restSource == "default")

        session.wait(100 * second)  // the rest ran out 10 s ago
        #expect(session.timers.timer(tid("default"))?.state == .expired)
        #expect(session.training.openRests[tid("default")] != nil, "a rest over is still open until the next set")
        let next = try session.set()  // the previous set's exercise
        #expect(next.record.exercise == "Squat" && next.record.id == 2 && next.setsInARow == 2)
        let ended = try #require(session.endedRests.first)
        #expect(ended.outcome == .completed && ended.takenUSec == 100 * second && ended.setID == 1)
        #expect(next.rest == RestChoice(usec: 90 * second, source: .lastUsed))
    }

    @Test func aSetWithoutRepsOrWeightRepeatsTheExercisesPreviousOnesAndWhatIsTypedWins() throws {
        var session = Session()
        _ = try session.set("Curl", reps: 12, weightKg: 15)
        let failed = try session.set(reps: nil, weightKg: nil, failed: true).record
        #expect(failed.exercise == "Curl" && failed.reps == 12 && failed.weightKg == 15 && failed.failed)
        let fewer = try session.set(reps: 10, weightKg: nil).record
        #expect(fewer.reps == 10 && fewer.weightKg == 15, "a typed number wins; the other is repeated")
        // Another exercise has its own previous set, or none; the name's case does not matter.
        let squat = try session.set("Squat", reps: nil, weightKg: nil).record
        #expect(squat.reps == nil && squat.weightKg == nil)
        let curl = try session.set(" CURL ", reps: nil, weightKg: nil).record
        #expect(curl.reps == 10 && curl.weightKg == 15)
    }

    @Test func theRestLastUsedIsTheOneAfterAddAndSub() throws {
        var session = Session()
        _ = try session.set("squat")
        try session.run(.timer(.adjust(tid("default"), deltaUSec: 30 * Int64(second))))
        try session.run(.timer(.adjust(tid("default"), deltaUSec: -15 * Int64(second))))
        session.wait(20 * second)
        let next = try session.set(" SQUAT ")
        #expect(next.rest == RestChoice(usec: 105 * second, source: .lastUsed))
        #expect(next.record.exercise == "squat", "stored as first written")
        #expect(session.endedRests.first?.adjustUSec == 15 * Int64(second))
        // Another exercise has no memory yet: its rest is the default.
        #expect(try session.set("Bench press").rest.source == .default)
    }

    @Test func aRestAfterAFailedSetIsNotRemembered() throws {
        var session = Session()
        _ = try session.set("Squat", failed: true)
        #expect(session.timers.timer(tid("default"))?.durationUSec == 120 * second)
        session.wait(130 * second)
        #expect(try session.set("Squat").rest == RestChoice(usec: 90 * second, source: .default))
    }

    @Test func theConfigurationsRulesApply() throws {
        var settings = TrainingSettings()
        settings.exercises["squat"] = .init(restUSec: 180 * second, failedRestUSec: 300 * second, sets: 5)
        settings.exercises["curl"] = .init(category: "isolation")
        settings.categories["isolation"] = 75 * second
        settings.failedExtraUSec = 20 * second
        var session = Session(settings)
        let squat = try session.set("Squat")
        #expect(squat.rest.source == .exercise && squat.setsPlanned == 5)
        #expect(try session.set("Squat", failed: true).rest == RestChoice(usec: 300 * second, source: .failedRest))
        #expect(try session.set("Curl").rest == RestChoice(usec: 75 * second, source: .category))
        session.wait(75 * second)
        #expect(try session.set("Curl").rest.source == .lastUsed)
        #expect(
            try session.set("Curl", failed: true).rest
                == RestChoice(usec: 95 * second, source: .lastUsed, failedExtra: true))
        #expect(try session.set("Curl", rest: 42 * second).rest == RestChoice(usec: 42 * second, source: .given))
    }

    @Test func skipCancelAndAStartEndTheRestEachTheirWay() throws {
        var session = Session()
        _ = try session.set("Squat")
        session.clock.advance(40 * second)
        try session.run(.timer(.skip(tid("default"))))
        #expect(session.endedRests.last?.outcome == .skipped && session.endedRests.last?.takenUSec == 40 * second)
        #expect(session.training.openRests.isEmpty)

        _ = try session.set()  // after a skip there is no open rest to end
        #expect(session.endedRests.count == 1)
        session.clock.advance(5 * second)
        try session.run(.timer(.cancel(tid("default"))))
        #expect(session.endedRests.last?.outcome == .cancelled && session.endedRests.last?.takenUSec == 5 * second)

        _ = try session.set("Squat")
        try session.run(.timer(.start(tid("default"), durationUSec: 60 * second, options: TimerOptions(label: "Tea"))))
        #expect(session.endedRests.last?.outcome == .replaced)
        #expect(session.timers.timer(tid("default"))?.restSource == "", "a timer started by Start has no rest source")
    }

    @Test func skippingARestAlreadyOverClosesItAsTaken() throws {
        var session = Session()
        _ = try session.set("Squat")
        session.wait(95 * second)
        try session.run(.timer(.skip(tid("default"))))
        #expect(session.endedRests.last?.outcome == .completed && session.endedRests.last?.takenUSec == 95 * second)
    }

    @Test func pausesAreCountedAndARemovedTimerEndsItsRest() throws {
        var session = Session()
        _ = try session.set("Squat")
        session.clock.advance(10 * second)
        try session.run(.timer(.pause(tid("default"))))
        session.clock.advance(30 * second)
        try session.run(.timer(.resume(tid("default"))))
        try session.run(.timer(.pause(tid("default"))))
        session.clock.advance(7 * second)
        // Left paused a day: restd removes the timer, and the rest ends cancelled when it was
        // last touched (the pause): what was taken is what there was before.
        session.wait(86_400 * second)
        let ended = try #require(session.endedRests.last)
        #expect(ended.outcome == .cancelled && ended.pausedUSec == 30 * second && ended.takenUSec == 40 * second)
        #expect(session.training.openRests.isEmpty)
    }

    @Test func aRemovedExpiredTimerEndsItsRestAsTakenInFull() throws {
        var session = Session()
        _ = try session.set("Squat")
        session.wait(90 * second)
        session.wait(3_600 * second)  // expired_retention: the timer goes
        #expect(session.timers.timer(tid("default")) == nil)
        let ended = try #require(session.endedRests.last)
        #expect(ended.outcome == .completed && ended.takenUSec == 90 * second)
    }

    @Test func badInputRecordsNothing() throws {
        var session = Session()
        #expect(
            thrown { try session.run(.completeSet(tid("default"), SetInput())) }
                == .invalidArgs(
                    "no exercise given, and this timer has no previous set to take it from; name one, as in --exercise Squat"
                ))
        #expect(
            thrown { try session.run(.completeSet(tid("default"), SetInput(exercise: "Squat", reps: 20_000))) }?.kind
                == "invalidArgs")
        #expect(
            thrown { try session.run(.completeSet(tid("default"), SetInput(exercise: "a\u{0}b"))) }?.kind
                == "invalidArgs")
        #expect(session.history.isEmpty && session.timers.timers.isEmpty)
        var full = TimerBook(limits: TimerLimits(maxTimers: 1))
        try full.commit(
            full.start(tid("other"), durationUSec: 60 * second, options: TimerOptions(), now: session.clock.now()))
        session.timers = full
        #expect(
            thrown { try session.run(.completeSet(tid("default"), SetInput(exercise: "Squat"))) }?.kind
                == "limitExceeded")
        #expect(session.history.isEmpty)
    }

    @Test func rrIntervalsGoWithTheRestsInProgress() throws {
        var session = Session()
        _ = try session.set("Squat")
        session.happen(.rrIntervals([800, 810, 70_000]))
        session.clock.advance(10 * second)
        _ = try session.set()
        #expect(session.endedRests.last?.rrIntervalsMS == [800, 810], "values beyond 16 bits are dropped")
        session.happen(.rrIntervals(Array(repeating: 900, count: TrainingBook.maxRRIntervals + 5)))
        #expect(session.training.openRests[tid("default")]?.rrIntervalsMS.count == TrainingBook.maxRRIntervals)
    }
}

@Suite struct ExerciseStatsTests {
    /// Medians over the rests taken to their end; a skipped rest is counted apart, a cancelled
    /// one and a set with no rest only as sets; the overrun is the difference of the medians.
    @Test func mediansPerExercise() {
        let rows = [
            StatsRow(exerciseKey: "squat", exercise: "Squat", plannedUSec: 150, takenUSec: 160, outcome: .completed),
            StatsRow(exerciseKey: "squat", exercise: "Squat", plannedUSec: 150, takenUSec: 100, outcome: .skipped),
            StatsRow(exerciseKey: "squat", exercise: "Squat", plannedUSec: 180, takenUSec: 200, outcome: .completed),
            StatsRow(exerciseKey: "squat", exercise: "Squat", plannedUSec: 150, takenUSec: 999, outcome: .cancelled),
            StatsRow(exerciseKey: "squat", exercise: "Squat"),
            StatsRow(exerciseKey: "bench", exercise: "Bench", plannedUSec: 120, takenUSec: 130, outcome: .completed),
            StatsRow(exerciseKey: "bench", exercise: "Bench", plannedUSec: 120, takenUSec: 125, outcome: .completed),
        ]
        #expect(
            ExerciseStats.compute(rows) == [
                ExerciseStats(
                    exercise: "Bench", sets: 2, rests: 2, medianPlannedUSec: 120, medianTakenUSec: 127,
                    medianOverrunUSec: 7, skipped: 0),
                ExerciseStats(
                    exercise: "Squat", sets: 5, rests: 2, medianPlannedUSec: 165, medianTakenUSec: 180,
                    medianOverrunUSec: 15, skipped: 1),
            ])
    }
}
