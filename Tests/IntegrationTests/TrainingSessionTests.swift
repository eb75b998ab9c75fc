import DBusKit
import Foundation
import ProcessHarness
import RestClient
import RestProtocol
import Testing

/// Training with restd, end to end: each rule for choosing a rest through restctl and through a
/// client nobody here wrote (busctl, gdbus), the history read back, bad input refused with
/// nothing recorded, and kill -9 after acknowledged sets.
@Suite("Training: sets, rests, history", .tags(.calendar))
struct TrainingSessionTests {
    /// The configuration every test here runs with.
    static let config = """
        [rest]
        failed_extra = "20s"
        [categories]
        isolation = "1m15s"
        [exercises."Squat"]
        rest = "3m"
        failed_rest = "4m"
        sets = 5
        [exercises."Curl"]
        category = "isolation"
        """

    /// restd with the configuration above; everything of `RunningDaemon` reads through (`gym.bus`).
    @dynamicMemberLookup
    final class Gym {
        let daemon: RunningDaemon

        /// - environment: for restd, e.g. a TZ for a test that counts today's sets.
        init(environment: [String: String] = [:]) throws {
            daemon = try RunningDaemon(config: TrainingSessionTests.config, environment: environment)
        }

        subscript<Value>(dynamicMember path: KeyPath<RunningDaemon, Value>) -> Value { daemon[keyPath: path] }

        func crashAndRestart() throws { try daemon.crashAndRestart() }

        /// `restctl set …` and the timer restctl then printed as JSON.
        func set(_ args: String..., sourceLocation: SourceLocation = #_sourceLocation) -> String {
            let result = restctl(daemon.bus, ["set"] + args + ["--json"])
            #expect(result.succeeded, "\(result)", sourceLocation: sourceLocation)
            return result.stdout
        }

        /// busctl's CompleteSet: its reply as busctl prints it (`ots "/io/…" 90000000 "default"`).
        func busctlSet(_ exercise: String, _ options: [String] = ["0"]) -> CommandResult {
            // `--`: a negative number among the arguments is not an option of busctl's.
            busctl(
                daemon.bus,
                [
                    "call", "--", RestBus.name, RestBus.managerPath, RestBus.managerInterface, "CompleteSet", "ssa{sv}",
                    "default", exercise,
                ] + options)
        }

        var setCount: Int { (try? daemon.client.historySets(sinceUSec: 0, untilUSec: 0).count) ?? -1 }
    }

    // MARK: The rules, through restctl

    @Test("a bare set repeats the exercise's previous reps and weight, what is typed wins, and set shows it")
    func repeatsThePreviousSet() throws {
        let gym = try Gym()
        let first = restctl(gym.bus, "set", "--exercise", "Curl", "--reps", "12", "--weight", "15")
        #expect(first.succeeded && first.stdout.contains("\nrecorded Curl 12×15 kg\n"), "\(first)")
        // The newcomer's case: the exercise was kept, and now its reps and weight are too.
        let failed = restctl(gym.bus, "set", "--failed")
        #expect(failed.succeeded && failed.stdout.contains("\nrecorded Curl 12×15 kg failed\n"), "\(failed)")
        let typed = restctl(gym.bus, "set", "--reps", "10")
        #expect(typed.stdout.contains("\nrecorded Curl 10×15 kg\n"), "\(typed)")
        // Per exercise, whichever timer: Squat has no previous set, Curl's is found from another timer.
        let squat = restctl(gym.bus, "set", "--exercise", "Squat", "--id", "legs")
        #expect(squat.stdout.contains("\nrecorded Squat\n"), "\(squat)")
        let other = restctl(gym.bus, "set", "--exercise", "curl", "--id", "legs")
        #expect(other.stdout.contains("\nrecorded Curl 10×15 kg\n"), "\(other)")

        // What the history keeps, read by a client nobody here wrote.
        let sets = try gym.client.historySets(sinceUSec: 0, untilUSec: 0)
        #expect(sets.map(\.reps) == [12, 12, 10, nil, 10], "\(sets)")
        #expect(sets.map(\.weightKg) == [15, 15, 15, nil, 15], "\(sets)")
        #expect(sets.map(\.failed) == [false, true, false, false, false], "\(sets)")
        let rows = busctl(
            gym.bus, "call", RestBus.name, RestBus.historyPath, RestBus.historyInterface, "SetRows", "ttsu", "0", "0",
            "", "0")
        #expect(rows.output.contains("\"Curl\" 12 15 true"), "\(rows)")
        // One exercise, kept to in restd (its name in any case): Squat's one set, none of Curl's.
        let squatRows = busctl(
            gym.bus, "call", RestBus.name, RestBus.historyPath, RestBus.historyInterface, "SetRows", "ttsu", "0", "0",
            "SQUAT", "0")
        #expect(squatRows.output.hasPrefix("a(xstsudbtxtsstta{sv}) 1 "), "\(squatRows)")
        #expect(squatRows.output.contains("\"Squat\"") && !squatRows.output.contains("Curl"), "\(squatRows)")
    }

