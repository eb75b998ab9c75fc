import DBusKit
import Glibc
import Localization
import RestCore
import RestNotify
import TOML

/// Why a value cannot be used, without the file and line (the parser adds them).
struct ConfigValueError: Error {
    let reason: String
    /// Where the problem is, when it is not the key's own line (a key inside a table-valued key).
    let line: Int?
    /// Further problems found in the same value (a table-valued key reports every one).
    let more: [ConfigValueError]

    init(_ reason: String, line: Int? = nil) {
        self.reason = reason
        self.line = line
        self.more = []
    }

    /// Several problems of one value, each with its own line; the first is `reason`.
    init(collecting problems: [ConfigValueError]) {
        self.reason = problems.first?.reason ?? ""
        self.line = problems.first?.line
        self.more = Array(problems.dropFirst())
    }

    /// This problem and the ones after it.
    var all: [ConfigValueError] { [ConfigValueError(reason, line: line)] + more.flatMap(\.all) }
}

/// One key of `config.toml`: the single place that says where it lives, how it is read and
/// checked, its default, and whether SIGHUP applies it. Adding a key is one entry in `all`
/// plus a field in `RestdConfiguration` (and an item in restd.conf(5), which a test checks).
struct ConfigKey: Sendable {
    /// The dotted path: `max_timers`, `notifications.urgency`.
    let path: String
    /// The default, as it would be written in the file.
    let defaultText: String
    /// Whether a reload (SIGHUP) applies a new value to the running daemon.
    let appliesOnReload: Bool
    /// The value in `configuration`, written as in the file (`defaultText` for the defaults).
    let show: @Sendable (RestdConfiguration) -> String
    let read: @Sendable (TOMLValue, inout RestdConfiguration) throws(ConfigValueError) -> Void

    /// The table the key lives in ("" for the top level) and its own name.
    var table: String { path.contains(".") ? String(path[..<path.lastIndex(of: ".")!]) : "" }
    var name: String { path.contains(".") ? String(path[path.index(after: path.lastIndex(of: ".")!)...]) : path }

