import Foundation
import ProcessHarness
import RestClient
import RestProtocol
import Testing

/// Every `--json` of restctl against the real restd follows one style (restctl(1), JSON OUTPUT):
/// instants as ISO 8601 strings under `_at` keys, durations as integers under `_usec` keys,
/// `null` and never `""` for what is unset, one name for one thing, and "planned" meaning the
/// same in JSON, CSV, `stats` and on the bus.
@Suite("restctl's JSON: one style")
struct JSONOutputTests {
    /// Squat with an add (planned 3:00 + 0:15), a second set whose rest is cut past zero (planned
    /// 1 s, the shortest), a timer with no label, a workout with one set (Dip).
    static func training() throws -> TrainingSessionTests.Gym {
        let gym = try TrainingSessionTests.Gym()
        _ = try gym.config.directory.write(
            "restd/workouts/push.toml",
            """
            name = "Push day"
            [[exercise]]
            name = "Dip"
            sets = 2
            rest = "1m"
            """)
        for args in [
            ["set", "--exercise", "Squat", "--reps", "5", "--weight", "100"], ["add", "15"], ["set", "--reps", "5"],
            ["sub", "1h"], ["start", "60", "--id", "plain"], ["workout", "start", "push"], ["set", "--reps", "8"],
        ] {
            let result = restctl(gym.bus, args, environment: ["XDG_CONFIG_HOME": gym.config.path])
            #expect(result.succeeded, "\(args): \(result)")
        }
        return gym
    }