    @Test("restctl set: each rule chooses the rest, and status --json says which")
    func rulesThroughRestctl() throws {
        let gym = try Gym()
        let none = restctl(gym.bus, "set")
        #expect(
            none.status == 64
                && none.stderr == "restctl: no exercise given, and this timer has no previous set to "
                    + "take it from; name one, as in --exercise Squat\n",
            "\(none)")

        #expect(
            gym.set("--exercise", "Bench press", "--reps", "8", "--weight", "60")
                .contains(#""label":"Bench press","next":null,"notify":true,"duration_usec":90000000"#))
        #expect(restctl(gym.bus, "status", "--json").stdout.contains(#""rest_source":"default","#))
        #expect(restctl(gym.bus, "add", "15").succeeded)
        // No --exercise: the previous set's; the rest last used for it is 90 s + 15 s.
        let lastUsed = gym.set("--reps", "8")
        #expect(
            lastUsed.contains(#""duration_usec":105000000"#) && lastUsed.contains(#""rest_source":"last_used""#),
            "\(lastUsed)")
        let exercise = gym.set("--exercise", "squat")
        #expect(
            exercise.contains(#""label":"squat""#) && exercise.contains(#""duration_usec":180000000"#)
                && exercise.contains(#""rest_source":"exercise""#), "\(exercise)")
        let failed = gym.set("--failed")
        #expect(
            failed.contains(#""duration_usec":240000000"#) && failed.contains(#""rest_source":"failed_rest""#),
            "\(failed)")
        let category = gym.set("--exercise", " CURL ")
        #expect(
            category.contains(#""duration_usec":75000000"#) && category.contains(#""rest_source":"category""#),
            "\(category)")
        let failedExtra = gym.set("--failed")
        #expect(
            failedExtra.contains(#""duration_usec":95000000"#)
                && failedExtra.contains(#""rest_source":"last_used+failed_extra""#), "\(failedExtra)")
        let given = gym.set("--rest", "42")
        #expect(given.contains(#""duration_usec":42000000"#) && given.contains(#""rest_source":"given""#), "\(given)")
        let skipped = restctl(gym.bus, "skip")
        #expect(skipped.succeeded && skipped.stdout.hasPrefix("default  expired  0:00"), "\(skipped)")

        let sets = try gym.client.historySets(sinceUSec: 0, untilUSec: 0)
        #expect(sets.map(\.exercise) == ["Bench press", "Bench press", "squat", "squat", "CURL", "CURL", "CURL"])
        #expect(
            sets.map { $0.rest?.outcome } == [
                "completed", "completed", "completed", "completed", "completed",
                "completed", "skipped",
            ])
        #expect(sets.first?.rest?.adjustUSec == 15_000_000 && sets.first?.reps == 8 && sets.first?.weightKg == 60)
        try expectSetRowsMatchSets(gym.client, count: 7)
    }

    @Test(
        "bad input is refused with one sentence and nothing is recorded",
        arguments: [
            (["--exercise", "Squat", "--reps", "10001"], "restctl: --reps 10001 is out of range: give 0 to 10000\n"),
            (
                ["--exercise", "Squat", "--weight", "-1"],
                "restctl: --weight \"-1\" is not a weight, such as 60, 62.5, 100kg or 225lb\n"
            ),
            (
                ["--exercise", "Squat", "--weight", "60,5"],
                "restctl: --weight \"60,5\": use a dot for decimals, as in 60.5\n"
            ),
            (
                ["--exercise", "Squat", "--weight", "heavy"],
                "restctl: --weight \"heavy\" is not a weight, such as 60, 62.5, 100kg or 225lb\n"
            ),
            (
                ["--exercise", "Squat", "--weight", "nan"],
                "restctl: --weight \"nan\" is not a weight, such as 60, 62.5, 100kg or 225lb\n"
            ),
            (
                ["--exercise", "Squat", "--weight", "1e3"],
                "restctl: --weight \"1e3\" is not a weight, such as 60, 62.5, 100kg or 225lb\n"
            ),
            (
                ["--exercise", "Squat", "--weight", "0x10"],
                "restctl: --weight \"0x10\" is not a weight, such as 60, 62.5, 100kg or 225lb\n"
            ),
            (
                ["--exercise", "Squat", "--weight", "2500lb"],
                "restctl: --weight 2500lb (1133.98 kg) is out of range: give 0 to 1000 kg\n"
            ),
            (
                ["--exercise", "Squat", "--weight", "1000.5"],
                "restctl: --weight 1000.5 is out of range: give 0 to 1000 kg\n"
            ),
            (
                ["--exercise", "Squat", "--rest", "0"],
                "restctl: --rest \"0\" is too short: give a rest of 1 s to 24 h\n"
            ),
            (
                ["--exercise", "Squat", "--rest", "25h"],
                "restctl: --rest \"25h\" is too long: give a rest of 1 s to 24 h\n"
            ),
            (
                ["--exercise", String(repeating: "x", count: 65)],
                "restctl: --exercise: the exercise name \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…\" is 65 bytes long; at most 64 are allowed\n"
            ),
            (
                ["--exercise", "Squat\u{1B}[2J"],
                "restctl: --exercise: the exercise name contains a control character (U+001B) at position 6; give plain text, as in \"Squat\"\n"
            ),
        ])
    func badInputThroughRestctl(_ args: [String], _ stderr: String) throws {
        let gym = try Gym()
        let result = restctl(gym.bus, ["set"] + args)
        #expect(result.status == 64 && result.stderr == stderr && result.stdout.isEmpty, "\(result)")
        #expect(gym.setCount == 0)
        #expect(try gym.client.timers().isEmpty)
    }

    // MARK: The rules, through clients nobody here wrote

    @Test("a new exercise a typo away from a known one: recorded, with a did-you-mean on stderr; a plan's likewise")
    func likelyTypo() throws {
        let gym = try Gym()
        let typo = restctl(gym.bus, "set", "--exercise", "Sqaut", "--reps", "5")
        #expect(typo.succeeded && typo.stdout.hasPrefix("default  running  "), "\(typo)")
        // With, as the first set on a bus without a notification server, the note that says so.
        #expect(
            typo.stderr == "restctl: \"Sqaut\" is a new exercise; did you mean 'Squat'?\n"
                + NotificationServerTests.note,
            "\(typo)")
        for name in ["Sqaut", "squat", "Lunge"] {
            let set = restctl(gym.bus, "set", "--exercise", name)
            #expect(set.succeeded && set.stderr.isEmpty, "known now, or not near another: \(set)")
        }
        _ = try gym.config.directory.write(
            "restd/workouts/legs.toml",
            "name = \"Legs\"\n[[exercise]]\nname = \"Curll\"\nsets = 2\n[[exercise]]\nname = \"Lunge\"\nsets = 2\n")
        let start = restctl(gym.bus, ["workout", "start", "legs"], environment: ["XDG_CONFIG_HOME": gym.config.path])
        #expect(start.succeeded, "\(start)")
        #expect(start.stderr == "restctl: \"Curll\" is a new exercise; did you mean 'Curl'?\n", "\(start)")
    }

    @Test("busctl's CompleteSet: each rule, the reply (o, t, s), Skip, and the history through gdbus")
    func rulesThroughBusctlAndGdbus() throws {
        let gym = try Gym()
        let path = "\"/io/restd/Rest1/timer/default\""
        let first = gym.busctlSet("Bench press", ["2", "reps", "u", "8", "weight_kg", "d", "60"])
        #expect(first.stdout == "ots \(path) 90000000 \"default\"\n", "\(first)")
        let adjust = busctl(
            gym.bus, "call", RestBus.name, RestBus.managerPath, RestBus.managerInterface, "Adjust", "sx",
            "default", "15000000")
        #expect(adjust.succeeded, "\(adjust)")
        #expect(gym.busctlSet("").stdout == "ots \(path) 105000000 \"last_used\"\n")
        #expect(gym.busctlSet("Squat").stdout == "ots \(path) 180000000 \"exercise\"\n")
        #expect(gym.busctlSet("", ["1", "failed", "b", "true"]).stdout == "ots \(path) 240000000 \"failed_rest\"\n")
        #expect(gym.busctlSet("Curl").stdout == "ots \(path) 75000000 \"category\"\n")
        #expect(
            gym.busctlSet("curl", ["1", "failed", "b", "true"]).stdout
                == "ots \(path) 95000000 \"last_used+failed_extra\"\n")
        #expect(
            gym.busctlSet("Curl", ["1", "rest_usec", "t", "42000000"]).stdout == "ots \(path) 42000000 \"given\"\n")
        let source = busctl(
            gym.bus, "get-property", RestBus.name, RestBus.timerPath(id: "default"), RestBus.timerInterface,
            "RestSource")
        #expect(source.stdout == "s \"given\"\n", "\(source)")

        let skip = gdbus(
            gym.bus, "call", "--dest", RestBus.name, "--object-path", RestBus.managerPath,
            "--method", "io.restd.Rest1.Manager.Skip", "default")
        #expect(skip.succeeded, "\(skip)")
        let sets = gdbus(
            gym.bus, "call", "--dest", RestBus.name, "--object-path", RestBus.historyPath,
            "--method", "io.restd.Rest1.History.Sets", "0", "0", "", "0")
        #expect(sets.succeeded, "\(sets)")
        #expect(sets.stdout.components(separatedBy: "'exercise': <").count == 8, "\(sets)")
        #expect(
            sets.stdout.contains("'rest_outcome': <'skipped'>") && sets.stdout.contains("'weight_kg': <60.0>"),
            "\(sets)")
        let exercises = gdbus(
            gym.bus, "call", "--dest", RestBus.name, "--object-path", RestBus.historyPath,
            "--method", "io.restd.Rest1.History.Exercises")
        #expect(
            exercises.stdout.contains("'name': <'Squat'>")
                && exercises.stdout.contains("'override_usec': <uint64 180000000>")
                && exercises.stdout.contains("'last_rest_usec': <uint64 105000000>"), "\(exercises)")
        let stats = gdbus(
            gym.bus, "call", "--dest", RestBus.name, "--object-path", RestBus.historyPath,
            "--method", "io.restd.Rest1.History.Stats", "0", "0", "Curl")
        #expect(
            stats.stdout.contains("'exercise': <'Curl'>") && stats.stdout.contains("'sets': <uint32 3>")
                && stats.stdout.contains("'skipped': <uint32 1>") && !stats.stdout.contains("Squat"), "\(stats)")
    }

    @Test("bad input through busctl and gdbus: InvalidArgs with one sentence, nothing recorded")
    func badInputThroughExternalClients() throws {
        let gym = try Gym()
        let cases: [(CommandResult, String)] = [
            (gym.busctlSet("", ["0"]), "no exercise given, and this timer has no previous set to take it from"),
            (gym.busctlSet("Squat", ["1", "reps", "u", "10001"]), "reps 10001 is out of range: give 0 to 10000"),
            (
                gym.busctlSet("Squat", ["1", "weight_kg", "d", "nan"]),
                "weight nan kg is out of range: give 0 to 1000 kg"
            ),
            (
                gym.busctlSet("Squat", ["1", "weight_kg", "d", "-2"]),
                "weight -2.0 kg is out of range: give 0 to 1000 kg"
            ),
            (
                gym.busctlSet("Squat", ["1", "rest_usec", "t", "0"]),
                "rest 0 s is too short: give a rest of 1 s to 24 h"
            ),
            (
                gym.busctlSet("Squat", ["1", "reps", "s", "five"]),
                "option reps must be an unsigned integer (u), not of type s"
            ),
            (
                gym.busctlSet("Squat", ["1", "tempo", "s", "fast"]),
                "unknown option \"tempo\"; the options are reps, weight_kg, failed, rest_usec"
            ),
            (gym.busctlSet(String(repeating: "é", count: 33)), "is 66 bytes long; at most 64 are allowed"),
            (
                gdbus(
                    gym.bus, "call", "--dest", RestBus.name, "--object-path", RestBus.managerPath,
                    "--method", "io.restd.Rest1.Manager.CompleteSet", "default", "'Squat\\u0007'", "{}"),
                "the exercise name contains a control character (U+0007) at position 6"
            ),
        ]
        for (result, sentence) in cases {
            #expect(!result.succeeded && result.stderr.contains(sentence), "\(result)")
        }
        // busctl prints only the sentence; gdbus shows the error's name too.
        #expect(cases.last?.0.stderr.contains("org.freedesktop.DBus.Error.InvalidArgs") == true)
        #expect(gym.setCount == 0)
        let tooMany = busctl(
            gym.bus, "call", RestBus.name, RestBus.historyPath, RestBus.historyInterface, "Sets", "ttsu",
            "0", "0", "", "100001")
        #expect(
            !tooMany.succeeded
                && tooMany.stderr.contains("limit 100001 is more than the 100000 rows one call may return"),
            "\(tooMany)")
    }

    // MARK: History

    @Test("history: one line per set with its rest, --csv with a header and ISO 8601 times, --json; stats")
    func historyAndStats() throws {
        let gym = try Gym()
        _ = gym.set("--exercise", "Squat", "--reps", "5", "--weight", "102.5")
        _ = gym.set("--exercise", "Bench, flat \"wide\"", "--reps", "8")
        #expect(restctl(gym.bus, "skip").succeeded)

        let text = restctl(gym.bus, "history")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(text)")
        // Names padded to the longest ("Bench, flat \"wide\"", 18), the sets' numbers to "5×102.5 kg".
        #expect(
            lines.first?.contains("  Squat" + String(repeating: " ", count: 15) + "5×102.5 kg  rest 0:") == true,
            "\(text)")
        #expect(lines.first?.contains(" of 3:00 (-") == true, "\(text)")
        #expect(lines.last?.hasSuffix(", skipped") == true, "\(text)")

        let csv = restctl(gym.bus, "history", "--csv", "--since", "1d").stdout.split(separator: "\n").map(String.init)
        #expect(csv.first == HistoryFormat.csvHeader)
        #expect(csv.count == 3)
        let iso =
            #/^1,\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z,Squat,5,102.5,false,default,180\.000,0\.000,\d+\.\d{3},-\d+\.\d{3},0\.000,completed,exercise,\d{4}-\d\d-\d\dT/#
        #expect(csv[1].contains(iso), "\(csv)")
        #expect(
            csv[2].contains(#",2,"#) == false && csv[2].hasPrefix("2,")
                && csv[2].contains(#","Bench, flat ""wide""",8,,false,"#),
            "\(csv)")

        let json = restctl(gym.bus, "history", "--json", "--exercise", "squat").stdout
        #expect(
            json.hasPrefix(#"[{"id":1,"done_at":""#)
                && json.contains(#""exercise":"Squat","reps":5,"weight_kg":102.5,"failed":false,"timer":"default""#)
                && !json.contains("Bench"), "\(json)")
        let dayAfterTomorrow = LocalTime.date(ofUSec: RunningDaemon.realtimeNow() + 2 * 86_400_000_000)
        #expect(restctl(gym.bus, "history", "--since", dayAfterTomorrow).stdout.isEmpty)
        let bad = restctl(gym.bus, "history", "--since", "soon")
        #expect(
            bad.status == 64 && bad.stderr.hasPrefix("restctl: --since \"soon\" is not understood; give an age (7d"),
            "\(bad)")

        let stats = restctl(gym.bus, "stats").stdout.split(separator: "\n").map(String.init)
        let pad = { (text: String) in text + String(repeating: " ", count: 18 - text.count) }
        #expect(
            stats.first == pad("exercise") + "  sets  rests  skipped  other  planned  taken  overrun", "\(stats)")
        // The skipped rest is counted apart, not among the rests the medians are taken over.
        #expect(
            stats.count == 3
                && stats[1].hasPrefix(
                    pad("Bench, flat \"wide\"") + "     1      0        1      0        -      -        -"),
            "\(stats)")
        #expect(
            stats.count == 3 && stats[2].hasPrefix(pad("Squat") + "     1      1        0      0     3:00   0:0"),
            "\(stats)")
        let statsJSON = restctl(gym.bus, "stats", "--json", "--exercise", "BENCH, flat \"wide\"").stdout
        #expect(
            statsJSON.hasPrefix(#"[{"exercise":"Bench, flat \"wide\"","sets":1,"rests":0,"skipped":1,"other":0,"#),
            "\(statsJSON)")
    }

    /// A day named without a time counts in full as --until, as it does as --since; a day takes
    /// a time too. restctl's local midnight is kept half a day away.
    @Test("--until today is until tonight: --since \"today 00:00\" --until today shows today's sets")
    func untilADayCountsInFull() throws {
        let gym = try Gym()
        _ = gym.set("--exercise", "Squat")
        let zone = ["TZ": LocalTime.zoneAtNoon()]
        for window in [["--since", "today 00:00", "--until", "today"], ["--since", "today", "--until", "today"]] {
            let today = restctl(gym.bus, ["history"] + window, environment: zone)
            #expect(today.succeeded && today.stdout.contains("  Squat  "), "\(window): \(today)")
        }
        let yesterday = restctl(
            gym.bus, ["history", "--since", "yesterday", "--until", "yesterday"], environment: zone)
        #expect(yesterday.succeeded && yesterday.stdout.isEmpty, "\(yesterday)")
        let early = restctl(
            gym.bus, ["history", "--since", "today 00:00", "--until", "today 00:01"], environment: zone)
        #expect(early.succeeded && early.stdout.isEmpty, "\(early)")
    }

    /// A rest taken to its end, one skipped, one still running, one cancelled: each column is
    /// counted where it belongs, and the times shown add up (rests taken at once: 0:00 of 3:00 is
    /// -3:00, not the -2:59 a median of the differences to the microsecond would show).
    @Test("stats: the figures add up, sets = rests + skipped + other, and planned + overrun = taken as shown")
    func statsAddUp() throws {
        let gym = try Gym()
        _ = gym.set("--exercise", "Squat")
        _ = gym.set("--exercise", "Squat")  // the first rest taken to its end
        #expect(restctl(gym.bus, "skip").succeeded)  // the second skipped
        _ = gym.set("--exercise", "Squat")  // the third still running
        _ = gym.set("--exercise", "Bench press", "--rest", "1:30", "--id", "bench")
        _ = gym.set("--exercise", "Bench press", "--id", "bench")
        #expect(restctl(gym.bus, "cancel", "--id", "bench").succeeded)

        let stats = restctl(gym.bus, "stats")
        let rows = stats.stdout.split(separator: "\n").map { $0.split(separator: #/  +/#).map(String.init) }
        #expect(rows.first == ["exercise", "sets", "rests", "skipped", "other", "planned", "taken", "overrun"])
        func seconds(_ clock: String) -> Int? {
            let sign = clock.hasPrefix("-") ? -1 : 1
            let parts = clock.trimmingPrefix(/[+-]/).split(separator: ":").compactMap { Int($0) }
            return parts.count == 2 ? sign * (parts[0] * 60 + parts[1]) : nil
        }
        for row in rows.dropFirst() {
            #expect(row.count == 8, "\(stats)")
            guard row.count == 8, let sets = Int(row[1]), let rests = Int(row[2]), let skipped = Int(row[3]),
                let other = Int(row[4]), let planned = seconds(row[5]), let taken = seconds(row[6]),
                let overrun = seconds(row[7])
            else { continue }
            #expect(sets == rests + skipped + other, "\(row)")
            #expect(planned + overrun == taken, "\(row)")
        }
        #expect(
            rows.dropFirst().map { Array($0.prefix(6)) } == [
                ["Bench press", "2", "1", "0", "1", "1:30"], ["Squat", "3", "1", "1", "1", "3:00"],
            ], "\(stats)")
    }

    @Test("a set sends SetRecorded before the reply and shows its progress in the live activity")
    func setRecordedAndLiveProgress() throws {
        // The progress counts today's sets: restd's local midnight is kept half a day away.
        let gym = try Gym(environment: ["TZ": LocalTime.zoneAtNoon()])
        let watcher = try SignalWatcher.restd(bus: gym.bus)
        try gym.client.completeSet(id: "default", exercise: "Squat", reps: 5)
        try gym.client.completeSet(id: "default", exercise: nil, reps: 5)
        try watcher.waitFor(where: {
            $0.member == "SetRecorded" && $0.arguments().first?.vardictEntries?["id"] == .int64(2)
        })
        let recorded = watcher.received.filter { $0.member == "SetRecorded" }
        #expect(recorded.count == 2)
        let entry = recorded.last?.arguments().first?.vardictEntries
        #expect(
            entry?["exercise"] == .string("Squat") && entry?["rest_planned_usec"] == .uint64(180_000_000)
                && entry?["rest_outcome"] == .string("open") && entry?["reps"] == .uint32(5),
            "\(String(describing: entry))")
        // The broadcast is throttled (2 Hz): wait for the second set's fields to be published.
        try waitUntil("progress_done 2") { try gym.client.liveFields()["progress_done"] == .int64(2) }
        let fields = try gym.client.liveFields()
        #expect(
            fields["exercise"] == .string("Squat") && fields["progress_done"] == .int64(2)
                && fields["progress_total"] == .int64(5),
            "\(fields)")
    }

    @Test(
        "restctl set says which rule chose the rest, in text; the category's rest only where the rest last used won over it"
    )
    func setSaysWhichRule() throws {
        let gym = try Gym()
        func ruleLine(_ args: String...) -> String {
            let result = restctl(gym.bus, ["set"] + args)
            #expect(result.succeeded, "\(result)")
            // The last line: after the timer's and the set recorded.
            return result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        }
        #expect(ruleLine("--exercise", "Curl") == "rest 1:15 from its category's rest in config.toml")
        #expect(ruleLine("--exercise", "Squat") == "rest 3:00 from the exercise's rest in config.toml")
        #expect(ruleLine("--exercise", "Squat", "--failed") == "rest 4:00 from the exercise's failed_rest")
        #expect(ruleLine("--exercise", "Row", "--rest", "2m") == "rest 2:00 from --rest")
        // Once Row has a rest last used, that one wins; Row has no category to win over.
        #expect(ruleLine("--exercise", "Row") == "rest 2:00 from the rest last used for this exercise")
        #expect(ruleLine("--exercise", "Plank") == "rest 1:30 from default_duration")
        // Curl's rest last used came from its category (its first set, above): nothing was passed over.
        #expect(ruleLine("--exercise", "Curl") == "rest 1:15 from the rest last used for this exercise")
        // Once it differs, the category's rest it wins over is named.
        #expect(ruleLine("--exercise", "Curl", "--rest", "2m") == "rest 2:00 from --rest")
        #expect(
            ruleLine("--exercise", "Curl")
                == "rest 2:00 from the rest last used for this exercise, which wins over its category's 1:15")
    }

    @Test("history and stats line up names in wide characters and emoji by the columns they take")
    func wideNamesLineUp() throws {
        let gym = try Gym()
        for name in ["深蹲", "🏋️ Lift", "Squat"] { _ = gym.set("--exercise", name, "--reps", "5", "--weight", "100") }
        #expect(restctl(gym.bus, "skip").succeeded)
        func columns(_ line: Substring, before marker: String) -> Int? {
            line.firstRange(of: marker).map { DisplayWidth.of(String(line[..<$0.lowerBound])) }
        }
        let history = restctl(gym.bus, "history").stdout.split(separator: "\n")
        #expect(history.count == 3 && Set(history.map { columns($0, before: "5×100 kg") }).count == 1, "\(history)")
        let stats = restctl(gym.bus, "stats").stdout.split(separator: "\n")
        // The sets column ends in the same terminal column on every line: the header's "sets" and
        // each row's count (the names hold no digit).
        let ends = stats.map { line in
            let start = line.firstRange(of: "sets")?.upperBound ?? line.firstIndex { $0.isNumber } ?? line.endIndex
            let end = line[start...].firstIndex { !$0.isNumber } ?? line.endIndex
            return DisplayWidth.of(String(line[..<end]))
        }
        #expect(stats.count == 4 && Set(ends).count == 1, "\(stats)")
    }

    @Test("the live progress belongs to the exercise: another one starts it again, without the total before it")
    func liveProgressFollowsTheExercise() throws {
        // The count is of today's sets: restd's local midnight is kept half a day away.
        let gym = try Gym(environment: ["TZ": LocalTime.zoneAtNoon()])
        func expectLive(_ exercise: String, _ done: Int64, of total: Int64?) throws {
            try waitUntil("\(exercise) \(done)/\(total.map(String.init) ?? "-") in the live activity") {
                let fields = try gym.client.liveFields()
                return fields["exercise"] == .string(exercise) && fields["progress_done"] == .int64(done)
                    && fields["progress_total"] == total.map { .int64($0) }
            }
        }
        _ = gym.set("--exercise", "Squat")
        _ = gym.set("--exercise", "Squat")
        try expectLive("Squat", 2, of: 5)
        _ = gym.set("--exercise", "Lunge")
        try expectLive("Lunge", 1, of: nil)
        _ = gym.set("--exercise", "Squat")
        try expectLive("Squat", 1, of: 5)
    }

    // MARK: Durability

    @Test("kill -9 right after each acknowledged set loses nothing; the rest in progress is still open")
    func killNineLosesNoAcknowledgedSet() throws {
        let gym = try Gym()
        for round in 1...4 {
            let result = restctl(gym.bus, "set", "--exercise", "Squat", "--reps", String(round))
            #expect(result.succeeded, "\(result)")
            try gym.crashAndRestart()
            let sets = try gym.client.historySets(sinceUSec: 0, untilUSec: 0)
            #expect(sets.map(\.reps) == (1...round).map { UInt32($0) }, "after round \(round)")
            #expect(
                sets.last?.rest?.outcome == "open" && sets.dropLast().allSatisfy { $0.rest?.outcome == "completed" })
        }
        // The rest in progress survived: the next set ends it, and without --exercise takes Squat.
        _ = gym.set("--reps", "5")
        #expect(
            try gym.client.historySets(sinceUSec: 0, untilUSec: 0).map(\.exercise)
                == Array(repeating: "Squat", count: 5))
    }

    @Test("a restd from before SetRows (still running after an upgrade): restctl history reads its Sets")
    func historyFromARestdWithoutSetRows() throws {
        let bus = try TestBus()
        let at = RunningDaemon.realtimeNow() - 3_600_000_000
        let old = try OldRestd(
            bus: bus,
            setsReply: """
                ret = [{'id': dbus.Int64(1), 'timer': 'default', 'at_usec': dbus.UInt64(\(at)), \
                'exercise': 'Squat', 'reps': dbus.UInt32(5), 'weight_kg': 100.0, 'failed': False, \
                'rest_planned_usec': dbus.UInt64(150000000), 'rest_adjust_usec': dbus.Int64(0), \
                'rest_paused_usec': dbus.UInt64(0), 'rest_source': 'default', 'rest_outcome': 'completed', \
                'rest_taken_usec': dbus.UInt64(161000000), 'rest_ended_at_usec': dbus.UInt64(\(at + 161_000_000))}]
                """)
        let history = restctl(bus, "history")
        #expect(history.succeeded, "\(history)")
        #expect(history.stdout.hasSuffix("  Squat  5×100 kg  rest 2:41 of 2:30 (+0:11)\n"), "\(history)")
        // Its Sets know no exercise: restctl keeps to the one asked for itself.
        let squat = restctl(bus, "history", "--exercise", "SQUAT")
        #expect(squat.succeeded && squat.stdout == history.stdout, "\(squat)")
        let bench = restctl(bus, "history", "--exercise", "Bench press")
        #expect(bench.succeeded && !bench.stdout.contains("Squat"), "\(bench)")
        withExtendedLifetime(old) {}
    }

    @Test("more than 100,000 sets: a query for all is refused with LimitExceeded; restctl pages through them")
    func limitAndPaging() throws {
        let gym = try Gym()
        _ = gym.set("--exercise", "Squat")
        gym.restd.terminate()
        #expect(try gym.restd.waitForExit() == 0)
        // 100,001 sets a second apart in the last few days, written straight into the state file restd left.
        let filled = try StateFile(in: gym.state).execute(
            """
            WITH RECURSIVE n(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM n WHERE i < 100002)
            INSERT INTO sets (id, timer_id, at_usec, exercise, exercise_key, reps, weight_kg, failed)
            SELECT i, 'default', ? + i * 1000000, 'Row', 'row', i % 20, NULL, 0 FROM n
            """, .integer(Int64(RunningDaemon.realtimeNow() - 200_000_000_000)))
        #expect(filled == 100_001)
        try gym.daemon.start()
        let all = busctl(
            gym.bus, "call", RestBus.name, RestBus.historyPath, RestBus.historyInterface, "Sets", "ttsu", "0", "0", "",
            "0")
        #expect(!all.succeeded && all.stderr.contains("more than 100000 sets match"), "\(all)")
        let allRows = busctl(
            gym.bus, "call", RestBus.name, RestBus.historyPath, RestBus.historyInterface, "SetRows", "ttsu", "0", "0",
            "", "0")
        #expect(!allRows.succeeded && allRows.stderr.contains("more than 100000 sets match"), "\(allRows)")
        let history = restctl(gym.bus, ["history", "--since", "7d", "--csv"], timeout: 120)
        #expect(history.succeeded, "\(history.stderr)")
        #expect(history.stdout.split(separator: "\n").count == 1 + 100_002)
    }

    /// The state files earlier restd builds wrote (schema 1 and 2, before the history): each holds
    /// `run` (running 1 h), `held` (paused) and `over` (expired); see Fixtures/README.md.
    static let fixtures = ["schema1-restd-0da3ab6.sqlite", "schema2-restd-3524613.sqlite"]

    /// A restd started on `fixture` shifted to `writtenAgo` µs old, which did not move it aside,
    /// and its timers as "id state", by id.
    static func restd(on fixture: String, writtenAgo age: UInt64) throws -> (RunningDaemon, [String]) {
        let setup = try RestdSetup()
        try StateFile.fixture(fixture, in: setup.state, writtenAgo: age)
        let daemon = try setup.start()
        #expect(!daemon.log().contains("moved aside"), "\(daemon.log())")
        return (daemon, try daemon.client.timers().map { "\($0.id) \($0.state)" })
    }

    @Test(
        "a state file of a restd before the history, written a minute ago, migrates with its timers and takes sets",
        arguments: fixtures)
    func migratesRecentState(_ fixture: String) throws {
        let (daemon, timers) = try Self.restd(on: fixture, writtenAgo: 60_000_000)
        let bus = daemon.bus
        defer { withExtendedLifetime(daemon) {} }
        // Listed by id; schema 2's file also has `default`, running 2 min.
        let kept = ["held paused", "over expired", "run running"]
        #expect(timers == (fixture.hasPrefix("schema2") ? ["default running"] + kept : kept))
        let result = restctl(bus, "set", "--exercise", "Squat", "--id", "run")
        #expect(result.succeeded, "\(result)")
        #expect(restctl(bus, "history").stdout.contains("Squat"))
        #expect(restctl(bus, "list").stdout.contains("held"))
    }

    @Test(
        "the same file last written 25 h ago: the forgotten paused timer is dropped, the rest ended at its deadline",
        arguments: fixtures)
    func appliesTheRulesToAnOldState(_ fixture: String) throws {
        let (daemon, timers) = try Self.restd(on: fixture, writtenAgo: 25 * 3_600_000_000)
        defer { withExtendedLifetime(daemon) {} }
        // `over` expired more than an hour ago (expired_retention); `run` (and schema 2's `default`)
        // reached their deadlines while restd was down: expired at start-up, listed for an hour.
        #expect(timers == (fixture.hasPrefix("schema2") ? ["default expired", "run expired"] : ["run expired"]))
    }
}
