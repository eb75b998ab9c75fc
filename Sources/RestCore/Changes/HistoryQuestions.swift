/// What the history must tell before a message can be planned (`Books.questions`): the daemon
/// reads exactly this from the store, then plans with the answer (`HistoryFacts`).
public struct HistoryQuestions: Sendable, Equatable {
    /// The timer whose previous set's exercise is asked for (a set that names none).
    public var previousExerciseOf: TimerID?
    /// Whether the facts of the set's exercise are asked for, and the exercise as given or as the
    /// workout plans it (nil: the previous set's, `previousExerciseOf`).
    public var asksExercise = false
    public var givenExercise: String?
    /// The start of the local day the exercise's facts count sets from.
    public var dayStartUSec: USec = 0
    /// The weight the exercise's bests are asked at (`TrainingBook.weight(ofSet:)`; nil: its
    /// previous set's, which the set then repeats).
    public var weightKg: Double?
    /// The span of the workout whose sets and rests so far are asked for (its summary).
    public var workoutSinceUSec: USec?
    public var workoutUntilUSec: USec = 0
    /// The span an import falls in: what was imported before there, restd's own sets there,
    /// and every exercise's name.
    public var importSinceUSec: USec?
    public var importUntilUSec: USec = 0
    /// For a fix of the history: the sets it names by id, whether it names the last set (undo),
    /// the exercise whose sets it names (a rename), and the exercises whose names as first
    /// written it needs, by key.
    public var setIDs: [Int64] = []
    public var lastSet = false
    public var setsOfExercise: String?
    public var exerciseNames: [String] = []

    public init() {}

    /// Whether nothing is asked.
    public var isEmpty: Bool { self == HistoryQuestions() }

    /// The exercise whose facts are asked for, once the previous set's exercise is known; nil
    /// when none is (planning then refuses the set with the reason).
    public func exercise(previous: String?) -> ExerciseName? {
        guard asksExercise else { return nil }
        return try? TrainingBook.exerciseName(given: givenExercise, previous: previous)
    }
}
