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
    static func withoutBus(_ args: [String]) throws -> CommandResult {
        let directory = try TempDirectory(prefix: "restctl-nobus")
        return Command.run(
            [try BuildProducts.executable("restctl")] + args,
            environment: [
                "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(directory.path("missing"))", "XDG_RUNTIME_DIR": directory.path,
            ])
    }
}
