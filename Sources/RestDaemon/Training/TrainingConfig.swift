import Localization
import RestCore
import TOML

/// The keys of the training rules: `[rest] failed_extra`, `[history] keep_days`,
/// `heart_rate_keep_days` and `weight_unit`, `[workout] abandon_after`, `[recovery]` (resting until recovered), and two tables
/// whose keys are the person's own names — `[exercises."Squat"]` (rest, failed_rest, category,
/// sets) and `[categories]` (a rest per category name). Each table is one `ConfigKey` whose
/// value is the whole table.
enum TrainingConfig {
    static let exerciseKeys = ["rest", "failed_rest", "category", "sets", "sound"] + recoveryKeys

    static let keys: [ConfigKey] = [
        ConfigKey(
            path: "rest.failed_extra", defaultText: "\"30s\"", appliesOnReload: true,
            show: { ConfigValue.showDuration($0.training.failedExtraUSec) }
        ) { value, config throws(ConfigValueError) in
            config.training.failedExtraUSec = try ConfigValue.duration(
                value, min: 0, max: TimerLimits.standard.maxDurationUSec)
        },
        ConfigKey(
            path: "history.keep_days", defaultText: "365", appliesOnReload: true,
            show: { String($0.training.keepDays) }
        ) { value, config throws(ConfigValueError) in
            config.training.keepDays = try ConfigValue.integer(value, in: 1...36_500)
        },
        ConfigKey(
            path: "history.heart_rate_keep_days", defaultText: "90", appliesOnReload: true,
            show: { String($0.training.heartRateKeepDays) }
        ) { value, config throws(ConfigValueError) in
            config.training.heartRateKeepDays = try ConfigValue.integer(value, in: 0...36_500)
        },
        ConfigKey(
            path: "history.weight_unit", defaultText: "\"kg\"", appliesOnReload: true,
            show: { ConfigValue.showStrings([$0.training.weightUnit.rawValue], list: false) }
        ) { value, config throws(ConfigValueError) in
            config.training.weightUnit = try ConfigValue.choice(value, WeightUnit.self)
        },
        ConfigKey(
            path: "workout.abandon_after", defaultText: "\"12h\"", appliesOnReload: true,
            show: { ConfigValue.showDuration($0.training.workoutAbandonAfterUSec) }
        ) { value, config throws(ConfigValueError) in
            config.training.workoutAbandonAfterUSec = try ConfigValue.duration(
                value, min: 60_000_000, max: 30 * 86_400_000_000)
        },
        ConfigKey(
            path: "recovery.until_recovered", defaultText: "false", appliesOnReload: true,
            show: { String($0.training.recovery.untilRecovered ?? false) }
        ) { value, config throws(ConfigValueError) in
            config.training.recovery.untilRecovered = try ConfigValue.boolean(value)
        },
        ConfigKey(
            path: "recovery.target", defaultText: "\"120bpm\"", appliesOnReload: true,
            show: { "\"\($0.training.recovery.target ?? .bpm(120))\"" }
        ) { value, config throws(ConfigValueError) in
            config.training.recovery.target = try recoveryTarget(value)
        },
        ConfigKey(
            path: "recovery.min", defaultText: "\"1m\"", appliesOnReload: true,
            show: { ConfigValue.showDuration($0.training.recovery.minimumUSec ?? RecoveryRule.defaultMinimumCapUSec) }
        ) { value, config throws(ConfigValueError) in
            config.training.recovery.minimumUSec = try recoveryMinimum(value)
        },
        ConfigKey(
            path: "recovery.hold", defaultText: "\"10s\"", appliesOnReload: true,
            show: { ConfigValue.showDuration($0.training.recovery.holdUSec ?? RecoveryRule.defaultHoldUSec) }
        ) { value, config throws(ConfigValueError) in
            config.training.recovery.holdUSec = try recoveryHold(value)
        },
        ConfigKey(
            path: "recovery.hr_max", defaultText: "(none)", appliesOnReload: true,
            show: { $0.training.maxHeartRate.map(String.init) ?? "(none)" }
        ) { value, config throws(ConfigValueError) in
            config.training.maxHeartRate = try ConfigValue.integer(value, in: RecoveryTarget.bpmRange)
        },
        ConfigKey(
            path: "recovery.resting_hr", defaultText: "(none)", appliesOnReload: true,
            show: { $0.training.restingHeartRate.map(String.init) ?? "(none)" }
        ) { value, config throws(ConfigValueError) in
            config.training.restingHeartRate = try ConfigValue.integer(value, in: RecoveryTarget.bpmRange)
        },
        ConfigKey(
            path: "categories", defaultText: "(none)", appliesOnReload: true,
            show: { showCategories($0.training.categories) }
        ) { value, config throws(ConfigValueError) in
            config.training.categories = try categories(value)
        },
        ConfigKey(
            path: "exercises", defaultText: "(none)", appliesOnReload: true,
            show: { showExercises($0.training.exercises) }
        ) { value, config throws(ConfigValueError) in
            config.training.exercises = try exercises(value)
        },
    ]

