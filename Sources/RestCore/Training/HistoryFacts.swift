/// What the history says that planning a command needs, read from the store before it is
/// planned (`TrainingBook.plan` reads nothing itself). What a command does not need stays empty.
public struct HistoryFacts: Sendable {
    /// The exercise of the previous set on the set's timer: a set that names none, outside a
    /// workout, is for it.
    public var previousExercise: String?
    /// What the history says about the set's exercise (`HistoryQuestions.exercise(previous:)`),
    /// by its key; an exercise not here was never seen.
    public var exercises: [String: ExerciseFacts]
    /// The workout's sets and rests so far, for the summary of a workout that ends (End, its
    /// last set, abandoned).
    public var workoutSoFar: WorkoutSoFar
    /// What the history holds where an import falls.
    public var imported: ImportFacts
    /// For a fix of the history: the sets it names (by id, the last one for undo, every set of
    /// the exercise renamed), oldest first.
    public var fixedSets: [SetRecord] = []
    /// For a fix of the history: the exercises asked for, by key, with their names as first
    /// written; an exercise not here is new.
    public var exerciseNames: [String: String] = [:]

    public init(
        previousExercise: String? = nil, exercises: [String: ExerciseFacts] = [:],
        workoutSoFar: WorkoutSoFar = WorkoutSoFar(), imported: ImportFacts = ImportFacts()
    ) {
        self.previousExercise = previousExercise
        self.exercises = exercises
        self.workoutSoFar = workoutSoFar
        self.imported = imported
    }
}

/// What the history says about an exercise, read from the store before a set is planned.
public struct ExerciseFacts: Sendable, Equatable {
    /// The name as first written, nil for an exercise never seen.
    public var firstWritten: String?
    /// The rest it last ran with after any add/sub.
    public var lastRestUSec: USec?
    /// Its sets in a row: those since the last set of another exercise, today (local time).
    public var setsInARow: Int
    /// The reps and weight of its previous set (nil where that set had none, or there was none):
    /// a set that gives neither repeats them.
    public var previousReps: UInt32?
    public var previousWeightKg: Double?
    /// Its best sets so far, at the new set's weight: what the set is compared with for records.
    public var bests: ExerciseBests

    public init(
        firstWritten: String? = nil, lastRestUSec: USec? = nil, setsInARow: Int = 0, previousReps: UInt32? = nil,
        previousWeightKg: Double? = nil, bests: ExerciseBests = ExerciseBests()
    ) {
        self.firstWritten = firstWritten
        self.lastRestUSec = lastRestUSec
        self.setsInARow = setsInARow
        self.previousReps = previousReps
        self.previousWeightKg = previousWeightKg
        self.bests = bests
    }
}

/// A workout's sets and rests so far, from the history: what its summary is made of.
public struct WorkoutSoFar: Sendable {
    /// Reps and weight of each set done since the workout started.
    public var sets: [(reps: Int?, weightKG: Double?)]
    /// How long each rest that ended since the workout started lasted.
    public var restsTakenUSec: [USec]

    public init(sets: [(reps: Int?, weightKG: Double?)] = [], restsTakenUSec: [USec] = []) {
        self.sets = sets
        self.restsTakenUSec = restsTakenUSec
    }

    public func summary(of workout: ActiveWorkout, endedAtUSec: USec, abandoned: Bool) -> WorkoutSummary {
        WorkoutSummary(
            name: workout.name, startedAtUSec: workout.progress.startedAtUSec, endedAtUSec: endedAtUSec,
            setsPlanned: workout.progress.plan.setsPlanned, sets: sets, restsTakenUSec: restsTakenUSec,
            abandoned: abandoned)
    }
}
