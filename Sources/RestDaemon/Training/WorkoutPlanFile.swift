import Localization
import RestCore
import TOML

/// Reads a workout plan: TOML, every problem reported as `file:line: reason` like config.toml.
///
///     name = "Push day"
///
///     [[exercise]]
///     name = "Squat"
///     sets = 5
///     reps = 5            # optional
///     weight = 100        # kg, optional
///     rest = "3m"         # optional: else the usual rules choose the rest
///     failed_rest = "4m"  # optional
///     sound = false       # optional: no cues or alarm for its rests
///
///     [[exercise]]
///     superset = ["Curl", "Triceps pushdown"]   # done back to back, the rest after the round
///     sets = 3
///     reps = 12
///     rest = "90s"
///
/// Resting until recovered (`until_recovered`, `recovery_target`, `recovery_min`,
/// `recovery_hold`, as in an exercise's table of config.toml) may be set for the whole plan, at
/// its top, and for one [[exercise]], which wins.
public enum WorkoutPlanFile {
    /// Parses a plan's text; `file` names it in problems, and its name is the plan's when the
    /// file gives none ("push-day.toml" → "push-day").
    public static func parse(_ text: String, file: String) throws(ConfigError) -> WorkoutPlan {
        guard text.utf8.count <= WorkoutPlan.Limits.maxFileBytes else {
            throw ConfigError([
                ConfigProblem(
                    file: file, line: nil,
                    reason: localized(
                        "the plan is %1$d bytes; at most %2$d KiB are allowed", text.utf8.count,
                        WorkoutPlan.Limits.maxFileBytes / 1024))
            ])
        }
        let table: TOMLTable
        do {
            table = try TOMLParser.parse(text)
        } catch {
            throw ConfigError([
                ConfigProblem(file: file, line: error.line, reason: localized("not valid TOML: %1$s", error.reason))
            ])
        }
        var problems: [ConfigProblem] = []
        func problem(_ line: Int?, _ reason: String) {
            problems.append(ConfigProblem(file: file, line: line, reason: reason))
        }

        var name = defaultName(file)
        var blocks: [WorkoutPlan.Block] = []
        var recovery = RecoverySettings()
        for (key, value) in table.entries {
            switch key {
            case "name":
                do {
                    name = try exerciseName(value, key: "name")
                } catch {
                    problem(value.line, error.reason)
                }
            case "exercise":
                guard let entries = value.array, entries.allSatisfy({ $0.table != nil }) else {
                    problem(
                        value.line,
                        localized("exercise must be a list of tables ([[exercise]]), found %1$s", value.typeDescription)
                    )
                    continue
                }
                for entry in entries {
                    let (read, found) = block(entry)
                    for each in found { problem(each.line ?? entry.line, each.reason) }
                    if let read { blocks.append(read) }
                }
            case _ where TrainingConfig.recoveryKeys.contains(key):
                do {
                    try TrainingConfig.readRecoveryKey(key, value, into: &recovery)
                } catch {
                    problem(value.line, "\(key): \(error.reason)")
                }
            default:
                let known = ["name", "exercise"] + TrainingConfig.recoveryKeys
                if let meant = Suggestion.likelyMeant(key, among: known, alreadySet: Set(table.keys)) {
                    problem(
                        value.line,
                        localized(
                            "unknown key %1$s; did you mean %2$s?", MessageText.name(key), MessageText.name(meant)))
                } else {
                    problem(
                        value.line,
                        localized(
                            "unknown key %1$s; a plan has name, [[exercise]] tables and %2$s", MessageText.name(key),
                            TrainingConfig.recoveryKeys.joined(separator: ", ")))
                }
            }
        }
        if problems.isEmpty {
            if blocks.isEmpty {
                problem(nil, localized("the plan has no exercises; add [[exercise]] tables with name and sets"))
            } else if blocks.reduce(0, { $0 + $1.exercises.count }) > WorkoutPlan.Limits.maxExercises {
                problem(nil, localized("the plan has more than %1$d exercises", WorkoutPlan.Limits.maxExercises))
            }
        }
        guard problems.isEmpty else {
            throw ConfigError(problems.sorted { ($0.line ?? 0, $0.reason) < ($1.line ?? 0, $1.reason) })
        }
        return WorkoutPlan(name: name, blocks: blocks, recovery: recovery)
    }

    private struct Problem: Error {
        let line: Int?
        let reason: String
    }

    private static let keys =
        ["name", "superset", "sets", "reps", "weight", "rest", "failed_rest", "sound"] + TrainingConfig.recoveryKeys