    @Test("each --json: _at keys hold ISO 8601 instants or null, _usec keys integers or null, no empty text")
    func oneStyle() throws {
        let gym = try Self.training()
        let outputs = [
            ["status", "--json"], ["status", "--id", "plain", "--json"], ["list", "--json"], ["history", "--json"],
            ["history", "--workouts", "--json"], ["stats", "--json"], ["workout", "status", "--json"],
            ["sensors", "--json"],
        ].map { args in (args, restctl(gym.bus, args)) }
        // The workout over, for its summary's keys.
        #expect(restctl(gym.bus, "workout", "end").succeeded)
        let ended = [["workout", "status", "--json"], ["history", "--workouts", "--json"]].map { args in
            (args, restctl(gym.bus, args))
        }
        let watch = try WatchProcess(bus: gym.bus, arguments: ["--json"])
        defer { watch.stop() }
        let watchLine = try watch.waitForLine { $0.hasPrefix("{\"timer\":{") }

        var printed = [(["watch", "--json"], watchLine)]
        for (args, result) in outputs + ended {
            #expect(result.succeeded, "\(args): \(result)")
            printed.append((args, result.stdout))
        }
        for (args, text) in printed {
            #expect(text.split(separator: "\n").count == 1, "one line: \(args): \(text)")
            let value = try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)
            for problem in Self.styleProblems(value, at: args.joined(separator: " ")) {
                Issue.record("\(problem)\n\(text)")
            }
        }
        let plain = try #require(try Self.object(restctl(gym.bus, "status", "--id", "plain", "--json")))
        #expect(plain["label"] is NSNull && plain["next"] is NSNull && plain["rest_source"] is NSNull, "\(plain)")
        let active = try #require(try Self.object(outputs[6].1))
        #expect(active["name"] as? String == "Push day" && active["started_at"] is String, "\(active)")
        let over = try #require(try Self.object(ended[0].1))
        #expect(over["name"] is NSNull && over["set_index"] is NSNull, "\(over)")
        let summary = try #require(over["summary"] as? [String: Any], "\(over)")
        #expect(summary["sets_done"] as? Int == 1 && summary["ended_at"] is String, "\(summary)")
    }

    @Test("planned is the rest after add and sub in history --json, --csv, stats --json and on the bus")
    func plannedMeansOneThing() throws {
        let gym = try Self.training()
        let planned = 195_000_000  // Squat's 3:00, plus 15 s added.
        let history =
            try JSONSerialization.jsonObject(
                with: Data(restctl(gym.bus, "history", "--json").stdout.utf8)) as? [[String: Any]]
        let first = try #require(history?.first)
        #expect(first["rest_planned_usec"] as? Int == planned && first["rest_adjust_usec"] as? Int == 15_000_000)
        #expect(first["rest_source"] as? String == "exercise" && first["done_at"] is String, "\(first)")
        let taken = try #require(first["rest_taken_usec"] as? Int)
        #expect(first["rest_overrun_usec"] as? Int == taken - planned, "\(first)")

        let csv = restctl(gym.bus, "history", "--csv").stdout.split(separator: "\n").map(String.init)
        let header = csv[0].split(separator: ",").map(String.init)
        let row = csv[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        #expect(header == HistoryFormat.csvHeader.split(separator: ",").map(String.init))
        #expect(row[header.firstIndex(of: "rest_planned_s")!] == "195.000", "\(csv)")
        #expect(row[header.firstIndex(of: "rest_adjust_s")!] == "15.000", "\(csv)")
        // The same keys, in the same order, durations named by their unit; the JSON last has the
        // heart rate of a followed rest, a series no cell holds.
        #expect(
            header.map { $0.replacing(/_s$/, with: "_usec") } + ["rest_heart_rate"]
                == Self.keys(restctl(gym.bus, "history", "--json").stdout), "\(csv[0])")

        // The second rest was cut past zero: it ran 1 s, the shortest, in every face.
        #expect(history?[1]["rest_planned_usec"] as? Int == 1_000_000, "\(String(describing: history))")
        let stats =
            try JSONSerialization.jsonObject(
                with: Data(restctl(gym.bus, "stats", "--json", "--exercise", "Squat").stdout.utf8)) as? [[String: Any]]
        #expect(stats?.first?["rests"] as? Int == 2, "\(String(describing: stats))")
        #expect(
            stats?.first?["median_rest_planned_usec"] as? Int == (planned + 1_000_000) / 2,
            "the median of 3:15 and 0:01: \(String(describing: stats))")

        let sets = busctl(
            gym.bus, "--json=short", "call", RestBus.name, RestBus.historyPath, RestBus.historyInterface, "Sets",
            "ttsu",
            "0", String(UInt64.max), "", "0")
        #expect(sets.stdout.contains(#""rest_planned_usec":{"type":"t","data":195000000}"#), "\(sets)")
    }

    /// What breaks the style in `value`, each with its place (`history[0].rest_ended_at`).
    static func styleProblems(_ value: Any, at place: String) -> [String] {
        switch value {
        case let array as [Any]:
            return array.enumerated().flatMap { index, element in styleProblems(element, at: "\(place)[\(index)]") }
        case let object as [String: Any]:
            return object.flatMap { key, member -> [String] in
                let here = "\(place).\(key)"
                var problems = styleProblems(member, at: here)
                if key.hasSuffix("_at") && !(member is NSNull) {
                    let text = member as? String ?? ""
                    if !text.contains(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) {
                        problems.append("\(here): not an ISO 8601 instant: \(member)")
                    }
                }
                if key.hasSuffix("_usec") && !(member is NSNull) && !(member is Int) {
                    problems.append("\(here): a duration that is not an integer: \(member)")
                }
                if key.hasSuffix("_at_usec") { problems.append("\(here): an instant as an integer") }
                if key != key.lowercased() || key.contains(" ") { problems.append("\(here): not snake_case") }
                return problems
            }
        case let text as String:
            return text.isEmpty ? ["\(place): \"\" instead of null"] : []
        default:
            return []
        }
    }

    static func object(_ result: CommandResult) throws -> [String: Any]? {
        try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
    }

    /// The keys of the first object of a JSON array, in the order written.
    static func keys(_ json: String) -> [String] {
        guard let end = json.firstIndex(of: "}") else { return [] }
        return json[..<end].matches(of: /"([a-z0-9_]+)":/).map { String($0.output.1) }
    }
}
