import Foundation
import ProcessHarness
import RestProtocol
import Testing

extension PseudoLanguageTests {
    /// The refusals the core plans reach restctl as restd's own sentences, in restd's language:
    /// with restd in en@pseudo too, every word of them is inside the marks.
    @Test("the core's refusals: timers, live values, sets, the history and the workout, in restd's language")
    func coreRefusalsSpeakOnlyTheCatalog() throws {
        try German.requireCatalog()
        let daemon = try RunningDaemon(config: "[mpris]\nenabled = true\n", environment: Self.environment)
        let plan = """
            name = "Push"
            [[exercise]]
            name = "Bench press"
            sets = 1
            rest = "90s"
            """
        _ = try daemon.config.directory.write("restd/workouts/push.toml", plan)
        // Rests until recovered at a share of an HRmax the configuration does not give.
        let pull = """
            name = "Pull"
            [[exercise]]
            name = "Curl"
            sets = 2
            rest = "90s"
            until_recovered = true
            recovery_target = "60%max"
            """
        _ = try daemon.config.directory.write("restd/workouts/pull.toml", pull)
        var environment = Self.environment
        environment["XDG_CONFIG_HOME"] = daemon.config.path
        var leaks: [String] = []
        var refusals = 0
        func run(_ args: String..., refused: Bool = true) {
            let result = restctl(daemon.bus, args, environment: environment)
            let command = "restctl \(args.joined(separator: " "))"
            if refused {
                if result.status == 0 || result.stderr.isEmpty {
                    leaks.append("\(command) was not refused: \(result.status) \(result.stderr)")
                } else {
                    refusals += 1
                }
            }
            for (stream, text) in [("stdout", result.stdout), ("stderr", result.stderr)] {
                let words = Self.unmarkedWords(text)
                if !words.isEmpty { leaks.append("\(command) (\(stream)): \(words) in \(text)") }
            }
        }
        /// A refusal restd sends to a bare bus call (restctl checks live values before it sends
        /// them); "Call failed" is busctl's own.
        func call(_ destination: String, _ path: String, _ interface: String, _ method: String, _ args: String...) {
            let result = busctl(daemon.bus, ["call", "--", destination, path, interface, method] + args)
            let command = "busctl call \(method) \(args.joined(separator: " "))"
            if result.succeeded || result.stderr.isEmpty {
                leaks.append("\(command) was not refused: \(result.stderr)")
            } else {
                refusals += 1
            }
            let words = Self.unmarkedWords(result.stderr, besides: ["Call", "failed"])
            if !words.isEmpty { leaks.append("\(command): \(words) in \(result.stderr)") }
        }
        let (live, update) = (RestBus.livePath, RestBus.liveInterface)
        // Live values: out of range, of the wrong type, an unknown key (with and without a likely one).
        run("live", "--heart-rate", "10")
        run("live", "--done", "5", "--total", "3")
        run("live", "--set", "sensor_battery=150")
        run("live", "--set", "progress_done=2.5")
        run("live", "--set", "hart_rate=120")
        run("live", "--set", "zone=3")
        call(RestBus.name, live, update, "Update", "a{sv}", "1", "heart_rate", "i", "10")
        call(RestBus.name, live, update, "Update", "a{sv}", "1", "heart_rate", "s", "fast")
        call(RestBus.name, live, update, "Update", "a{sv}", "2", "progress_done", "i", "5", "progress_total", "i", "3")
        call(RestBus.name, live, update, "Update", "a{sv}", "1", "zone", "i", "3")
        // Timers: a rest out of range, a pause and a resume of one that is over, time taken off it,
        // time added past the longest rest, a timer that does not exist.
        run("start", "1", "--label", "Squat", refused: false)
        run("wait", refused: false)
        run("silence", refused: false)
        run("pause")
        run("resume")
        run("sub", "10")
        run("start", "23h", refused: false)
        run("add", "2h")
        try waitUntil("\(MediaPlayerBus.name) to be owned") {
            busctl(daemon.bus, "status", MediaPlayerBus.name).succeeded
        }
        let player = MediaPlayerBus.playerInterface
        call(MediaPlayerBus.name, MediaPlayerBus.path, player, "Seek", "x", "86400000001")
        call(
            MediaPlayerBus.name, MediaPlayerBus.path, player, "SetPosition", "ox", RestBus.timerPath(id: "default"),
            "-5")
        run("pause", "--id", "nothing")
        // Sets and the history.
        run("undo")
        run("set", "--id", "fresh", "--reps", "5")
        run("set", "--exercise", "Squat", "--reps", "20000")
        run("set", "--exercise", "Squat", "--reps", "5", "--weight", "2500lb")
        run("set", "--exercise", "Squat", "--reps", "5", "--weight", "100", refused: false)
        run("history", "rename", "Squat", "Squat")
        run("history", "delete", "999")
        // The workout: past its last exercise, before its first, started twice, none under way.
        run("workout", "start", "pull")
        run("workout", "start", "push", refused: false)
        run("workout", "next")
        run("workout", "previous")
        run("workout", "start", "push")
        run("workout", "end", refused: false)
        run("workout", "next")
        #expect(leaks.isEmpty, "\(leaks.joined(separator: "\n"))")
        #expect(refusals == 28)
    }
}
