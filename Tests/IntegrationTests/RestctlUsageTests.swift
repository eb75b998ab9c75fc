import Foundation
import ProcessHarness
import RestClient
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// restctl's command line as a newcomer meets it: what it refuses, how it says so, and the
/// one command its exit-69 sentences point to.
@Suite("restctl usage and messages", .serialized)
struct RestctlUsageTests {
    /// One whole stderr and exit status for a command line refused before anything reaches the bus
    /// (there is no restd: a usage error must not even try to connect).
    static func refused(_ args: [String]) throws -> CommandResult {
        let bus = try TestBus()
        return restctl(bus, args)
    }

    @Test(
        "an empty --id is a usage error, and the default timer survives it",
        arguments: [
            ["cancel", "--id", ""], ["status", "--id", ""], ["start", "5", "--id", ""], ["watch", "--id", ""],
            ["wait", "--id", ""],
        ])
    func emptyID(args: [String]) throws {
        let daemon = try RunningDaemon()
        #expect(restctl(daemon.bus, "start", "90").succeeded, "\(daemon.restd.log())")
        let result = restctl(daemon.bus, args)
        #expect(result.status == 64 && result.stdout.isEmpty, "\(result)")
        #expect(
            result.stderr == "restctl: --id is empty; give a timer id, or leave --id out for \"default\"\n", "\(result)"
        )
        #expect(restctl(daemon.bus, "status").stdout.hasPrefix("default  running  "), "the default timer was touched")
    }

    @Test(
        "negative numbers reach the duration parser and its sentence",
        arguments: [
            (["add", "-5"], #"duration "-5" is negative; to take time off, use 'restctl sub 5'"#),
            (
                ["add", "-1:30", "--id", "x"],
                #"duration "-1:30" is negative; to take time off, use 'restctl sub 1:30'"#
            ),
            (["sub", "--id", "x", "-2m"], #"duration "-2m" is negative; to add time, use 'restctl add 2m'"#),
            (["start", "-5"], #"duration "-5" is negative; give a rest of 1 s to 24 h"#),
            (["start", "--wait", "-5"], #"duration "-5" is negative; give a rest of 1 s to 24 h"#),
            (
                ["start", "90", "--warn", "-5"],
                #"--warn "-5" is negative; give how long before the end to warn, as in 10s"#
            ),
            (["add", "--", "-5"], #"duration "-5" is negative; to take time off, use 'restctl sub 5'"#),
            (["watch", "--rate", "-1"], "--rate -1 is out of range: give 0.01 to 20 updates per second"),
        ])
    func negativeNumbers(args: [String], sentence: String) throws {
        let result = try Self.refused(args)
        #expect(result.status == 64 && result.stdout.isEmpty, "\(result)")
        #expect(result.stderr == "restctl: \(sentence)\n", "\(result)")
    }

    @Test(
        "one style: `restctl: ` and a sentence; usage lines only for a command of the wrong shape",
        arguments: [
            (
                ["start", "1x"],
                "restctl: duration \"1x\" is not understood; give seconds (90), units (1h2m3s, 1m30s, 90s, 2min, 1.5m) "
                    + "or a clock time (1:30, 1:02:03)\n"
            ),
            (
                ["add"],
                "restctl: missing expected argument '<duration>'\n"
                    + "Usage: restctl add <duration> [--id <id>] [--json]\n  See 'restctl add --help' for more information.\n"
            ),
            (["start", "90", "--lable", "Squat"], "restctl: unknown option '--lable'; did you mean '--label'?\n"),
            // Suggestions only when close: --all is no typo of --id.
            (["pause", "--all"], "restctl: unknown option '--all'\n"),
            (
                ["stop"],
                "restctl: unknown command 'stop'; to end a timer, use 'restctl cancel'; to pause it, 'restctl pause'\n"
                    + "Usage: restctl <subcommand>\n  See 'restctl --help' for more information.\n"
            ),
            (
                ["stat"],
                "restctl: unknown command 'stat'; did you mean 'status' (one timer) or 'stats' (rests per exercise)?\n"
            ),
            (["strat"], "restctl: unknown command 'strat'; did you mean 'start'?\n"),
            (
                ["next"],
                "restctl: unknown command 'next'; to move to the workout's next set, use 'restctl workout next'\n"
                    + "Usage: restctl <subcommand>\n  See 'restctl --help' for more information.\n"
            ),
            // An unknown option is named before any value is read (ArgumentParser reads values first).
            (
                ["start", "--lable", "Squat"],
                "restctl: unknown option '--lable'; did you mean '--label'?\n"
                    + "Usage: restctl start [<duration>] [--label <text>] [--next <text>] [--no-notify] "
                    + "[--no-sound] [--warn <duration>] [--wait] [--id <id>] [--json]\n"
                    + "  See 'restctl start --help' for more information.\n"
            ),
            (["add", "--idd", "x", "5"], "restctl: unknown option '--idd'; did you mean '--id'?\n"),
            (["set", "--rpes", "5", "--weight", "60,5"], "restctl: unknown option '--rpes'; did you mean '--reps'?\n"),
            (["history", "--snce", "soon"], "restctl: unknown option '--snce'; did you mean '--since'?\n"),
            (["workout", "start", "--dry", "nosuch"], "restctl: unknown option '--dry'\n"),
            // A command's own commands are told like restctl's.
            (
                ["workout", "foo"],
                "restctl: unknown workout command 'foo'; the workout commands are start, status, next, previous, "
                    + "end, list\nUsage: restctl workout <subcommand>\n"
                    + "  See 'restctl workout --help' for more information.\n"
            ),
            (["workout", "strat", "Push"], "restctl: unknown workout command 'strat'; did you mean 'start'?\n"),
        ])
    func oneStyle(args: [String], stderr: String) throws {
        let result = try Self.refused(args)
        #expect(result.status == 64 && result.stdout.isEmpty, "\(result)")
        #expect(
            result.stderr == stderr
                || (result.stderr.hasPrefix(stderr) && result.stderr.dropFirst(stderr.count).hasPrefix("Usage: ")),
            "\(result)")
        #expect(!result.stderr.contains("Error:"), "\(result)")
    }

    @Test(
        "what restd would refuse is a usage error (64), like --exercise's, without asking restd",
        arguments: [
            (["start", "5", "--label", "a\u{1}b"], "--label contains a control character (U+0001) at position 2"),
            (["start", "5", "--next", "a\tb"], "--next contains a control character (U+0009) at position 2"),
            (["live", "--heart-rate", "10"], "heart_rate 10 is out of range: give 20 to 250 bpm"),
            (["live", "--done", "5", "--total", "3"], "progress_done 5 is more than progress_total 3"),
            (["live", "--exercise", "a\u{7}"], "exercise contains a control character (U+0007) at position 2"),
        ])
    func refusedBeforeAsking(args: [String], sentence: String) throws {
        let result = try Self.refused(args)
        #expect(result.status == 64 && result.stdout.isEmpty, "\(result)")
        #expect(result.stderr == "restctl: \(sentence)\n", "\(result)")
    }

    @Test("a plan name that names no plan: where it was looked for, and the command that lists the plans")
    func unknownPlanName() throws {
        let bus = try TestBus()
        let config = try TempDirectory(prefix: "restd-config")
        let result = restctl(bus, ["workout", "start", "nosuch"], environment: ["XDG_CONFIG_HOME": config.path])
        #expect(result.status == 64 && result.stdout.isEmpty, "\(result)")
        #expect(
            result.stderr == "restctl: no workout plan \"nosuch\" in \(config.path)/restd/workouts; "
                + "'restctl workout list' shows the plans there\n", "\(result)")
    }

    /// Every command (and workout's), each given an option it does not have and a value that
    /// would be refused: the option is what restctl names.
    static let everyCommand: [[String]] = [
        ["start", "x"], ["pause"], ["resume"], ["toggle"], ["add", "x"], ["sub", "x"], ["restart"], ["cancel"],
        ["clear"], ["status"], ["list"], ["wait"], ["live", "--heart-rate", "10"], ["watch", "--rate", "0"],
        ["sensors"], ["set", "--reps", "x"], ["skip"], ["history", "--since", "x"], ["stats", "--since", "x"],
        ["report", "--since", "x"], ["workout", "start", "x"], ["workout", "status"], ["workout", "next"],
        ["workout", "previous"],
        ["workout", "end"], ["workout", "list"], ["reload"],
    ]

    @Test("--version is restctl's own: not listed under a command, and refused after one")
    func versionIsRestctls() throws {
        let bus = try TestBus()
        for command in Self.everyCommand.map({ Array($0.prefix { !$0.hasPrefix("-") }.prefix(2)) }) {
            let help = restctl(bus, command + ["--help"])
            #expect(help.succeeded && !help.stdout.contains("--version"), "\(help)")
        }
        #expect(restctl(bus, "--help").stdout.contains("--version"))
        #expect(restctl(bus, "--version").stdout == RestdClient.clientVersion + "\n")
        let after = restctl(bus, "start", "90", "--version")
        #expect(after.status == 64 && after.stdout.isEmpty, "\(after)")
        #expect(after.stderr.hasPrefix("restctl: --version is restctl's own option: run 'restctl --version'\n"))
    }

    @Test("an unknown option is reported first, on every command", arguments: everyCommand)
    func unknownOptionFirst(args: [String]) throws {
        let result = try Self.refused(args + ["--frobnicate"])
        #expect(result.status == 64 && result.stdout.isEmpty, "\(result)")
        #expect(result.stderr.hasPrefix("restctl: unknown option '--frobnicate'\nUsage: restctl "), "\(result)")
    }

    @Test(
        "the flags the issue tripped on exist now: no suggestion for them",
        arguments: [
            ["cancel", "--all", "--json"], ["start", "90", "--json", "--wait", "--bogus"],
        ])
    func noMisleadingSuggestion(args: [String]) throws {
        let result = try Self.refused(args)
        #expect(result.status == 64, "\(result)")
        #expect(
            !result.stderr.contains("Did you mean") && !result.stderr.contains("--id'?")
                && !result.stderr.contains("--warn'?"),
            "\(result)")
    }

    @Test(
        "durations out of restd's range are usage errors in restctl, 64 both ways",
        arguments: [
            (["start", "0"], #"duration "0" is too short: give a rest of 1 s to 24 h"#),
            (["start", "25h"], #"duration "25h" is too long: give a rest of 1 s to 24 h"#),
            (["start", "24:00:01"], #"duration "24:00:01" is too long: give a rest of 1 s to 24 h"#),
            (["add", "25h"], #"duration "25h" is too long: add and sub take at most 24 h"#),
        ])
    func ranges(args: [String], sentence: String) throws {
        let result = try Self.refused(args)
        #expect(result.status == 64 && result.stdout.isEmpty, "\(result)")
        #expect(result.stderr == "restctl: \(sentence)\n", "\(result)")
    }

    @Test(
        "--warn errors name the flag",
        arguments: [
            (
                ["start", "5", "--warn", "10s"],
                #"--warn "10s" is not shorter than the rest (5 s): give a shorter --warn or a longer rest"#
            ),
            (
                ["start", "5", "--warn", "0"],
                #"--warn "0" is zero; leave --warn out for no pre-alert, or give at least 1 s"#
            ),
            (
                ["start", "5", "--warn", "soon"],
                #"--warn "soon" is not understood; give seconds (90), units (1h2m3s, 1m30s, 90s, 2min, 1.5m) "#
                    + "or a clock time (1:30, 1:02:03)"
            ),
        ])
    func warnNamesTheFlag(args: [String], sentence: String) throws {
        let result = try Self.refused(args)
        #expect(result.status == 64 && result.stdout.isEmpty, "\(result)")
        #expect(result.stderr == "restctl: \(sentence)\n", "\(result)")
    }

    @Test("--warn against restd's default duration, when no duration is given")
    func warnAgainstTheDefault() throws {
        let daemon = try RunningDaemon()
        let result = restctl(daemon.bus, "start", "--warn", "2m")
        #expect(result.status == 64 && result.stdout.isEmpty, "\(result)")
        #expect(
            result.stderr
                == "restctl: --warn \"2m\" is not shorter than the rest (1 min 30 s): give a shorter --warn or a longer rest\n",
            "\(result)")
        #expect(restctl(daemon.bus, "status").status == 1, "a timer was started")
    }

    @Test("help on an unknown topic is a usage error; help on a command still works")
    func helpTopics() throws {
        let bogus = try Self.refused(["help", "bogus"])
        #expect(bogus.status == 64 && bogus.stdout.isEmpty, "\(bogus)")
        #expect(
            bogus.stderr.hasPrefix("restctl: no help on 'bogus': it is not a command; the commands are start, pause, "),
            "\(bogus)")
        let start = try Self.refused(["help", "start"])
        #expect(start.status == 0 && start.stdout.hasPrefix("OVERVIEW: Start (or replace) a timer."), "\(start)")
    }

    // MARK: Exit status 69: what happened, and the one command that helps

    @Test("no restd: the command that starts it, by hand or with systemctl when a user manager runs")
    func notRunningHint() throws {
        let bus = try TestBus()
        let runtime = try TempDirectory(prefix: "restctl-runtime")
        let plain = restctl(bus, ["status"], environment: ["XDG_RUNTIME_DIR": runtime.path])
        #expect(plain.status == 69, "\(plain)")
        #expect(
            plain.stderr == "restctl: restd is not running on the session bus; start it: "
                + "run 'restd' (in another terminal, or as 'restd &')\n", "\(plain)")
        // A user manager listens on $XDG_RUNTIME_DIR/systemd/private.
        let socket = try boundSocket(at: runtime.path("systemd/private"))
        defer { close(socket) }
        let managed = restctl(bus, ["status"], environment: ["XDG_RUNTIME_DIR": runtime.path])
        #expect(managed.status == 69, "\(managed)")
        #expect(
            managed.stderr
                == "restctl: restd is not running on the session bus; start it: 'systemctl --user start restd'\n",
            "\(managed)")
    }

    @Test("no bus: no `make run` (which means nothing once installed), but what to set or start")
    func noBusHint() throws {
        let dir = try TempDirectory(prefix: "restctl-nobus")
        let result = Command.run(
            [try BuildProducts.executable("restctl"), "status"],
            environment: [
                "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(dir.path("missing"))",
                "XDG_RUNTIME_DIR": dir.path,
            ])
        #expect(result.status == 69 && result.stdout.isEmpty, "\(result)")
        #expect(result.stderr.hasPrefix("restctl: cannot reach the D-Bus session bus ("), "\(result)")
        #expect(
            result.stderr.hasSuffix(
                "); set DBUS_SESSION_BUS_ADDRESS to your session's bus, "
                    + "or start one with 'dbus-run-session -- $SHELL'\n"), "\(result)")
        #expect(!result.stderr.contains("make run"), "\(result)")
    }

    @Test("the bus dying under watch: said as it happened, not as a missing variable")
    func busGoneUnderWatch() throws {
        let daemon = try RunningDaemon()
        let watch = try WatchProcess(bus: daemon.bus)
        defer { watch.stop() }
        try watch.waitForLine { $0 == "idle" }
        daemon.bus.kill()
        let termination = watch.child.wait(timeout: 30)
        #expect(termination == .exited(69), "\(String(describing: termination))")
        #expect(
            watch.errors()
                == "restctl: the D-Bus session bus went away (the connection to the bus was closed), and restd "
                + "with it: the session ended or the bus was stopped\n", "\(watch.errors())")
    }
}

/// A Unix socket bound at `path` (its directory made first), as a listening manager's would be.
func boundSocket(at path: String) throws -> Int32 {
    let directory = (path as NSString).deletingLastPathComponent
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw HarnessError.system("socket", errno) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        raw.copyBytes(from: Array(path.utf8.prefix(raw.count - 1)))
    }
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard bound == 0 else {
        close(fd)
        throw HarnessError.system("bind \(path)", errno)
    }
    return fd
}
