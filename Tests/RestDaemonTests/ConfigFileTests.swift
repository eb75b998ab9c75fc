import Foundation
import RestCore
import RestNotify
import Testing

@testable import RestDaemon

/// Parsing and checking config.toml: every key, every refusal with its line.
@Suite("Configuration file")
struct ConfigFileTests {
    private func parse(_ text: String) throws(ConfigError) -> RestdConfiguration {
        try ConfigFile.parse(text, file: "config.toml")
    }

    /// The problems of a file that must be refused, as `file:line: reason` lines.
    private func problems(_ text: String) -> [String] {
        do {
            _ = try parse(text)
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    @Test("an empty file, or only comments, gives the defaults")
    func defaults() throws {
        #expect(try parse("") == RestdConfiguration())
        #expect(try parse("# nothing here\n\n") == RestdConfiguration())
        let defaults = RestdConfiguration()
        #expect(defaults.defaultDurationUSec == 90_000_000)
        #expect(defaults.limits() == TimerLimits.standard)
        // The defaults restd.conf(5) promises: "Rest over" stays until dismissed (urgency byte 2),
        // with "+30 s" and "Again"; the broadcast at 2 Hz; a heart rate stale after 10 s.
        #expect(defaults.notifications.urgency == .critical)
        #expect(defaults.notifications.urgency.hint == 2)
        #expect(defaults.notifications.actions == [.add30s, .restart])
        #expect(defaults.notifications.style == NotificationStyle.standard)
        #expect(defaults.sound == RestdConfiguration.Sound())
        #expect(defaults.sound.enabled && defaults.sound.cues == 3 && defaults.sound.ringForUSec == 60_000_000)
        #expect(defaults.sound.inDoNotDisturb && defaults.sound.command == nil && defaults.sound.theme == nil)
        #expect(defaults.live.broadcastRate == 2)
        #expect(defaults.live.broadcastIntervalUSec == 500_000)
        #expect(defaults.live.heartRateStalenessUSec == 10_000_000)
        #expect(defaults.heartRate.bluetooth == .auto)
        #expect(defaults.liveLimits() == LiveLimits.standard)
    }

    @Test("every key is read")
    func everyKey() throws {
        let config = try parse(
            """
            default_duration = "2m"
            max_timers = 50
            expired_retention = 600

            [live]
            broadcast_rate = 2.5
            heart_rate_staleness = "30s"

            [heart_rate]
            bluetooth = "a0:9e:1a:12:34:56"

            [notifications]
            urgency = "critical"
            actions = ["add_1m", "cancel"]
            sound_command = ["paplay", "/usr/share/sounds/freedesktop/stereo/complete.oga"]
            """)
        #expect(config.defaultDurationUSec == 120_000_000)
        #expect(config.maxTimers == 50)
        #expect(config.expiredRetentionUSec == 600_000_000)
        #expect(config.live.broadcastRate == 2.5)
        #expect(config.live.broadcastIntervalUSec == 400_000)
        #expect(config.live.heartRateStalenessUSec == 30_000_000)
        #expect(config.heartRate.bluetooth == .address("A0:9E:1A:12:34:56"))
        #expect(config.notifications.urgency == .critical)
        #expect(config.notifications.urgency.hint == 2)
        #expect(config.notifications.actions == [.add1m, .cancel])
        #expect(config.notifications.style == NotificationStyle(urgency: .critical, actions: [.add1m, .cancel]))
        #expect(config.liveLimits().broadcastRateHz == 2.5 && config.liveLimits().heartRateStaleUSec == 30_000_000)
        // The key's old place, read as [sound] command with a warning.
        #expect(config.sound.command == ["paplay", "/usr/share/sounds/freedesktop/stereo/complete.oga"])
        #expect(
            config.warnings.map(\.reason) == [
                "'notifications.sound_command' is now 'sound.command'; it was read as that"
            ])
        let limits = config.limits()
        #expect(limits.maxTimers == 50 && limits.expiredRetentionUSec == 600_000_000)
        #expect(limits.maxDurationUSec == TimerLimits.standard.maxDurationUSec)
    }

    @Test("dotted keys and inline tables work like tables")
    func otherSpellings() throws {
        let dotted = try parse("notifications.urgency = \"low\"\nlive = { broadcast_rate = 4 }\n")
        #expect(dotted.notifications.urgency == .low)
        #expect(dotted.live.broadcastRate == 4)
        #expect(try parse("notifications.actions = []").notifications.actions == [])
    }

    @Test(
        "durations: seconds, h/m/s strings or clock times, as restctl takes them",
        arguments: [
            ("90", 90), ("\"90\"", 90), ("\"90s\"", 90), ("\"1m30s\"", 90), ("\"2m\"", 120), ("\"1h\"", 3600),
            ("\"1h2m3s\"", 3723), ("\"24h\"", 86_400), ("\"45\"", 45), ("\"1:30\"", 90), ("\"1:00:00\"", 3600),
        ])
    func durations(text: String, seconds: UInt64) throws {
        #expect(try parse("default_duration = \(text)").defaultDurationUSec == seconds * 1_000_000)
    }

    @Test("zero retention is allowed: expired timers go at once")
    func zeroRetention() throws {
        #expect(try parse("expired_retention = \"0s\"").expiredRetentionUSec == 0)
    }

    @Test(
        "bad values are refused with their line and a sentence",
        arguments: [
            ("default_duration = 0", "config.toml:1: default_duration: 0 s is out of range: give 1 s to 24 h"),
            (
                "\n\ndefault_duration = \"25h\"",
                "config.toml:3: default_duration: 25 h is out of range: give 1 s to 24 h"
            ),
            (
                "default_duration = -5",
                "config.toml:1: default_duration: -5 is negative; give seconds (90), units (1h2m3s, 1m30s, 90s, 2min, 1.5m) or a clock time (1:30, 1:02:03), the last two as strings"
            ),
            (
                "default_duration = \"1:30:99\"",
                "config.toml:1: default_duration: the duration \"1:30:99\" has 99 seconds; after a colon use 00 to 59"
            ),
            (
                "default_duration = \"30s1m\"",
                "config.toml:1: default_duration: the duration \"30s1m\" has its units out of order; give hours, then minutes, then seconds, as in 1h2m3s"
            ),
            (
                "default_duration = 1.5",
                "config.toml:1: default_duration: expected a duration, found a floating-point number; give seconds (90), units (1h2m3s, 1m30s, 90s, 2min, 1.5m) or a clock time (1:30, 1:02:03), the last two as strings"
            ),
            ("max_timers = 0", "config.toml:1: max_timers: 0 is out of range: give 1 to 10000"),
            ("max_timers = 10001", "config.toml:1: max_timers: 10001 is out of range: give 1 to 10000"),
            (
                "max_timers = \"ten\"",
                "config.toml:1: max_timers: expected a whole number from 1 to 10000, found a string"
            ),
            (
                "expired_retention = \"2d\"",
                "config.toml:1: expired_retention: the duration \"2d\" is not understood; give seconds (90), units (1h2m3s, 1m30s, 90s, 2min, 1.5m) or a clock time (1:30, 1:02:03)"
            ),
            (
                "[live]\nbroadcast_rate = 0",
                "config.toml:2: live.broadcast_rate: 0 is out of range: give 0.01 to 20 updates per second"
            ),
            (
                "[live]\nbroadcast_rate = 0.009",
                "config.toml:2: live.broadcast_rate: 0.009 is out of range: give 0.01 to 20 updates per second"
            ),
            (
                "[live]\nbroadcast_rate = 20.5",
                "config.toml:2: live.broadcast_rate: 20.5 is out of range: give 0.01 to 20 updates per second"
            ),
            (
                "[live]\nbroadcast_rate = nan",
                "config.toml:2: live.broadcast_rate: nan is out of range: give 0.01 to 20 updates per second"
            ),
            (
                "[live]\nbroadcast_rate = inf",
                "config.toml:2: live.broadcast_rate: inf is out of range: give 0.01 to 20 updates per second"
            ),
            (
                "[live]\nheart_rate_staleness = \"11m\"",
                "config.toml:2: live.heart_rate_staleness: 11 min is out of range: give 1 s to 10 min"
            ),
            (
                "[heart_rate]\nbluetooth = \"on\"",
                "config.toml:2: heart_rate.bluetooth: \"on\" is not \"auto\", \"off\" or a Bluetooth address (\"A0:9E:1A:12:34:56\")"
            ),
            (
                "[heart_rate]\nbluetooth = false",
                "config.toml:2: heart_rate.bluetooth: expected \"auto\", \"off\" or a Bluetooth address (\"A0:9E:1A:12:34:56\"), found a boolean"
            ),
            (
                "[notifications]\nurgency = \"urgent\"",
                "config.toml:2: notifications.urgency: \"urgent\" is not one of \"low\", \"normal\", \"critical\""
            ),
            (
                "[notifications]\nurgency = 2",
                "config.toml:2: notifications.urgency: expected one of \"low\", \"normal\", \"critical\", found an integer"
            ),
            (
                "[notifications]\nactions = [\"restart\", \"snooze\"]",
                "config.toml:2: notifications.actions: \"snooze\" is not one of \"add_30s\", \"add_1m\", \"restart\", \"cancel\""
            ),
            (
                "[notifications]\nactions = [\"restart\", \"restart\"]",
                "config.toml:2: notifications.actions: \"restart\" is listed twice"
            ),
            (
                "[notifications]\nactions = \"restart\"",
                "config.toml:2: notifications.actions: expected a list of \"add_30s\", \"add_1m\", \"restart\", \"cancel\", found a string"
            ),
            (
                "[notifications]\nsound_command = \"paplay x.oga\"",
                "config.toml:2: notifications.sound_command: expected a list of strings, the program and its arguments (\"paplay\", \"/usr/share/sounds/…\"), found a string"
            ),
            (
                "[notifications]\nsound_command = []",
                "config.toml:2: notifications.sound_command: the list is empty or names no program; leave the key out for no sound"
            ),
            (
                "[notifications]\nsound_command = [\"\"]",
                "config.toml:2: notifications.sound_command: the list is empty or names no program; leave the key out for no sound"
            ),
            (
                "[notifications]\nsound_command = [\"paplay\", 3]",
                "config.toml:2: notifications.sound_command: expected a list of strings, the program and its arguments (\"paplay\", \"/usr/share/sounds/…\"), found an integer in the list"
            ),
        ])
    func badValues(text: String, expected: String) {
        #expect(problems(text) == [expected])
    }

    @Test("unknown keys and tables are refused, with the nearest key when one is close")
    func unknownKeys() {
        #expect(problems("max_timer = 5") == ["config.toml:1: unknown key 'max_timer'; did you mean 'max_timers'?"])
        #expect(
            problems("# c\n[notifications]\n\nurgncy = \"low\"")
                == ["config.toml:4: unknown key 'notifications.urgncy'; did you mean 'notifications.urgency'?"])
        let far = problems("[server]\nport = 80")
        #expect(far.count == 1)
        #expect(
            far[0].hasPrefix("config.toml:1: unknown key 'server'; the keys are default_duration, max_timers"),
            "\(far)")
        #expect(problems("live = 3") == ["config.toml:1: live must be a table ([live]), found an integer"])
    }

    @Test("every problem is reported, in line order")
    func manyProblems() {
        #expect(
            problems(
                """
                max_timers = 0
                [notifications]
                urgency = "loud"
                [live]
                broadcast_rate = 100
                """) == [
                    "config.toml:1: max_timers: 0 is out of range: give 1 to 10000",
                    "config.toml:3: notifications.urgency: \"loud\" is not one of \"low\", \"normal\", \"critical\"",
                    "config.toml:5: live.broadcast_rate: 100 is out of range: give 0.01 to 20 updates per second",
                ])
    }

    @Test("TOML syntax errors carry their line")
    func syntaxErrors() {
        let unterminated = problems("max_timers = 5\ndefault_duration = \"90s\n")
        #expect(unterminated.count == 1)
        #expect(unterminated[0].hasPrefix("config.toml:2: not valid TOML: "), "\(unterminated)")
        let duplicate = problems("max_timers = 5\n\nmax_timers = 6\n")
        #expect(duplicate.count == 1 && duplicate[0].hasPrefix("config.toml:3: not valid TOML: "), "\(duplicate)")
        let garbage = problems("this is not toml")
        #expect(garbage.count == 1 && garbage[0].hasPrefix("config.toml:1: not valid TOML: "), "\(garbage)")
    }

    @Test("a NUL byte or invalid UTF-8 is refused at its line")
    func badBytes() {
        func problems(_ bytes: [UInt8]) -> [String] {
            do {
                _ = try ConfigFile.parse(bytes, file: "c.toml")
                return []
            } catch {
                return error.problems.map(\.description)
            }
        }
        #expect(
            problems(Array("max_timers = 5\n# a\0b\n".utf8)) == [
                "c.toml:2: the file contains a NUL byte; TOML files are UTF-8 text"
            ])
        #expect(
            problems(Array("max_timers = 5\n\n# caf".utf8) + [0xE9, 0x0A]) == [
                "c.toml:3: the file is not valid UTF-8, as TOML requires"
            ])
    }

    @Test("a missing file gives the defaults; an unreadable one is refused without a line")
    func files() throws {
        let directory = NSTemporaryDirectory() + "restd-config-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let missing = try ConfigFile.load(path: directory + "/none.toml")
        #expect(!missing.found && missing.configuration == RestdConfiguration())
        // A file the user named (--config) must exist: a typo is not the defaults.
        #expect(
            throws: ConfigError([
                ConfigProblem(
                    file: directory + "/none.toml", line: nil,
                    reason: "does not exist; check the path given to --config")
            ])
        ) {
            try ConfigFile.load(path: directory + "/none.toml", mustExist: true)
        }

        let good = directory + "/good.toml"
        try "max_timers = 7\n".write(toFile: good, atomically: true, encoding: .utf8)
        let loaded = try ConfigFile.load(path: good)
        #expect(loaded.found && loaded.configuration.maxTimers == 7)

        #expect(
            throws: ConfigError([ConfigProblem(file: directory, line: nil, reason: "cannot be read: Is a directory")])
        ) {
            try ConfigFile.load(path: directory)
        }
    }

    @Test("problems are located at the value's line: quoted keys, tables and multi-line strings")
    func locatesValues() {
        #expect(
            problems(
                """
                # top
                max_timerz = \"\"\"
                urgency = "inside a string"
                \"\"\"
                [notifications]
                  "urgency" = "loud"
                [ live ]
                broadcast_rate = [
                  1 ]
                """) == [
                    "config.toml:2: unknown key 'max_timerz'; did you mean 'max_timers'?",
                    "config.toml:6: notifications.urgency: \"loud\" is not one of \"low\", \"normal\", \"critical\"",
                    "config.toml:8: live.broadcast_rate: expected a number from 0.01 to 20 updates per second, found a list",
                ])
    }

    // MARK: The key table

    @Test("each key's documented default is what an empty file gives")
    func defaultsMatchDocs() {
        let defaults = RestdConfiguration()
        for key in ConfigKey.all {
            #expect(key.show(defaults) == key.defaultText, "\(key.path)")
        }
    }

    @Test("a file written from the shown values reads back the same configuration")
    func showRoundTrips() throws {
        var config = RestdConfiguration()
        config.defaultDurationUSec = 150_000_000
        config.maxTimers = 12
        config.expiredRetentionUSec = 7_200_000_000
        config.live.broadcastRate = 0.5
        config.notifications.urgency = .low
        config.notifications.actions = [.cancel]
        config.sound.command = ["play", "a \"b\".oga"]
        config.sound.enabled = false
        config.sound.cues = 0
        config.sound.ringForUSec = 0
        config.sound.inDoNotDisturb = false
        config.sound.theme = "ocean"
        config.sound.cueFile = "/home/me/tick.oga"
        config.sound.alarmFile = "/home/me/gong.wav"
        var text = ""
        var table = ""
        for key in ConfigKey.all where key.show(config) != "(none)" {
            if key.table != table {
                table = key.table
                text += "[\(table)]\n"
            }
            text += "\(key.name) = \(key.show(config))\n"
        }
        #expect(try parse(text) == config, "\(text)")
    }

    @Test("the recovery keys: [recovery] and an exercise's own, a share target told when HRmax is missing")
    func recoveryKeys() throws {
        let config = try parse(
            """
            [recovery]
            until_recovered = true
            target = "-25bpm"
            min = "45s"
            hold = "5s"
            hr_max = 190
            resting_hr = 55
            [exercises."Squat"]
            recovery_target = "60 % reserve"
            recovery_hold = 3
            until_recovered = false
            """)
        #expect(
            config.training.recovery
                == RecoverySettings(
                    untilRecovered: true, target: .drop(25), minimumUSec: 45_000_000, holdUSec: 5_000_000))
        #expect(config.training.maxHeartRate == 190 && config.training.restingHeartRate == 55)
        #expect(
            config.training.exercises["squat"]?.recovery
                == RecoverySettings(untilRecovered: false, target: .shareOfReserve(0.6), holdUSec: 3_000_000))
        #expect(
            problems("[recovery]\ntarget = \"60%max\"\nhold = \"0s\"\n[exercises.Curl]\nrecovery_target = \"70bpm\"")
                == [
                    "config.toml:2: recovery.target: the recovery target 60%max needs your HRmax: set hr_max in "
                        + "[recovery] of config.toml",
                    "config.toml:3: recovery.hold: 0 s is out of range: give 1 s to 5 min",
                ])
        #expect(
            problems("[exercises.Curl]\nrecovery_target = \"fast\"") == [
                "config.toml:2: exercises.\"Curl\".recovery_target: recovery target \"fast\" is not one of "
                    + "\"120bpm\", \"60%max\", \"60%reserve\" or \"-30bpm\""
            ])
    }

    @Test("the training keys: exercises (names without regard to case), categories, failed_extra, the keep days")
    func trainingKeys() throws {
        let config = try parse(
            """
            [rest]
            failed_extra = "45s"
            [history]
            keep_days = 30
            heart_rate_keep_days = 0
            [workout]
            abandon_after = "2h"
            [categories]
            compound = "2m30s"
            isolation = 75
            [exercises."Squat"]
            rest = "3m"
            failed_rest = "4m"
            sets = 5
            [exercises." Curl "]
            category = "isolation"
            """)
        let training = config.trainingSettings
        #expect(training.failedExtraUSec == 45_000_000 && training.keepDays == 30)
        #expect(training.heartRateKeepDays == 0 && RestdConfiguration().trainingSettings.heartRateKeepDays == 90)
        #expect(training.workoutAbandonAfterUSec == 2 * 3_600_000_000)
        #expect(RestdConfiguration().trainingSettings.workoutAbandonAfterUSec == 12 * 3_600_000_000)
        #expect(training.categories == ["compound": 150_000_000, "isolation": 75_000_000])
        #expect(
            training.exercises["squat"]
                == .init(name: "Squat", restUSec: 180_000_000, failedRestUSec: 240_000_000, sets: 5))
        #expect(training.exercises["curl"] == .init(name: "Curl", category: "isolation"))
        #expect(training.defaultDurationUSec == config.defaultDurationUSec)
        #expect(
            ConfigKey.changedKeys(from: RestdConfiguration(), to: config)
                == [
                    "rest.failed_extra", "history.keep_days", "history.heart_rate_keep_days", "workout.abandon_after",
                    "categories", "exercises",
                ])
    }

    @Test(
        "bad training keys are refused with their line",
        arguments: [
            (
                "[exercises.\"Squat\"]\nrest = \"0s\"",
                "config.toml:2: exercises.\"Squat\".rest: 0 s is out of range: give 1 s to 24 h"
            ),
            (
                "[exercises.\"Squat\"]\nreps = 5",
                "config.toml:2: exercises.\"Squat\".reps: unknown key; an exercise has rest, failed_rest, category, sets, "
                    + "sound, until_recovered, recovery_target, recovery_min, recovery_hold"
            ),
            (
                "[exercises.\"Squat\"]\n[exercises.\"squat\"]",
                "config.toml:2: exercises.\"squat\" names an exercise already listed (names are compared without regard to case)"
            ),
            (
                "[exercises.\"Curl\"]\ncategory = \"isolaton\"\n[categories]\nisolation = 60",
                "config.toml:2: exercises.\"Curl\".category: \"isolaton\" is not in [categories] (\"isolation\")"
            ),
            (
                "[categories]\ncompound = \"soon\"",
                "config.toml:2: categories.compound: the duration \"soon\" is not understood; give seconds (90), units (1h2m3s, 1m30s, 90s, 2min, 1.5m) or a clock time (1:30, 1:02:03)"
            ),
            ("[history]\nkeep_days = 0", "config.toml:2: history.keep_days: 0 is out of range: give 1 to 36500"),
            (
                "[history]\nheart_rate_keep_days = -1",
                "config.toml:2: history.heart_rate_keep_days: -1 is out of range: give 0 to 36500"
            ),
            (
                "exercises = 3",
                "config.toml:1: exercises: must hold one table per exercise ([exercises.\"Squat\"]), found an integer"
            ),
        ])
    func badTrainingKeys(_ text: String, _ problem: String) {
        #expect(problems(text) == [problem])
    }

    @Test("every problem is told, each at its own key's line, names as written")
    func everyProblemAtItsKey() {
        let text = """
            default_duration = "5x"
            [categories]
            compound = "2m30s"
            isolation = "soon"
            [exercises."Bench Press"]
            category = "compund"
            rest = "0s"
            reps = 5
            """
        #expect(
            problems(text) == [
                "config.toml:1: default_duration: the duration \"5x\" is not understood; give seconds (90), units "
                    + "(1h2m3s, 1m30s, 90s, 2min, 1.5m) or a clock time (1:30, 1:02:03)",
                "config.toml:4: categories.isolation: the duration \"soon\" is not understood; give seconds (90), "
                    + "units (1h2m3s, 1m30s, 90s, 2min, 1.5m) or a clock time (1:30, 1:02:03)",
                "config.toml:6: exercises.\"Bench Press\".category: \"compund\" is not in [categories] "
                    + "(\"compound\", \"isolation\")",
                "config.toml:7: exercises.\"Bench Press\".rest: 0 s is out of range: give 1 s to 24 h",
                "config.toml:8: exercises.\"Bench Press\".reps: unknown key; an exercise has rest, failed_rest, "
                    + "category, sets, sound, until_recovered, recovery_target, recovery_min, recovery_hold",
            ])
    }

    @Test("changedKeys names exactly the keys that differ")
    func changedKeys() {
        var new = RestdConfiguration()
        #expect(ConfigKey.changedKeys(from: RestdConfiguration(), to: new).isEmpty)
        new.maxTimers = 3
        new.sound.command = ["x"]
        #expect(ConfigKey.changedKeys(from: RestdConfiguration(), to: new) == ["max_timers", "sound.command"])
    }

    @Test("restd.conf(5) says what a reload does with each key")
    func manPageSaysWhatReloadDoes() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let page = try String(contentsOf: root.appendingPathComponent("man/man5/restd.conf.5"), encoding: .utf8)
        let keySection = page.components(separatedBy: ".Sh KEYS")[1].components(separatedBy: ".Sh ")[0]
        for key in ConfigKey.all {
            // The key's item: from its .It line to the next key's (a nested list's items stay inside).
            let item = keySection.components(separatedBy: "\n.It Ic \(key.path) No ").dropFirst().first?
                .components(separatedBy: "\n.It Ic ")[0]
            // "applies …", or "at the next start" for a key a reload does not apply.
            let reload = item?.components(separatedBy: "On reload: ").dropFirst().first ?? ""
            #expect(
                reload.hasPrefix(key.appliesOnReload ? "applies" : "at the next start"),
                "restd.conf.5's item for \(key.path) says \"\(reload.prefix(40))\" on reload")
        }
        let allApply = ConfigKey.all.allSatisfy(\.appliesOnReload)
        #expect(page.contains("Every key applies on reload") == allApply)
    }

    @Test("restd.conf(5) names every key with its default, and nothing else")
    func manPageDocumentsKeys() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let page = try String(contentsOf: root.appendingPathComponent("man/man5/restd.conf.5"), encoding: .utf8)
        let keySection = page.components(separatedBy: ".Sh KEYS")[1].components(separatedBy: ".Sh ")[0]
        let items = keySection.split(separator: "\n").filter { $0.hasPrefix(".It Ic ") }
        for key in ConfigKey.all {
            let shown = key.defaultText == "(none)" ? "(none)" : "(\(key.defaultText.replacing("\"", with: "\\(dq")))"
            #expect(
                items.contains(".It Ic \(key.path) No \(shown)"), "restd.conf.5 has no item for \(key.path) \(shown)")
        }
        #expect(items.count == ConfigKey.all.count, "\(items)")
    }
}