    static let all: [ConfigKey] =
        [
            ConfigKey(
                path: "default_duration", defaultText: "\"90s\"", appliesOnReload: true,
                show: { ConfigValue.showDuration($0.defaultDurationUSec) }
            ) { value, config throws(ConfigValueError) in
                config.defaultDurationUSec = try ConfigValue.duration(
                    value, min: TimerLimits.standard.minDurationUSec,
                    max: TimerLimits.standard.maxDurationUSec)
            },
            ConfigKey(
                path: "max_timers", defaultText: "10000", appliesOnReload: true,
                show: { String($0.maxTimers) }
            ) { value, config throws(ConfigValueError) in
                config.maxTimers = try ConfigValue.integer(value, in: 1...TimerLimits.standard.maxTimers)
            },
            ConfigKey(
                path: "expired_retention", defaultText: "\"1h\"", appliesOnReload: true,
                show: { ConfigValue.showDuration($0.expiredRetentionUSec) }
            ) { value, config throws(ConfigValueError) in
                config.expiredRetentionUSec = try ConfigValue.duration(value, min: 0, max: 86_400_000_000)
            },
            // The same range as a subscriber's rate: the broadcast is one more stream like theirs.
            ConfigKey(
                path: "live.broadcast_rate", defaultText: "2", appliesOnReload: true,
                show: { ConfigValue.showNumber($0.live.broadcastRate) }
            ) { value, config throws(ConfigValueError) in
                config.live.broadcastRate = try ConfigValue.number(
                    value, in: LiveLimits.standard.subscriberRateHz, unit: .perSecond)
            },
            ConfigKey(
                path: "live.heart_rate_staleness", defaultText: "\"10s\"", appliesOnReload: true,
                show: { ConfigValue.showDuration($0.live.heartRateStalenessUSec) }
            ) { value, config throws(ConfigValueError) in
                config.live.heartRateStalenessUSec = try ConfigValue.duration(value, min: 1_000_000, max: 600_000_000)
            },
            ConfigKey(
                path: "heart_rate.bluetooth", defaultText: "\"auto\"", appliesOnReload: true,
                show: { ConfigValue.showStrings([$0.heartRate.bluetooth.description], list: false) }
            ) { value, config throws(ConfigValueError) in
                guard let text = value.string else {
                    throw ConfigValueError(
                        localized(
                            "expected \"auto\", \"off\" or a Bluetooth address (\"A0:9E:1A:12:34:56\"), found %1$s",
                            value.typeDescription))
                }
                guard let choice = StrapChoice(text) else {
                    throw ConfigValueError(
                        localized(
                            "%1$s is not \"auto\", \"off\" or a Bluetooth address (\"A0:9E:1A:12:34:56\")",
                            "\"\(text.debugEscaped)\""))
                }
                config.heartRate.bluetooth = choice
            },
            ConfigKey(
                path: "notifications.urgency", defaultText: "\"critical\"", appliesOnReload: true,
                show: { ConfigValue.showStrings([$0.notifications.urgency.rawValue], list: false) }
            ) { value, config throws(ConfigValueError) in
                config.notifications.urgency = try ConfigValue.choice(value, RestdConfiguration.Urgency.self)
            },
            ConfigKey(
                path: "notifications.actions", defaultText: "[\"add_30s\", \"restart\"]", appliesOnReload: true,
                show: { ConfigValue.showStrings($0.notifications.actions.map(\.rawValue), list: true) }
            ) { value, config throws(ConfigValueError) in
                config.notifications.actions = try ConfigValue.choices(value, NotificationAction.self)
            },
            ConfigKey(
                path: "sound.enabled", defaultText: "true", appliesOnReload: true,
                show: { String($0.sound.enabled) }
            ) { value, config throws(ConfigValueError) in
                config.sound.enabled = try ConfigValue.boolean(value)
            },
            ConfigKey(
                path: "sound.cues", defaultText: "3", appliesOnReload: true,
                show: { String($0.sound.cues) }
            ) { value, config throws(ConfigValueError) in
                config.sound.cues = try ConfigValue.integer(value, in: 0...RestdConfiguration.Sound.maxCues)
            },
            ConfigKey(
                path: "sound.ring_for", defaultText: "\"1m\"", appliesOnReload: true,
                show: { ConfigValue.showDuration($0.sound.ringForUSec) }
            ) { value, config throws(ConfigValueError) in
                config.sound.ringForUSec = try ConfigValue.duration(
                    value, min: 0, max: RestdConfiguration.Sound.maxRingForUSec)
            },
            ConfigKey(
                path: "sound.in_do_not_disturb", defaultText: "true", appliesOnReload: true,
                show: { String($0.sound.inDoNotDisturb) }
            ) { value, config throws(ConfigValueError) in
                config.sound.inDoNotDisturb = try ConfigValue.boolean(value)
            },
            ConfigKey(
                path: "sound.command", defaultText: "(none)", appliesOnReload: true,
                show: { $0.sound.command.map { ConfigValue.showStrings($0, list: true) } ?? "(none)" }
            ) { value, config throws(ConfigValueError) in
                config.sound.command = try ConfigValue.command(value)
            },
            ConfigKey(
                path: "sound.theme", defaultText: "(none)", appliesOnReload: true,
                show: { $0.sound.theme.map { ConfigValue.showStrings([$0], list: false) } ?? "(none)" }
            ) { value, config throws(ConfigValueError) in
                config.sound.theme = try ConfigValue.name(value) { found in
                    localized("expected the name of a sound theme (\"freedesktop\"), found %1$s", found)
                }
            },
            ConfigKey(
                path: "sound.cue_file", defaultText: "(none)", appliesOnReload: true,
                show: { $0.sound.cueFile.map { ConfigValue.showStrings([$0], list: false) } ?? "(none)" }
            ) { value, config throws(ConfigValueError) in
                config.sound.cueFile = try ConfigValue.absolutePath(value)
            },
            ConfigKey(
                path: "sound.alarm_file", defaultText: "(none)", appliesOnReload: true,
                show: { $0.sound.alarmFile.map { ConfigValue.showStrings([$0], list: false) } ?? "(none)" }
            ) { value, config throws(ConfigValueError) in
                config.sound.alarmFile = try ConfigValue.absolutePath(value)
            },
            ConfigKey(
                path: "mpris.enabled", defaultText: "false", appliesOnReload: true,
                show: { String($0.mediaPlayer.enabled) }
            ) { value, config throws(ConfigValueError) in
                config.mediaPlayer.enabled = try ConfigValue.boolean(value)
            },
            ConfigKey(
                path: "mpris.timer", defaultText: "\"default\"", appliesOnReload: true,
                show: { ConfigValue.showStrings([$0.mediaPlayer.timer.rawValue], list: false) }
            ) { value, config throws(ConfigValueError) in
                guard let text = value.string, !text.isEmpty else {
                    throw ConfigValueError(
                        localized(
                            "expected the id of a timer (\"default\", \"bench-press\"), found %1$s",
                            value.typeDescription))
                }
                do throws(TimerError) {
                    config.mediaPlayer.timer = try TimerID(parsing: text)
                } catch {
                    throw ConfigValueError(error.message)
                }
            },
        ] + TrainingConfig.keys

