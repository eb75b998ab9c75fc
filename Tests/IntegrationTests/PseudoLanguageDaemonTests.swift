import Foundation
import ProcessHarness
import RestProtocol
import Testing

/// restd's own sentences in en@pseudo: the refusals it sends on the bus (through restctl, and
/// through busctl where restctl never sends what provokes them) and the warnings of its log.
extension PseudoLanguageTests {
    /// The words outside the marks in restd's warnings and errors on stderr
    /// (`21:10:00.123 warning: message (key=value)`), the metadata left out.
    static func unmarkedLogWords(_ log: String) -> [String] {
        log.split(separator: "\n").flatMap { line -> [String] in
            let levels = [" warning: ", " error: ", " critical: "]
            guard let level = levels.lazy.compactMap({ line.range(of: $0) }).first else { return [] }
            var message = line[level.upperBound...]
            if message.hasSuffix(")"), let metadata = message.range(of: " (", options: .backwards),
                message[metadata.upperBound...].contains("=")
            {
                message = message[..<metadata.lowerBound]
            }
            return unmarkedWords(String(message))
        }
    }

    /// The sentence of a refused `busctl call`, which prints "Call failed: <the error's message>".
    static func refusal(_ result: CommandResult) -> String? {
        guard !result.succeeded, let line = result.stderr.split(separator: "\n").first,
            line.hasPrefix("Call failed: ")
        else { return nil }
        return String(line.dropFirst("Call failed: ".count))
    }

    @Test("restd's refusals on the bus and its warnings, in restctl, busctl and its log")
    func restdSpeaksOnlyTheCatalog() throws {
        try German.requireCatalog()
        let setup = try RestdSetup(config: "[mpris]\nenabled = true\n", environment: Self.environment)
        // A state file that is no database: set aside at start, with a warning.
        _ = try setup.state.write("restd/state.sqlite", "not a database\n")
        let daemon = try setup.start()
        var environment = Self.environment
        environment["XDG_CONFIG_HOME"] = daemon.config.path
        var leaks: [String] = []
        func note(_ what: String, _ text: String, _ words: [String]) {
            if !words.isEmpty { leaks.append("\(what): \(words) in \(text)") }
        }
        func run(_ args: String...) {
            let result = restctl(daemon.bus, args, environment: environment)
            for text in [result.stdout, result.stderr] {
                note("restctl \(args.joined(separator: " "))", text, Self.unmarkedWords(text))
            }
        }
        /// A call restctl never makes, refused with one of restd's sentences.
        func call(_ destination: String, _ path: String, _ interface: String, _ member: String, _ args: [String]) {
            let result = busctl(daemon.bus, ["call", "--", destination, path, interface, member] + args)
            guard let sentence = Self.refusal(result) else {
                return leaks.append("\(member) \(args) was not refused with a sentence: \(result)")
            }
            // The apps an import may come from are values (BeginImport's refusal lists them).
            note("\(member) \(args)", sentence, Self.unmarkedWords(sentence, besides: ["strong", "hevy", "fitnotes"]))
        }
        func manager(_ member: String, _ args: String...) {
            call(RestBus.name, RestBus.managerPath, RestBus.managerInterface, member, args)
        }
        func history(_ member: String, _ args: String...) {
            call(RestBus.name, RestBus.historyPath, RestBus.historyInterface, member, args)
        }
        func live(_ member: String, _ args: String...) {
            call(RestBus.name, RestBus.livePath, RestBus.liveInterface, member, args)
        }
        func player(_ member: String, _ args: String...) {
            call(MediaPlayerBus.name, MediaPlayerBus.path, MediaPlayerBus.playerInterface, member, args)
        }

        run("start", "90", "--label", "Squat")
        run("sensors")
        manager("CompleteSet", "ssa{sv}", "default", "Squat", "1", "reps", "u", "100000")
        manager("CompleteSet", "ssa{sv}", "default", "Squat", "1", "reps", "s", "five")
        manager("CompleteSet", "ssa{sv}", "default", "Squat", "1", "tempo", "s", "fast")
        manager("Start", "sta{sv}", "squat", "90000000", "1", "colour", "s", "red")
        manager("Start", "sta{sv}", "squat", "90000000", "1", "notify", "s", "yes")
        manager("BeginImport", "s", "Endomondo")
        manager("CommitImport", "sa{sv}", "42", "0")
        history("Sets", "ttsu", "0", "0", "", "100001")
        live("Subscribe", "d", "0")
        live("Update", "a{sv}", "1", "x_big", "as", "1", "a")
        // The MPRIS player, once its name is owned for the running timer.
        try waitUntil("restd to own \(MediaPlayerBus.name)", details: { daemon.log() }) {
            busctl(daemon.bus, "status", MediaPlayerBus.name).succeeded
        }
        player("OpenUri", "s", "file:///x")
        player("SetPosition", "ox", "/io/restd/nothing", "0")
        note("restd's log", daemon.log(), Self.unmarkedLogWords(daemon.log()))
        #expect(daemon.log().contains(" warning: ⟦"), "\(daemon.log())")
        #expect(leaks.isEmpty, "\(leaks.joined(separator: "\n"))")
    }

    @Test("a read-only state: restd's warning, and its refusal of a change through restctl")
    func readOnlyStateSpeaksOnlyTheCatalog() throws {
        try German.requireCatalog()
        let runtime = try TempDirectory(prefix: "restd-runtime")
        let setup = try RestdSetup(environment: Self.environment.merging(["XDG_RUNTIME_DIR": runtime.path]) { $1 })
        _ = try setup.state.subdirectory("restd")
        try setup.readOnlyState()
        let daemon = try setup.start()
        let result = restctl(daemon.bus, ["start", "90"], environment: Self.environment)
        #expect(!result.succeeded, "\(result)")
        #expect(Self.unmarkedWords(result.stderr).isEmpty, "\(result)")
        #expect(Self.unmarkedLogWords(daemon.log()).isEmpty, "\(daemon.log())")
        #expect(daemon.log().contains(" warning: ⟦"), "\(daemon.log())")
    }
}