    /// `[categories]`: `compound = "2m30s"`, one rest per name.
    static func categories(_ value: TOMLValue) throws(ConfigValueError) -> [String: USec] {
        guard let table = value.table else {
            throw ConfigValueError(
                localized("must be a table ([categories]) of rests, found %1$s", value.typeDescription))
        }
        var result: [String: USec] = [:]
        var problems: [ConfigValueError] = []
        for (name, rest) in table.entries {
            do {
                result[name] = try restDuration(rest)
            } catch {
                problems.append(ConfigValueError("categories.\(quotedKey(name)): \(error.reason)", line: rest.line))
            }
        }
        guard problems.isEmpty else { throw ConfigValueError(collecting: problems) }
        return result
    }

    /// A name as a TOML key: bare when it can be, else quoted (`Squat`, `"Bench press"`).
    static func quotedKey(_ name: String) -> String {
        let bare =
            !name.isEmpty
            && name.utf8.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
                    || byte == UInt8(ascii: "-")
            }
        return bare ? name : "\"\(name.debugEscaped)\""
    }

    /// `[exercises."Squat"]` tables, by `ExerciseName.key`.
    static func exercises(_ value: TOMLValue) throws(ConfigValueError) -> [String: TrainingSettings.Exercise] {
        guard let table = value.table else {
            throw ConfigValueError(
                localized("must hold one table per exercise ([exercises.\"Squat\"]), found %1$s", value.typeDescription)
            )
        }
        var result: [String: TrainingSettings.Exercise] = [:]
        var problems: [ConfigValueError] = []
        for (rawName, entry) in table.entries {
            let label = "exercises.\"\(rawName.debugEscaped)\""
            let name: ExerciseName
            do {
                name = try ExerciseName(parsing: rawName)
            } catch {
                problems.append(ConfigValueError("\(label): \(error.message)", line: entry.line))
                continue
            }
            guard result[name.key] == nil else {
                problems.append(
                    ConfigValueError(
                        localized(
                            "%1$s names an exercise already listed (names are compared without regard to case)", label),
                        line: entry.line))
                continue
            }
            guard let fields = entry.table else {
                problems.append(
                    ConfigValueError(
                        localized("%1$s must be a table ([%1$s]), found %2$s", label, entry.typeDescription),
                        line: entry.line))
                continue
            }
            var exercise = TrainingSettings.Exercise(name: name.display)
            for (key, field) in fields.entries {
                do throws(ConfigValueError) {
                    switch key {
                    case "rest": exercise.restUSec = try restDuration(field)
                    case "failed_rest": exercise.failedRestUSec = try restDuration(field)
                    case "category":
                        guard let text = field.string, !text.isEmpty else {
                            throw ConfigValueError(
                                localized(
                                    "expected the name of a category of [categories], found %1$s",
                                    field.typeDescription))
                        }
                        exercise.category = text
                    case "sets": exercise.sets = try ConfigValue.integer(field, in: 1...1000)
                    case "sound": exercise.sound = try ConfigValue.boolean(field)
                    case _ where recoveryKeys.contains(key):
                        try readRecoveryKey(key, field, into: &exercise.recovery)
                    default:
                        if let meant = Suggestion.likelyMeant(key, among: exerciseKeys, alreadySet: Set(fields.keys)) {
                            throw ConfigValueError(
                                localized("unknown key; did you mean %1$s?", MessageText.name(meant)))
                        }
                        throw ConfigValueError(
                            localized("unknown key; an exercise has %1$s", exerciseKeys.joined(separator: ", ")))
                    }
                } catch {
                    problems.append(ConfigValueError("\(label).\(key): \(error.reason)", line: field.line))
                }
            }
            result[name.key] = exercise
        }
        guard problems.isEmpty else { throw ConfigValueError(collecting: problems) }
        return result
    }

    /// An exercise's category that `[categories]` does not define: a typo would silently fall
    /// back to default_duration. Told at the `category` key, with the exercise's name as written.
    static func problems(_ configuration: RestdConfiguration, table: TOMLTable) -> [(Int, String)] {
        categoryProblems(table) + recoveryProblems(configuration, table: table)
    }

    /// A share target without the HRmax (and resting heart rate) it needs: told at the target.
    private static func recoveryProblems(_ configuration: RestdConfiguration, table: TOMLTable) -> [(Int, String)] {
        let training = configuration.training
        var targets: [(line: Int?, key: String, settings: RecoverySettings)] = [
            (table["recovery"]?.table?["target"]?.line, "recovery.target", training.recovery)
        ]
        for (rawName, entry) in table["exercises"]?.table?.entries ?? [] {
            guard let name = try? ExerciseName(parsing: rawName), let exercise = training.exercises[name.key] else {
                continue
            }
            targets.append(
                (
                    entry.table?["recovery_target"]?.line,
                    "exercises.\"\(rawName.debugEscaped)\".recovery_target", exercise.recovery
                ))
        }
        return targets.compactMap { line, key, settings -> (Int, String)? in
            guard let line, settings.target != nil else { return nil }
            do throws(TimerError) {
                _ = try settings.rule(
                    asked: true, plannedUSec: TimerLimits.standard.maxDurationUSec,
                    maxHeartRate: training.maxHeartRate, restingHeartRate: training.restingHeartRate)
                return nil
            } catch {
                return (line, "\(key): \(error.message)")
            }
        }
    }

    private static func categoryProblems(_ table: TOMLTable) -> [(Int, String)] {
        guard let exercises = table["exercises"]?.table else { return [] }
        // The names [categories] defines, even where one of its rests is wrong (told on its own).
        let defined = Set(table["categories"]?.table?.entries.map(\.0) ?? [])
        return exercises.entries.compactMap { rawName, entry in
            guard let field = entry.table?["category"], let category = field.string, !defined.contains(category) else {
                return nil
            }
            let known = defined.sorted().map { "\"\($0)\"" }
            let key = "exercises.\"\(rawName.debugEscaped)\".category"
            let name = "\"\(category.debugEscaped)\""
            return (
                field.line,
                known.isEmpty
                    ? localized("%1$s: %2$s is not in [categories]; define it there", key, name)
                    : localized("%1$s: %2$s is not in [categories] (%3$s)", key, name, known.joined(separator: ", "))
            )
        }
    }

    /// The keys of resting until recovered in an exercise's table and in a workout plan (the plan
    /// itself, and each [[exercise]]).
    static let recoveryKeys = ["until_recovered", "recovery_target", "recovery_min", "recovery_hold"]

    /// Reads one of `recoveryKeys` into `settings`.
    static func readRecoveryKey(
        _ key: String, _ value: TOMLValue, into settings: inout RecoverySettings
    ) throws(ConfigValueError) {
        switch key {
        case "until_recovered": settings.untilRecovered = try ConfigValue.boolean(value)
        case "recovery_target": settings.target = try recoveryTarget(value)
        case "recovery_min": settings.minimumUSec = try recoveryMinimum(value)
        case "recovery_hold": settings.holdUSec = try recoveryHold(value)
        default: preconditionFailure("not a recovery key: \(key)")
        }
    }

    /// A recovery target: "120bpm", "60%max", "60%reserve" or "-30bpm".
    private static func recoveryTarget(_ value: TOMLValue) throws(ConfigValueError) -> RecoverySettings.TargetSpec {
        guard let text = value.string else {
            throw ConfigValueError(
                localized(
                    "expected a target as a string, %1$s, found %2$s", RecoverySettings.TargetSpec.forms,
                    value.typeDescription))
        }
        do {
            return try RecoverySettings.TargetSpec(parsing: text)
        } catch {
            throw ConfigValueError(error.message)
        }
    }

    /// The least a rest that ends on recovery lasts: 0 s to 24 h (a longer one than the rest is
    /// cut to the rest).
    private static func recoveryMinimum(_ value: TOMLValue) throws(ConfigValueError) -> USec {
        try ConfigValue.duration(value, min: 0, max: TimerLimits.standard.maxDurationUSec)
    }

    private static func recoveryHold(_ value: TOMLValue) throws(ConfigValueError) -> USec {
        try ConfigValue.duration(
            value, min: RecoveryRule.holdRangeUSec.lowerBound, max: RecoveryRule.holdRangeUSec.upperBound)
    }

    private static func restDuration(_ value: TOMLValue) throws(ConfigValueError) -> USec {
        try ConfigValue.duration(
            value, min: TimerLimits.standard.minDurationUSec, max: TimerLimits.standard.maxDurationUSec)
    }

    private static func showCategories(_ categories: [String: USec]) -> String {
        categories.isEmpty
            ? "(none)"
            : categories.sorted { $0.key < $1.key }.map { "\($0.key) = \(ConfigValue.showDuration($0.value))" }
                .joined(separator: ", ")
    }

    private static func showExercises(_ exercises: [String: TrainingSettings.Exercise]) -> String {
        exercises.isEmpty
            ? "(none)"
            : exercises.sorted { $0.key < $1.key }.map { key, exercise in
                var parts: [String] = []
                if let rest = exercise.restUSec { parts.append("rest = \(ConfigValue.showDuration(rest))") }
                if let rest = exercise.failedRestUSec {
                    parts.append("failed_rest = \(ConfigValue.showDuration(rest))")
                }
                if let category = exercise.category {
                    parts.append("category = \(ConfigValue.showStrings([category], list: false))")
                }
                if let sets = exercise.sets { parts.append("sets = \(sets)") }
                if let sound = exercise.sound { parts.append("sound = \(sound)") }
                if let until = exercise.recovery.untilRecovered { parts.append("until_recovered = \(until)") }
                if let target = exercise.recovery.target { parts.append("recovery_target = \"\(target)\"") }
                if let minimum = exercise.recovery.minimumUSec {
                    parts.append("recovery_min = \(ConfigValue.showDuration(minimum))")
                }
                if let hold = exercise.recovery.holdUSec {
                    parts.append("recovery_hold = \(ConfigValue.showDuration(hold))")
                }
                return "\(ConfigValue.showStrings([key], list: false)) {\(parts.joined(separator: ", "))}"
            }.joined(separator: "; ")
    }
}
