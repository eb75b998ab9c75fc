import Foundation
import ProcessHarness
import RestClient
import RestProtocol
import Testing

/// restctl's exit statuses: one table (`ExitStatus`) that the help, man/restctl-exit-status.md and
/// restctl(1) (generated from it) repeat word for word, and one test per row through the real
/// binaries.
@Suite("restctl's exit statuses")
struct ExitStatusTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test("man/restctl-exit-status.md, restctl(1)'s EXIT STATUS and --help say what ExitStatus says")
    func oneTable() throws {
        let table = try String(
            contentsOf: Self.repository.appending(path: "man/restctl-exit-status.md"), encoding: .utf8)
        let rows = table.split(separator: "\n").compactMap { line in
            line.wholeMatch(of: /\ *\| (\d+) \| (.*) \|/).map { "\($0.output.1) \($0.output.2)" }
        }
        #expect(rows == ExitStatus.allCases.map { "\($0.rawValue) \($0.meaning)" })

        let page = try String(contentsOf: Self.repository.appending(path: "man/man1/restctl.1"), encoding: .utf8)
        let section = try #require(page.firstRange(of: ".Sh EXIT STATUS\n"))
        let items = page[section.upperBound...].split(separator: "\n").prefix { $0 != ".El" }.dropFirst()
        #expect(
            items.map(String.init) == ExitStatus.allCases.flatMap { [".It \($0.rawValue)", $0.meaning] },
            "\(page[section.upperBound...])")

        let help = restctl(try TestBus(), "--help").stdout
        let words = { (text: String) in text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        #expect(words(help).contains(words(ExitStatus.helpText)), "\(help)")
    }

    @Test("0: done; wait returns 0 once the rest is over")
    func success() throws {
        let daemon = try RunningDaemon()
        let start = restctl(daemon.bus, "start", "1", "--id", "short")
        #expect(start.status == ExitStatus.success.rawValue, "\(start)")
        let wait = restctl(daemon.bus, "wait", "--id", "short")
        #expect(wait.status == 0 && wait.stderr.isEmpty, "\(wait)")
    }

    @Test(
        "1: restd refused, with its sentence", arguments: [["status", "--id", "nosuch"], ["pause", "--id", "nosuch"]])
    func refused(args: [String]) throws {
        let daemon = try RunningDaemon()
        let result = restctl(daemon.bus, args)
        #expect(result.status == ExitStatus.refused.rawValue, "\(result)")
        #expect(result.stderr == "restctl: no timer \"nosuch\"\n", "\(result)")
    }

    /// Refused by restctl itself: there is no bus at all, so that asking restd would be 69.
    @Test(
        "64: usage errors, found before restd is asked",
        arguments: [
            ["start", "--lable", "Squat"], ["start", "--label"], ["frobnicate"], ["workout", "foo"],
            ["start", "0"], ["start", "90", "--label", "a\u{1}b"], ["set", "--exercise", "Squat\u{7}"],
            ["live", "--heart-rate", "10"], ["set", "--exercise", "Squat", "--weight=-5"],
            ["set", "--exercise", "Squat", "--weight", "60,5"], ["history", "--since", "soon"],
        ])
    func usage(args: [String]) throws {
        let result = try Self.withoutBus(args)
        #expect(result.status == ExitStatus.usage.rawValue && result.stdout.isEmpty, "\(result)")
        #expect(result.stderr.hasPrefix("restctl: ") && !result.stderr.contains("bus"), "\(result)")
    }

    /// The corners a newcomer met, each with its exit status and whole sentence, all in the one
    /// style (CONTRIBUTING.md, "Messages"): a value as given in double quotes, what one types in
    /// single quotes, the name likely meant, ranges as "A to B". Each is found before restd is
    /// asked (there is no bus); `{plans}` is the plans directory, which holds push.toml.
    @Test(
        "64: the corners, in restctl's own sentences",
        arguments: [
            (
                ["workout", "start", "nosuch"],
                "no workout plan \"nosuch\" in {plans}; 'restctl workout list' shows the plans there"
            ),
            (["workout", "start", "pussh"], "no workout plan \"pussh\" in {plans}; did you mean 'push'?"),
            (
                ["workout", "start", "/nonexistent/push.toml"],
                "workout plan \"/nonexistent/push.toml\" cannot be read: No such file or directory"
            ),
            (
                ["live", "--set", "foo=bar"],
                "unknown key 'foo'; use heart_rate, heart_rate_sensor, heart_rate_contact, sensor_battery, "
                    + "progress_done, progress_total, exercise, workout, or a custom key x_[a-z0-9_]{1,30}"
            ),
            (["live", "--set", "heart_rat=140"], "unknown key 'heart_rat'; did you mean 'heart_rate'?"),
            (["live", "--done", "6", "--total", "5"], "progress_done 6 is more than progress_total 5"),
            (["live", "--heart-rate", "12x"], "--heart-rate \"12x\" is not a whole number"),
            (["live", "--heart-rate", "10"], "heart_rate 10 is out of range: give 20 to 250 bpm"),
            (["set", "--exercise", "Squat", "--reps", "5.5"], "--reps \"5.5\" is not a whole number"),
            (["set", "--exercise", "Squat", "--reps", "10001"], "--reps 10001 is out of range: give 0 to 10000"),
            (
                ["set", "--exercise", "Squat", "--weight", "1001kg"],
                "--weight 1001kg is out of range: give 0 to 1000 kg"
            ),
            (["watch", "--rate", "fast"], "--rate \"fast\" is not a number, such as 2 or 0.5"),
            (["watch", "--rate", "50"], "--rate 50 is out of range: give 0.01 to 20 updates per second"),
            (
                ["status", "--id", "a.b"],
                "timer id \"a.b\" is invalid: use 1 to 64 characters of A-Z, a-z, 0-9, _ and -"
            ),
            (["help", "start", "extra"], "unexpected 'extra' after 'restctl help start': help takes one command"),
            (
                ["help", "workout", "start", "x"],
                "unexpected 'x' after 'restctl help workout start': help takes one command"
            ),
            (["start", "-h90"], "unknown option '-h90'; -h takes no value: give it alone for the help"),
            (["workout", "strat", "push"], "unknown workout command 'strat'; did you mean 'start'?"),
            (["resu"], "unknown command 'resu'; did you mean 'resume'?"),
            (
                ["history", "--since", "today 09:00", "--until", "yesterday"],
                "--until is not after --since; give a later --until or an earlier --since"
            ),
        ])
    func corners(args: [String], sentence: String) throws {
        let config = try TempDirectory(prefix: "restctl-config")
        _ = try config.write("restd/workouts/push.toml", "[[exercise]]\nname = \"Squat\"\nsets = 5\n")
        let result = try Self.withoutBus(args, environment: ["XDG_CONFIG_HOME": config.path])
        let expected = sentence.replacing("{plans}", with: config.path("restd/workouts"))
        #expect(result.status == ExitStatus.usage.rawValue && result.stdout.isEmpty, "\(result)")
        // The sentence, then the usage lines where the command's shape is wrong.
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first.map(String.init) == "restctl: \(expected)", "\(result)")
        #expect(lines.dropFirst().allSatisfy { $0.isEmpty || $0.hasPrefix("Usage: ") || $0.hasPrefix("  See ") })
    }

    @Test("69: no bus, or no restd on it")
    func unavailable() throws {
        let noBus = try Self.withoutBus(["status"])
        #expect(noBus.status == ExitStatus.unavailable.rawValue, "\(noBus)")
        let runtime = try TempDirectory(prefix: "restctl-runtime")
        let noRestd = restctl(try TestBus(), ["list"], environment: ["XDG_RUNTIME_DIR": runtime.path])
        #expect(noRestd.status == ExitStatus.unavailable.rawValue, "\(noRestd)")
    }

    /// python-dbusmock owns io.restd.Rest1 with a timer object that has none of restd's
    /// properties: restctl says so rather than inventing a timer.
    @Test("76: what owns io.restd.Rest1 answers nonsense")
    func badReply() throws {
        let bus = try TestBus()
        let log = try TempDirectory(prefix: "restd-impostor")
        let logFile = try openLogFile(log.path("mock.log"))
        defer { close(logFile) }
        let names = try SignalWatcher.nameOwner(RestBus.name, bus: bus)
        let impostor = try ChildProcess(
            executable: NotificationServer.python,
            arguments: ["-m", "dbusmock", RestBus.name, RestBus.timerPath(id: "default"), RestBus.timerInterface],
            environment: ChildEnvironment.make(["DBUS_SESSION_BUS_ADDRESS": bus.address]),
            stdout: logFile, stderr: logFile)
        defer { impostor.killAndReap() }
        _ = try names.waitForOwner(impostor, "the impostor") {
            (try? String(contentsOfFile: log.path("mock.log"), encoding: .utf8)) ?? ""
        }
        let result = restctl(bus, "status")
        #expect(result.status == ExitStatus.badReply.rawValue && result.stdout.isEmpty, "\(result)")
        #expect(result.stderr.hasPrefix("restctl: ") && result.stderr.filter { $0 == "\n" }.count == 1, "\(result)")
    }

    /// restctl with a session bus address where nothing listens.
    static func withoutBus(_ args: [String], environment: [String: String] = [:]) throws -> CommandResult {
        let directory = try TempDirectory(prefix: "restctl-nobus")
        return Command.run(
            [try BuildProducts.executable("restctl")] + args,
            environment: [
                "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(directory.path("missing"))", "XDG_RUNTIME_DIR": directory.path,
            ].merging(environment) { $1 })
    }
}
