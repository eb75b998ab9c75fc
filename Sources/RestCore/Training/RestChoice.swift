/// Which rule chose a rest; its raw value is what `restctl status --json` shows as `rest_source`.
public enum RestSource: String, Sendable, CaseIterable {
    /// `--rest` (the `rest_usec` option).
    case given
    /// The exercise's `rest` in config.toml.
    case exercise
    /// The rest last used for this exercise, after any add/sub.
    case lastUsed = "last_used"
    /// The exercise's category in `[categories]`.
    case category
    /// `default_duration`.
    case `default`
    /// After a failed set: the exercise's `failed_rest`.
    case failedRest = "failed_rest"
    /// The rest of the workout plan's exercise (or superset).
    case plan
    /// After a failed set in a workout: the plan's `failed_rest`.
    case planFailedRest = "plan_failed_rest"
    /// No rest: inside a superset's round (the next exercise comes at once), or after the
    /// workout's last set.
    case none
}

/// A chosen rest: how long, and why.
public struct RestChoice: Sendable, Equatable {
    public var usec: USec
    public var source: RestSource
    /// Whether `failed_extra` was added (a failed set without a `failed_rest`).
    public var failedExtra: Bool

    public init(usec: USec, source: RestSource, failedExtra: Bool = false) {
        self.usec = usec
        self.source = source
        self.failedExtra = failedExtra
    }

    /// What `rest_source` says: the rule, with `+failed_extra` when that was added.
    public var sourceText: String { failedExtra ? source.rawValue + Self.failedExtraSuffix : source.rawValue }

    public static let failedExtraSuffix = "+failed_extra"

    /// The rest after a set, first rule that applies: `given` (--rest); the exercise's `rest`;
    /// the rest last used for it; its category's; `default_duration`. After a failed set the
    /// exercise's `failed_rest`, else the chosen rest plus `failed_extra`; a rest given by hand
    /// is taken as it is. The result is kept within `limits` (1 s to 24 h).
    public static func choose(
        given: USec?, failed: Bool, exercise: TrainingSettings.Exercise?, lastUsedUSec: USec?,
        settings: TrainingSettings, limits: TimerLimits
    ) -> RestChoice {
        if let given { return RestChoice(usec: given, source: .given) }
        if failed, let failedRest = exercise?.failedRestUSec {
            return RestChoice(usec: clamp(failedRest, limits), source: .failedRest)
        }
        var choice: RestChoice
        if let rest = exercise?.restUSec {
            choice = RestChoice(usec: rest, source: .exercise)
        } else if let lastUsedUSec {
            choice = RestChoice(usec: lastUsedUSec, source: .lastUsed)
        } else if let category = exercise?.category, let rest = settings.categories[category] {
            choice = RestChoice(usec: rest, source: .category)
        } else {
            choice = RestChoice(usec: settings.defaultDurationUSec, source: .default)
        }
        if failed, settings.failedExtraUSec > 0 {
            choice.usec = choice.usec.addingSaturated(settings.failedExtraUSec)
            choice.failedExtra = true
        }
        choice.usec = clamp(choice.usec, limits)
        return choice
    }

    /// The rest a workout plan gives after a set of `block`: none inside a superset's round
    /// or after the last set; a rest given by hand wins; after a failed set the plan's
    /// `failed_rest`, else its rest plus `failed_extra`. Nil when the plan gives no rest (the
    /// usual rules choose).
    public static func fromPlan(
        _ block: WorkoutPlan.Block, restAfter: Bool, given: USec?, failed: Bool, settings: TrainingSettings,
        limits: TimerLimits
    ) -> RestChoice? {
        guard restAfter else { return RestChoice(usec: 0, source: .none) }
        if let given { return RestChoice(usec: given, source: .given) }
        if failed, let failedRest = block.failedRestUSec {
            return RestChoice(usec: clamp(failedRest, limits), source: .planFailedRest)
        }
        guard let rest = block.restUSec else { return nil }
        var choice = RestChoice(usec: rest, source: .plan)
        if failed, settings.failedExtraUSec > 0 {
            choice.usec = choice.usec.addingSaturated(settings.failedExtraUSec)
            choice.failedExtra = true
        }
        choice.usec = clamp(choice.usec, limits)
        return choice
    }

    static func clamp(_ usec: USec, _ limits: TimerLimits) -> USec {
        min(max(usec, limits.minDurationUSec), limits.maxDurationUSec)
    }
}
