/// A workout template: "Push day: Squat 5×5 rest 3 min, Bench press 5×5 rest 2 min 30, …".
///
/// An ordered list of blocks; a block is one exercise, or a superset — exercises done back to
/// back, one set of each per round, with the rest after the round. The plan is copied into the
/// state when a workout starts, so a file changed or deleted meanwhile changes nothing.
public struct WorkoutPlan: Sendable, Equatable {
    public struct Exercise: Sendable, Equatable {
        public var name: String
        public var sets: Int
        public var reps: Int?
        public var weightKG: Double?

        public init(name: String, sets: Int, reps: Int? = nil, weightKG: Double? = nil) {
            self.name = name
            self.sets = sets
            self.reps = reps
            self.weightKG = weightKG
        }
    }

    /// One exercise, or several done back to back (a superset).
    public struct Block: Sendable, Equatable {
        public var exercises: [Exercise]
        /// The rest after a set (after a round, in a superset); nil: the usual rules choose it.
        public var restUSec: USec?
        /// The rest after a failed set; nil: the rest plus `[rest] failed_extra`.
        public var failedRestUSec: USec?
        /// Resting until recovered after its sets, over the plan's.
        public var recovery: RecoverySettings
        /// Whether the rests after its sets play cues and an alarm; nil: as the exercise's
        /// `sound` in config.toml says, else they do.
        public var sound: Bool?

        public init(
            exercises: [Exercise], restUSec: USec? = nil, failedRestUSec: USec? = nil,
            recovery: RecoverySettings = RecoverySettings(), sound: Bool? = nil
        ) {
            self.sound = sound
            self.exercises = exercises
            self.restUSec = restUSec
            self.failedRestUSec = failedRestUSec
            self.recovery = recovery
        }

        public var isSuperset: Bool { exercises.count > 1 }
        /// Rounds of a superset: the most sets any of its exercises has.
        public var rounds: Int { exercises.map(\.sets).max() ?? 0 }
    }

    /// The bounds a plan must keep, checked when it is read.
    public enum Limits {
        public static let maxExercises = 100
        public static let sets = 1...100
        public static let maxFileBytes = 256 * 1024
    }

    public var name: String
    public var blocks: [Block]
    /// Resting until recovered for the whole plan, over the exercises' and `[recovery]`'s.
    public var recovery: RecoverySettings

    public init(name: String, blocks: [Block], recovery: RecoverySettings = RecoverySettings()) {
        self.name = name
        self.blocks = blocks
        self.recovery = recovery
    }

    /// Every set of the plan in the order it is done.
    public var steps: [WorkoutStep] {
        var steps: [WorkoutStep] = []
        for (blockIndex, block) in blocks.enumerated() {
            for round in 1...max(block.rounds, 1) {
                let inRound = block.exercises.indices.filter { block.exercises[$0].sets >= round }
                for (position, exerciseIndex) in inRound.enumerated() {
                    steps.append(
                        WorkoutStep(
                            block: blockIndex, exercise: exerciseIndex, set: round,
                            restAfter: position == inRound.count - 1))
                }
            }
        }
        // No rest after the last set of the workout: it is over.
        if !steps.isEmpty { steps[steps.count - 1].restAfter = false }
        return steps
    }

    /// Sets planned in the whole workout.
    public var setsPlanned: Int { blocks.reduce(0) { $0 + $1.exercises.reduce(0) { $0 + $1.sets } } }
}

/// One set of a plan: which exercise, which of its sets, and whether a rest follows it.
public struct WorkoutStep: Sendable, Equatable {
    public var block: Int
    public var exercise: Int
    /// 1-based.
    public var set: Int
    /// False inside a superset's round (the next exercise comes at once) and after the last set.
    public var restAfter: Bool

    public init(block: Int, exercise: Int, set: Int, restAfter: Bool) {
        self.block = block
        self.exercise = exercise
        self.set = set
        self.restAfter = restAfter
    }
}
