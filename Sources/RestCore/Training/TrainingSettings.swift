/// The configuration the training rules read (`[exercises."…"]`, `[categories]`, `[rest]`,
/// `[history]`, `[workout]` and `default_duration` in config.toml).
public struct TrainingSettings: Sendable, Equatable {
    /// What one exercise's table says; every field optional.
    public struct Exercise: Sendable, Equatable {
        /// The name as the configuration writes it (the settings are keyed by `ExerciseName.key`).
        public var name: String
        /// `rest`: this exercise's rest, whatever was used last time.
        public var restUSec: USec?
        /// `failed_rest`: the rest after a failed set.
        public var failedRestUSec: USec?
        /// `category`: a key of `[categories]`.
        public var category: String?
        /// `sets`: how many sets are planned (the live activity's progress_total).
        public var sets: Int?
        /// `until_recovered`, `recovery_target`, `recovery_min`, `recovery_hold`: over `[recovery]`'s.
        public var recovery: RecoverySettings
        /// `sound`: whether its rests play cues and an alarm; nil: they do.
        public var sound: Bool?

        public init(
            name: String = "", restUSec: USec? = nil, failedRestUSec: USec? = nil, category: String? = nil,
            sets: Int? = nil, recovery: RecoverySettings = RecoverySettings(), sound: Bool? = nil
        ) {
            self.sound = sound
            self.name = name
            self.restUSec = restUSec
            self.failedRestUSec = failedRestUSec
            self.category = category
            self.sets = sets
            self.recovery = recovery
        }
    }

    /// By `ExerciseName.key`.
    public var exercises: [String: Exercise] = [:]
    /// Category name → rest.
    public var categories: [String: USec] = [:]
    /// The rest when no rule gives one.
    public var defaultDurationUSec: USec = 90_000_000
    /// Added after a failed set when the exercise has no `failed_rest`.
    public var failedExtraUSec: USec = 30_000_000
    /// How many days of history are kept.
    public var keepDays: Int = 365
    /// The unit people read and type weights in (`[history] weight_unit`); history keeps kg.
    public var weightUnit: WeightUnit = .kg
    /// How many days a followed rest's heart rate is kept (never longer than its set); 0 keeps none.
    public var heartRateKeepDays: Int = 90
    /// A workout left untouched this long ends by itself, as abandoned (`[workout] abandon_after`).
    public var workoutAbandonAfterUSec: USec = 12 * 3_600_000_000
    /// `[recovery]`: how rests end on recovery where an exercise does not say; every field set,
    /// to the defaults restd.conf(5) gives (not ending on recovery unless asked, 120 bpm, a
    /// minimum of 60 s or the rest when shorter, a hold of 10 s).
    public var recovery = RecoverySettings(
        untilRecovered: false, target: .bpm(RecoveryTarget.standardBPM),
        minimumUSec: RecoveryRule.defaultMinimumCapUSec,
        holdUSec: RecoveryRule.defaultHoldUSec)
    /// `[recovery] hr_max` and `resting_hr`: the personal figures a share target needs.
    public var maxHeartRate: Int?
    public var restingHeartRate: Int?

    public init() {}

    /// History from before this instant is pruned: `keepDays` days before `now`.
    public func historyCutoffUSec(now: USec) -> USec {
        now.subtractingSaturated(USec(max(keepDays, 0)) * 86_400_000_000)
    }

    /// Heart-rate traces from before this instant are pruned: `heartRateKeepDays` days before
    /// `now`, or `keepDays` when that is fewer.
    public func heartRateCutoffUSec(now: USec) -> USec {
        now.subtractingSaturated(USec(max(min(heartRateKeepDays, keepDays), 0)) * 86_400_000_000)
    }

    /// The recovery rule of a rest of `plannedUSec` after a set of `exercise` (nil: none
    /// configured), or nil when it does not end on recovery. `asked` is the set's own choice;
    /// `plan` what a workout's plan says (its [[exercise]]'s over the plan's), over the
    /// exercise's, over `[recovery]`.
    public func recoveryRule(
        exercise: Exercise?, plan: [RecoverySettings] = [], asked: Bool?, plannedUSec: USec
    ) throws(TimerError) -> RecoveryRule? {
        let layers = plan + [exercise?.recovery ?? RecoverySettings(), recovery]
        let merged = layers.dropFirst().reduce(layers[0]) { specific, general in specific.over(general) }
        return try merged.rule(
            asked: asked, plannedUSec: plannedUSec, maxHeartRate: maxHeartRate, restingHeartRate: restingHeartRate)
    }

    /// The settings of the exercise called `name`, if the configuration has any.
    public func exercise(_ name: ExerciseName) -> Exercise? { exercises[name.key] }
}
