import Foundation
import ProcessHarness
import Testing

extension PseudoLanguageTests {
    /// The words of a path or key the test wrote ("/tmp/restd-x/restd/config.toml", "max_timers"):
    /// values, never texts.
    static func words(of values: String...) -> Set<String> {
        Set(values.flatMap { $0.split { !$0.isLetter && $0 != "-" }.map(String.init) })
    }

    @Test("config.toml's and a plan's problems: --check-config, restctl reload, the journal, restctl workout start")
    func configurationProblemsSpeakOnlyTheCatalog() throws {
        try German.requireCatalog()
        var leaks: [String] = []
        func check(_ what: String, _ text: String, besides allowed: Set<String>) {
            let words = Self.unmarkedWords(text, besides: allowed)
            if !words.isEmpty { leaks.append("\(what): \(words) in \(text)") }
        }
        let keys = Self.words(of: "max_timer", "max_timers", "sound.enabled", "live.broadcast_rate")

        // An unknown key, a wrong type, a number out of range; then a TOML syntax error.
        let wrong = "max_timer = 5\n[sound]\nenabled = \"yes\"\n[live]\nbroadcast_rate = 50\n"
        for (text, problems) in [(wrong, 3), ("[sound\nenabled = true\n", 1)] {
            let home = try ConfigHome(text)
            let checked = Command.run(
                [try BuildProducts.executable("restd"), "--check-config"],
                environment: Self.environment.merging(["XDG_CONFIG_HOME": home.path]) { $1 })
            #expect(checked.status == 78, "\(checked)")
            #expect(checked.stderr.split(separator: "\n").count == problems, "\(checked)")
            check(
                "restd --check-config", checked.stdout + checked.stderr, besides: keys.union(Self.words(of: home.file)))
        }

        let daemon = try RunningDaemon(config: "", environment: Self.environment)
        var environment = Self.environment
        environment["XDG_CONFIG_HOME"] = daemon.config.path
        let files = keys.union(Self.words(of: daemon.config.file))

        try daemon.config.write("max_timers = \"many\"\n")
        let refused = restctl(daemon.bus, ["reload"], environment: environment)
        #expect(refused.status == 1 && refused.stderr.contains(":1: max_timers: ⟦"), "\(refused)")
        check("restctl reload", refused.stdout + refused.stderr, besides: files)
        // The journal's lines about the file: its problem and that nothing was reloaded (their
        // level, "error", is the journal's priority, written as a word only on stderr).
        let logged = try daemon.restd.waitForLog(containing: "⟦the configuration was not reloaded")
        let journal = logged.split(separator: "\n").filter {
            $0.contains(daemon.config.file) || $0.contains("⟦the con")
        }
        #expect(journal.count == 2, "\(logged)")
        for line in journal { check("restd's journal", String(line), besides: files.union(["error"])) }

        let plan = "name = \"Push\"\n[[exercise]]\nname = \"Squat\"\nsets = 0\nrep = 5\n"
        let planFile = try daemon.config.directory.write("restd/workouts/broken.toml", plan)
        let started = restctl(daemon.bus, ["workout", "start", "broken"], environment: environment)
        #expect(started.status != 0 && started.stderr.contains("broken.toml:4: sets: ⟦"), "\(started)")
        check(
            "restctl workout start", started.stdout + started.stderr,
            besides: Self.words(of: planFile, "sets", "rep", "reps"))
        #expect(leaks.isEmpty, "\(leaks.joined(separator: "\n"))")
    }
}
