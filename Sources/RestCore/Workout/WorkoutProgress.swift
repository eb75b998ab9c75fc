/// Where a person is in a workout: the plan, the set that comes next, what has been done.
/// Pure: every move returns a new value, and the daemon stores it like a timer.
public struct WorkoutProgress: Sendable, Equatable {
    public let plan: WorkoutPlan
    /// Index into `plan.steps` of the set to do next; `plan.steps.count` once every set is done.
    public private(set) var position: Int
    /// How many sets were recorded in this workout (moving with next/previous records none).
    public private(set) var setsDone: Int
    public let startedAtUSec: USec

    private let steps: [WorkoutStep]

    public init(plan: WorkoutPlan, startedAtUSec: USec, position: Int = 0, setsDone: Int = 0) {
        self.plan = plan
        self.steps = plan.steps
        self.startedAtUSec = startedAtUSec
        self.position = min(max(position, 0), steps.count)
        self.setsDone = setsDone
    }

    /// Every set is done: the workout is over.
    public var isFinished: Bool { position >= steps.count }

    /// The set to do next, nil when finished.
    public var currentStep: WorkoutStep? { isFinished ? nil : steps[position] }

    public var currentExercise: WorkoutPlan.Exercise? {
        currentStep.map { plan.blocks[$0.block].exercises[$0.exercise] }
    }

    /// What a set just done means: the step it was, and what comes after it.
    public struct Completion: Sendable, Equatable {
        public let step: WorkoutStep
        public let exercise: WorkoutPlan.Exercise
        public let block: WorkoutPlan.Block
        /// Whether a rest follows (false inside a superset's round and after the last set).
        public let restAfter: Bool
        /// The text for the timer's `next`: "Squat 4/5", "Next: Bench press", "" at the end.
        public let nextLabel: String
        /// The workout is over with this set.
        public let finishesWorkout: Bool
    }

    /// Records the current set as done and moves to the next one.
    public mutating func completeSet() -> Completion? {
        guard let step = currentStep else { return nil }
        let block = plan.blocks[step.block]
        let exercise = block.exercises[step.exercise]
        position += 1
        setsDone += 1
        return Completion(
            step: step, exercise: exercise, block: block, restAfter: step.restAfter,
            nextLabel: nextLabel, finishesWorkout: isFinished)
    }

    /// Takes back the last set recorded (undone, or deleted from the history): the workout is
    /// at that set again. False when no set was recorded.
    public mutating func undoSet() -> Bool {
        guard setsDone > 0, position > 0 else { return false }
        position -= 1
        setsDone -= 1
        return true
    }

    /// What comes after the rest, for the timer's `next` and the notification: the same
    /// exercise's next set ("Squat 4/5"), or the next exercise ("Next: Bench press"); before the
    /// workout's last set, or the last round of a superset that ends it, it says so ("Rows 3/3
    /// (last set)", "Next: Curl (last round)"), so the last rest's "Rest over" does.
    public var nextLabel: String {
        guard let step = currentStep, let exercise = currentExercise else { return "" }
        let label =
            if position > 0, steps[position - 1].block == step.block, steps[position - 1].exercise == step.exercise {
                "\(exercise.name) \(step.set)/\(exercise.sets)"
            } else {
                "\(NextText.prefix) \(exercise.name)"
            }
        let remaining = steps[position...]
        if remaining.count == 1 { return label + NextText.lastSet }
        // No rest before the end: what follows is the last round of a superset.
        if remaining.dropLast().allSatisfy({ !$0.restAfter }) { return label + NextText.lastRound }
        return label
    }

    /// Moves to the first set of the next block, without recording a set; false at the last block.
    public mutating func skipToNextBlock() -> Bool {
        guard let step = currentStep,
            let next = steps[position...].firstIndex(where: { $0.block > step.block })
        else { return false }
        position = next
        return true
    }

    /// Moves to the first set of the previous block (or of the current one, when its first set
    /// is not next yet), without recording or undoing a set; false at the first set.
    public mutating func backToPreviousBlock() -> Bool {
        guard position > 0 else { return false }
        let block = currentStep?.block ?? plan.blocks.count
        let startOfCurrent = steps.firstIndex { $0.block == block } ?? steps.count
        let target =
            position > startOfCurrent
            ? startOfCurrent
            : steps.firstIndex { $0.block == steps[position - 1].block } ?? 0
        position = target
        return true
    }
}

/// What a finished workout comes to, for the history and `workout status`.
public struct WorkoutSummary: Sendable, Equatable {
    public var name: String
    public var startedAtUSec: USec
    public var endedAtUSec: USec
    public var setsDone: Int
    public var setsPlanned: Int
    /// Σ reps × weight over the sets that had both, in kg.
    public var volumeKG: Double
    public var totalRestUSec: USec
    public var medianRestUSec: USec
    /// Ended by itself after being left untouched, rather than by the last set or `end`.
    public var abandoned: Bool

    public var durationUSec: USec { endedAtUSec.subtractingSaturated(startedAtUSec) }

    /// The summary of sets done (reps, weight) and rests taken (µs).
    public init(
        name: String, startedAtUSec: USec, endedAtUSec: USec, setsPlanned: Int,
        sets: [(reps: Int?, weightKG: Double?)], restsTakenUSec: [USec], abandoned: Bool
    ) {
        self.name = name
        self.startedAtUSec = startedAtUSec
        self.endedAtUSec = endedAtUSec
        self.setsDone = sets.count
        self.setsPlanned = setsPlanned
        self.volumeKG = sets.reduce(0) { total, set in
            guard let reps = set.reps, let weight = set.weightKG else { return total }
            return total + Double(reps) * weight
        }
        self.totalRestUSec = restsTakenUSec.reduce(0) { $0.addingSaturated($1) }
        self.medianRestUSec = restsTakenUSec.median() ?? 0
        self.abandoned = abandoned
    }

    /// A summary as stored.
    public init(
        name: String, startedAtUSec: USec, endedAtUSec: USec, setsDone: Int, setsPlanned: Int, volumeKG: Double,
        totalRestUSec: USec, medianRestUSec: USec, abandoned: Bool
    ) {
        self.name = name
        self.startedAtUSec = startedAtUSec
        self.endedAtUSec = endedAtUSec
        self.setsDone = setsDone
        self.setsPlanned = setsPlanned
        self.volumeKG = volumeKG
        self.totalRestUSec = totalRestUSec
        self.medianRestUSec = medianRestUSec
        self.abandoned = abandoned
    }
}
