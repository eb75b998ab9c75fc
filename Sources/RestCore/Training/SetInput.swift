import Localization

/// What a person says about a set they just finished (`restctl set`, Manager.CompleteSet).
public struct SetInput: Sendable, Equatable {
    /// The exercise as given; nil means "the exercise of the previous set on this timer".
    public var exercise: String?
    public var reps: UInt32?
    public var weightKg: Double?
    /// The set failed (the last rep did not go up): the next rest is longer.
    public var failed: Bool
    /// A rest chosen by hand, which wins over every rule.
    public var restUSec: USec?
    /// Whether the rest may end on recovery (heart-rate-guided); nil: as configured.
    public var untilRecovered: Bool?
    /// Whether the rest plays its cues and alarm; nil: as the plan or config.toml says, else yes.
    public var sound: Bool?

    public init(
        exercise: String? = nil, reps: UInt32? = nil, weightKg: Double? = nil, failed: Bool = false,
        restUSec: USec? = nil, untilRecovered: Bool? = nil, sound: Bool? = nil
    ) {
        self.sound = sound
        self.exercise = exercise
        self.reps = reps
        self.weightKg = weightKg
        self.failed = failed
        self.restUSec = restUSec
        self.untilRecovered = untilRecovered
    }

    /// The most repetitions a set may record.
    public static let maxReps: UInt32 = 10_000
    /// The heaviest weight a set may record, in kg.
    public static let maxWeightKg: Double = 1_000

    /// Refuses values no set can have, with one sentence; the exercise name is checked apart
    /// (it may come from the previous set).
    public func validate(limits: TimerLimits) throws(TimerError) {
        if let reps, reps > Self.maxReps {
            throw .invalidArgs(localized("%1$s %2$d is out of range: give %3$d to %4$d", "reps", reps, 0, Self.maxReps))
        }
        if let weightKg {
            guard weightKg.isFinite, weightKg >= 0, weightKg <= Self.maxWeightKg else {
                throw .invalidArgs(
                    localized(
                        "weight %1$s kg is out of range: give %2$d to %3$d kg", "\(weightKg)", 0, Int(Self.maxWeightKg))
                )
            }
        }
        if let restUSec {
            guard restUSec >= limits.minDurationUSec, restUSec <= limits.maxDurationUSec else {
                let (rest, shortest, longest) = (
                    DurationText.describe(restUSec), DurationText.describe(limits.minDurationUSec),
                    DurationText.describe(limits.maxDurationUSec)
                )
                throw .invalidArgs(
                    restUSec < limits.minDurationUSec
                        ? localized("rest %1$s is too short: give a rest of %2$s to %3$s", rest, shortest, longest)
                        : localized("rest %1$s is too long: give a rest of %2$s to %3$s", rest, shortest, longest))
            }
        }
    }
}