    /// Keys that moved, by their old path: still read, as the new key, with a warning naming it.
    static let renamed: [String: String] = ["notifications.sound_command": "sound.command"]

    /// The tables that hold keys ("" is the top level).
    static var tables: Set<String> { Set(all.map(\.table)).subtracting([""]) }

    /// The paths of the keys whose values differ between `old` and `new`, in `all` order.
    static func changedKeys(from old: RestdConfiguration, to new: RestdConfiguration) -> [String] {
        all.filter { $0.show(old) != $0.show(new) }.map(\.path)
    }
}

/// Readers of typed values; each refuses with a sentence that names what would be accepted.
enum ConfigValue {
    /// A duration: whole seconds as an integer, or a string in the one duration grammar of
    /// restd and restctl (`DurationParser`): "90", "90s", "1m30s", "2h", "1:30".
    static func duration(_ value: TOMLValue, min: USec, max: USec) throws(ConfigValueError) -> USec {
        let usec: USec
        if let int = value.integer {
            guard int >= 0 else {
                throw ConfigValueError(
                    localized("%1$d is negative; give %2$s, the last two as strings", int, DurationParser.forms))
            }
            let (product, overflow) = UInt64(int).multipliedReportingOverflow(by: 1_000_000)
            guard !overflow else {
                throw ConfigValueError(
                    localized(
                        "%1$d s is out of range: give %2$s to %3$s", int, DurationText.describe(min),
                        DurationText.describe(max)))
            }
            usec = product
        } else if let text = value.string {
            do {
                // TRANSLATORS: what a sentence about a wrong duration in config.toml calls it, as in
                // 'the duration "9x" is not understood'.
                usec = try DurationParser.parse(text, name: localized("the duration"))
            } catch {
                throw ConfigValueError(error.message)
            }
        } else {
            throw ConfigValueError(
                localized(
                    "expected a duration, found %1$s; give %2$s, the last two as strings", value.typeDescription,
                    DurationParser.forms))
        }
        guard usec >= min, usec <= max else {
            throw ConfigValueError(
                localized(
                    "%1$s is out of range: give %2$s to %3$s", DurationText.describe(usec), DurationText.describe(min),
                    DurationText.describe(max)))
        }
        return usec
    }

    static func integer(_ value: TOMLValue, in range: ClosedRange<Int>) throws(ConfigValueError) -> Int {
        guard let int = value.integer.flatMap(Int.init(exactly:)) else {
            throw ConfigValueError(
                localized(
                    "expected a whole number from %1$d to %2$d, found %3$s", range.lowerBound, range.upperBound,
                    value.typeDescription))
        }
        guard range.contains(int) else {
            throw ConfigValueError(
                localized("%1$d is out of range: give %2$d to %3$d", int, range.lowerBound, range.upperBound))
        }
        return int
    }

    /// What a number counts, for the sentences that refuse it.
    enum NumberUnit {
        case perSecond, kilograms
    }

    static func number(
        _ value: TOMLValue, in range: ClosedRange<Double>, unit: NumberUnit
    ) throws(ConfigValueError) -> Double {
        let lower = MessageText.number(range.lowerBound), upper = MessageText.number(range.upperBound)
        let number: Double
        if let int = value.integer {
            number = Double(int)
        } else if let double = value.float {
            number = double
        } else {
            let found = value.typeDescription
            let reason =
                switch unit {
                case .perSecond:
                    localized("expected a number from %1$s to %2$s updates per second, found %3$s", lower, upper, found)
                case .kilograms: localized("expected a number from %1$s to %2$s kg, found %3$s", lower, upper, found)
                }
            throw ConfigValueError(reason)
        }
        guard range.contains(number) else {  // NaN is in no range
            let given = MessageText.number(number)
            let reason =
                switch unit {
                case .perSecond:
                    localized("%1$s is out of range: give %2$s to %3$s updates per second", given, lower, upper)
                case .kilograms: localized("%1$s is out of range: give %2$s to %3$s kg", given, lower, upper)
                }
            throw ConfigValueError(reason)
        }
        return number
    }

