import Foundation
import ProcessHarness
import Testing

/// restctl and restd in `en@pseudo`, a language that exists only in the build (`make build-tests`
/// compiles it from po/restd.pot: every text its own English inside ⟦ ⟧). A word a person reads
/// outside the marks came from a text that bypasses the catalog: it would stay English in
/// German too.
@Suite("Pseudo-language: no text a person reads bypasses the catalog", .serialized)
struct PseudoLanguageTests {
    /// The variables that choose the pseudo-language, with no locale generated for it.
    static let environment = ["LC_ALL": "", "LANG": "C.UTF-8", "LANGUAGE": "en@pseudo", "LOCPATH": "/nonexistent"]

    /// Words that are values, never texts: what the test typed (names, the timer's and the
    /// plan's ids), the programs' names, unit symbols.
    static let values: Set<String> = [
        "restctl", "restd", "default", "push", "Squat", "Bench", "press", "Curl", "squat", "bench", "kg", "lb", "bpm",
        "min", "ms", "RPE",
        "e1RM", "1RM", "Push", "csv", "json", "json-seq", "waybar", "Strong", "Hevy", "FitNotes", "TOML",
    ]

    /// The words of `text` outside the marks ⟦ ⟧ (nested marks count once), but values.
    static func unmarkedWords(_ text: String, besides allowed: Set<String> = []) -> [String] {
        var outside = ""
        var depth = 0
        for character in text {
            switch character {
            case "⟦": depth += 1
            case "⟧": depth = max(0, depth - 1)
            default: outside.append(depth == 0 ? character : " ")
            }
        }
        return outside.split { !$0.isLetter && $0 != "-" }.map(String.init).filter {
            $0.count > 1 && !values.contains($0) && !allowed.contains($0) && $0.contains(where: \.isLetter)
        }
    }

    @Test("a set, a rest, the history, records, stats, a workout and errors, on stdout and stderr")
    func restctlSpeaksOnlyTheCatalog() throws {
        try German.requireCatalog()
        // restd speaks the pseudo-language too: its refusals are what restctl says of them.
        let daemon = try RunningDaemon(config: "", environment: Self.environment)
        let plan = """
            name = "Push"
            [[exercise]]
            name = "Bench press"
            sets = 2
            rest = "90s"
            """
        _ = try daemon.config.directory.write("restd/workouts/push.toml", plan)
        var environment = Self.environment
        environment["XDG_CONFIG_HOME"] = daemon.config.path
        var leaks: [String] = []
        func run(_ args: String..., stdin: String? = nil) {
            let result = restctl(daemon.bus, args, environment: environment, stdin: stdin)
            for (stream, text) in [("stdout", result.stdout), ("stderr", result.stderr)] {
                let words = Self.unmarkedWords(text)
                if !words.isEmpty {
                    leaks.append("restctl \(args.joined(separator: " ")) (\(stream)): \(words) in \(text)")
                }
            }
        }
        run("start", "90", "--label", "Squat")
        run("status")
        run("status", "--id", "nosuch")
        run("list")
        run("pause")
        run("status")
        run("resume")
        run("set", "--exercise", "Squat", "--reps", "5", "--weight", "100")
        run("set", "--reps", "3", "--weight", "110")
        run("set", "--reps", "5", "--weight", "300")
        run("history")
        run("records")
        run("stats")
        run("undo")
        run("history", "rename", "Squat", "squat")
        run("history", "delete", "999")
        run("workout", "list")
        run("workout", "start", "push")
        run("workout", "status")
        run("workout", "end")
        let files = try TempDirectory(prefix: "restd-pseudo")
        let fitnotes = try ImportTests.copy(
            "fitnotes.csv", into: files,
            moving: ["2026-03-10": ImportTests.day(4).dateText, "2026-03-12": ImportTests.day(0).dateText])
        run("import", fitnotes, "--dry-run")
        run("import", fitnotes)
        run("import", files.path + "/nothing.csv")
        run("sensors")
        run("silence")
        run("reload")
        run("start", "9x")
        run("set", "--weight", "1e3")
        run("set", "--weight", "60,5")
        #expect(leaks.isEmpty, "\(leaks.joined(separator: "\n"))")
    }

    @Test("restd's notification: summary, body and buttons")
    func notificationsSpeakOnlyTheCatalog() throws {
        try German.requireCatalog()
        let daemon = try NotifyingDaemon(locale: "en@pseudo", environment: ["LOCPATH": "/nonexistent"])
        try daemon.client.start(id: "squat", durationUSec: 1_000_000, label: "Squat", next: "Bench press")
        let notify = try #require(try daemon.calls.waitFor("Notify").first)
        let actions = notify.actions ?? []
        let labels = stride(from: 1, to: actions.count, by: 2).map { actions[$0] }
        #expect(notify.summary?.hasPrefix("⟦") == true, "\(notify)")
        for text in [notify.summary, notify.body].compactMap({ $0 }) + labels {
            #expect(Self.unmarkedWords(text).isEmpty, "\(text)")
        }
    }
}