    /// One [[exercise]] table: an exercise, or a superset of several; nil with every problem
    /// found in it, each at its line, when it cannot be used.
    private static func block(_ entry: TOMLValue) -> (WorkoutPlan.Block?, [Problem]) {
        var problems: [Problem] = []
        /// The value read by `read`, or nil with its problem kept.
        func checked<Value>(_ read: () throws(Problem) -> Value) -> Value? {
            do {
                return try read()
            } catch {
                problems.append(error)
                return nil
            }
        }
        let table = entry.table ?? TOMLTable()
        for (key, value) in table.entries where !keys.contains(key) {
            let reason =
                if let meant = Suggestion.likelyMeant(key, among: keys, alreadySet: Set(table.keys)) {
                    localized(
                        "unknown key %1$s in [[exercise]]; did you mean %2$s?", MessageText.name(key),
                        MessageText.name(meant))
                } else {
                    localized(
                        "unknown key %1$s in [[exercise]]; the keys are %2$s", MessageText.name(key),
                        keys.joined(separator: ", "))
                }
            problems.append(Problem(line: value.line, reason: reason))
        }
        let names: [String]? = checked { () throws(Problem) in
            switch (table["name"], table["superset"]) {
            case (let name?, nil):
                return [try exerciseName(name, key: "name")]
            case (nil, let superset?):
                guard let list = superset.array, list.count >= 2 else {
                    throw Problem(
                        line: superset.line,
                        reason: localized(
                            "superset must list two or more exercises, as in [\"Curl\", \"Triceps pushdown\"]"))
                }
                var names: [String] = []
                for element in list { names.append(try exerciseName(element, key: "superset")) }
                return names
            case (_?, _?):
                throw Problem(
                    line: entry.line, reason: localized("an [[exercise]] has either name or superset, not both"))
            case (nil, nil):
                throw Problem(line: entry.line, reason: localized("an [[exercise]] needs a name (or a superset list)"))
            }
        }
        let sets = checked { () throws(Problem) in
            guard let value = table["sets"] else {
                let range = WorkoutPlan.Limits.sets
                let reason =
                    if let names {
                        localized(
                            "%1$s needs sets (%2$d to %3$d)", names.joined(separator: " + "), range.lowerBound,
                            range.upperBound)
                    } else {
                        localized("an [[exercise]] needs sets (%1$d to %2$d)", range.lowerBound, range.upperBound)
                    }
                throw Problem(line: entry.line, reason: reason)
            }
            return try integer(value, key: "sets", in: WorkoutPlan.Limits.sets)
        }
        let reps = checked { () throws(Problem) in
            try table["reps"].map { (value) throws(Problem) in
                try integer(value, key: "reps", in: 1...Int(SetInput.maxReps))
            }
        }
        let weight = checked { () throws(Problem) in
            try table["weight"].map { (value) throws(Problem) in try weightKG(value) }
        }
        let rest = checked { () throws(Problem) in
            try table["rest"].map { (value) throws(Problem) in try duration(value, key: "rest") }
        }
        let failedRest = checked { () throws(Problem) in
            try table["failed_rest"].map { (value) throws(Problem) in try duration(value, key: "failed_rest") }
        }
        let sound = checked { () throws(Problem) in
            try table["sound"].map { (value) throws(Problem) in
                try Self.value(value, key: "sound") { (value) throws(ConfigValueError) in try ConfigValue.boolean(value)
                }
            }
        }
        var recovery = RecoverySettings()
        for key in TrainingConfig.recoveryKeys {
            guard let value = table[key] else { continue }
            do {
                try TrainingConfig.readRecoveryKey(key, value, into: &recovery)
            } catch {
                problems.append(Problem(line: value.line, reason: "\(key): \(error.reason)"))
            }
        }
        guard problems.isEmpty, let names, let sets, let reps, let weight, let rest, let failedRest, let sound else {
            return (nil, problems)
        }
        let block = WorkoutPlan.Block(
            exercises: names.map { WorkoutPlan.Exercise(name: $0, sets: sets, reps: reps, weightKG: weight) },
            restUSec: rest, failedRestUSec: failedRest, recovery: recovery, sound: sound)
        return (block, [])
    }

    private static func exerciseName(_ value: TOMLValue, key: String) throws(Problem) -> String {
        guard let text = value.string else {
            throw Problem(
                line: value.line, reason: localized("%1$s must be a string, found %2$s", key, value.typeDescription))
        }
        let trimmed = String(
            text.unicodeScalars.drop { $0 == " " || $0 == "\t" }.reversed()
                .drop { $0 == " " || $0 == "\t" }.reversed().map(Character.init))
        guard (1...64).contains(trimmed.count),
            !trimmed.unicodeScalars.contains(where: \.isControlCharacter)
        else {
            throw Problem(
                line: value.line,
                reason: localized(
                    "%1$s %2$s must be 1 to 64 characters without control characters", key, MessageText.quoted(text)))
        }
        return trimmed
    }

    /// A value of the [[exercise]] table read as config.toml reads its keys, a problem told
    /// as there: `key: reason`.
    private static func value<Value>(
        _ value: TOMLValue, key: String, _ read: (TOMLValue) throws(ConfigValueError) -> Value
    ) throws(Problem) -> Value {
        do {
            return try read(value)
        } catch {
            throw Problem(line: value.line, reason: "\(key): \(error.reason)")
        }
    }

    private static func integer(_ value: TOMLValue, key: String, in range: ClosedRange<Int>) throws(Problem) -> Int {
        try Self.value(value, key: key) { (value) throws(ConfigValueError) in try ConfigValue.integer(value, in: range)
        }
    }

    private static func weightKG(_ value: TOMLValue) throws(Problem) -> Double {
        try Self.value(value, key: "weight") { (value) throws(ConfigValueError) in
            try ConfigValue.number(value, in: 0...SetInput.maxWeightKg, unit: .kilograms)
        }
    }

    private static func duration(_ value: TOMLValue, key: String) throws(Problem) -> USec {
        try Self.value(value, key: key) { (value) throws(ConfigValueError) in
            try ConfigValue.duration(
                value, min: TimerLimits.standard.minDurationUSec, max: TimerLimits.standard.maxDurationUSec)
        }
    }

    /// "push-day" for ".../workouts/push-day.toml".
    static func defaultName(_ file: String) -> String {
        var base = Substring(file)
        if let slash = base.lastIndex(of: "/") { base = base[base.index(after: slash)...] }
        if base.hasSuffix(".toml") { base = base.dropLast(5) }
        return base.isEmpty ? "Workout" : String(base)
    }
}