    static func choice<T: RawRepresentable & CaseIterable>(_ value: TOMLValue, _: T.Type) throws(ConfigValueError) -> T
    where T.RawValue == String {
        let allowed = T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        guard let text = value.string else {
            throw ConfigValueError(localized("expected one of %1$s, found %2$s", allowed, value.typeDescription))
        }
        guard let choice = T(rawValue: text) else {
            throw ConfigValueError(localized("%1$s is not one of %2$s", "\"\(text.debugEscaped)\"", allowed))
        }
        return choice
    }

    static func choices<T: RawRepresentable & CaseIterable & Equatable>(
        _ value: TOMLValue, _: T.Type
    ) throws(ConfigValueError) -> [T]
    where T.RawValue == String {
        let allowed = T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        guard let array = value.array else {
            throw ConfigValueError(localized("expected a list of %1$s, found %2$s", allowed, value.typeDescription))
        }
        var result: [T] = []
        for element in array {
            let choice = try Self.choice(element, T.self)
            guard !result.contains(choice) else {
                throw ConfigValueError(localized("%1$s is listed twice", "\"\(choice.rawValue)\""))
            }
            result.append(choice)
        }
        return result
    }

    static func boolean(_ value: TOMLValue) throws(ConfigValueError) -> Bool {
        guard let flag = value.boolean else {
            throw ConfigValueError(localized("expected true or false, found %1$s", value.typeDescription))
        }
        return flag
    }

    /// A program and its arguments, run without a shell: ["paplay", "/path/sound.oga"].
    static func command(_ value: TOMLValue) throws(ConfigValueError) -> [String] {
        guard let array = value.array else {
            throw ConfigValueError(
                localized(
                    "expected a list of strings, the program and its arguments (\"paplay\", \"/usr/share/sounds/…\"), found %1$s",
                    value.typeDescription))
        }
        var argv: [String] = []
        for element in array {
            guard let word = element.string else {
                throw ConfigValueError(
                    localized(
                        "expected a list of strings, the program and its arguments (\"paplay\", \"/usr/share/sounds/…\"), found %1$s in the list",
                        element.typeDescription))
            }
            argv.append(word)
        }
        guard let program = argv.first, !program.isEmpty else {
            throw ConfigValueError(localized("the list is empty or names no program; leave the key out for no sound"))
        }
        return argv
    }

    /// A name: a string that is not empty and holds no slash; `expected` says what, given what was found.
    static func name(
        _ value: TOMLValue, expected: (_ found: String) -> String
    ) throws(ConfigValueError) -> String {
        guard let text = value.string, !text.isEmpty else {
            throw ConfigValueError(expected(value.typeDescription))
        }
        guard !text.contains("/") else {
            throw ConfigValueError(localized("%1$s is not a name: it holds a slash", MessageText.quoted(text)))
        }
        return text
    }

    /// A file's absolute path ("/home/me/sounds/gong.oga"; "~/" for the home directory).
    static func absolutePath(_ value: TOMLValue) throws(ConfigValueError) -> String {
        guard let text = value.string, !text.isEmpty else {
            throw ConfigValueError(
                localized("expected a file's path (\"/home/me/gong.oga\"), found %1$s", value.typeDescription))
        }
        if text.hasPrefix("~/"), let home = getenv("HOME").map({ String(cString: $0) }), home.hasPrefix("/") {
            return home + text.dropFirst()
        }
        guard text.hasPrefix("/") else {
            throw ConfigValueError(
                localized("%1$s is not an absolute path: start it with / or ~/", MessageText.quoted(text)))
        }
        return text
    }

    /// A duration as the file would say it, in the largest unit that divides it: "90s", "2m", "1h".
    static func showDuration(_ usec: USec) -> String {
        let seconds = usec / 1_000_000
        if seconds > 0, seconds % 3_600 == 0 { return "\"\(seconds / 3_600)h\"" }
        if seconds > 0, seconds % 60 == 0 { return "\"\(seconds / 60)m\"" }
        return "\"\(seconds)s\""
    }

    /// A number without a needless ".0": 1, 2.5.
    static func showNumber(_ number: Double) -> String {
        MessageText.number(number)
    }

    /// One TOML string ("low") or a list of them (["restart", "add_30s"]).
    static func showStrings(_ strings: [String], list: Bool) -> String {
        let quoted = strings.map { string in
            "\"" + string.flatMap { $0 == "\"" || $0 == "\\" ? ["\\", $0] : [$0] } + "\""
        }
        return list ? "[" + quoted.joined(separator: ", ") + "]" : quoted.joined()
    }
}
