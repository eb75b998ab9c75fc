import DBusKit
import Foundation
import ProcessHarness
import RestClient
import RestProtocol
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// config.toml as restd reads it: at start-up (refusing a broken file), with --check-config,
/// and again on SIGHUP. Waits on signals, NOTIFY_SOCKET messages and log lines, never on time.
@Suite("Configuration", .serialized)
struct ConfigurationTests {
    static func restdCommand(_ arguments: [String], configHome: String) throws -> CommandResult {
        Command.run([try BuildProducts.executable("restd")] + arguments, environment: ["XDG_CONFIG_HOME": configHome])
    }

    static func defaultDuration(_ bus: TestBus) -> String {
        busctl(
            bus, "get-property", RestBus.name, RestBus.managerPath, RestBus.managerInterface,
            ManagerProperty.defaultDurationUSec
        ).output
    }

    @Test("a broken config.toml refuses start-up: file:line: reason in the log, status 78, name never owned")
    func brokenAtStartup() throws {
        let setup = try RestdSetup(config: "# restd\nmax_timers = 0\n[notifications]\nurgency = \"loud\"\n")
        let (config, restd) = (setup.config, try setup.launch())
        #expect(try restd.waitForExit() == 78, "\(restd.log())")
        let log = restd.log()
        #expect(log.contains("\(config.file):2: max_timers: 0 is out of range: give 1 to 10000"), "\(log)")
        #expect(
            log.contains(
                "\(config.file):4: notifications.urgency: \"loud\" is not one of \"low\", \"normal\", \"critical\""),
            "\(log)")
        #expect(log.contains("refusing to start with a broken configuration"), "\(log)")
        // It never got as far as the state directory.
        #expect(!FileManager.default.fileExists(atPath: setup.state.path("restd")))
    }

    @Test("--check-config: 0 and ok for a good file, 0 for none, 78 and file:line: reason for a broken one")
    func checkConfig() throws {
        let good = try ConfigHome("default_duration = \"2m\"\n")
        let ok = try Self.restdCommand(["--check-config"], configHome: good.path)
        #expect(ok.status == 0 && ok.stdout == "\(good.file): ok\n" && ok.stderr.isEmpty, "\(ok)")

        let none = try ConfigHome(nil)
        let missing = try Self.restdCommand(["--check-config"], configHome: none.path)
        #expect(
            missing.status == 0 && missing.stdout == "\(none.file): not found; restd uses the defaults\n", "\(missing)")

        let broken = try ConfigHome("[live]\nbroadcast_rate = 50\n\nmystery = 1\n")
        let bad = try Self.restdCommand(["--check-config"], configHome: broken.path)
        #expect(bad.status == 78, "\(bad)")
        #expect(bad.stdout.isEmpty, "\(bad)")
        #expect(
            bad.stderr == """
                \(broken.file):2: live.broadcast_rate: 50 is out of range: give 0.01 to 20 updates per second
                \(broken.file):4: unknown key 'live.mystery'; the keys are default_duration, max_timers, expired_retention, \
                live.broadcast_rate, live.heart_rate_staleness, heart_rate.bluetooth, notifications.urgency, \
                notifications.actions, sound.enabled, sound.cues, sound.ring_for, sound.in_do_not_disturb, \
                sound.command, sound.theme, sound.cue_file, sound.alarm_file, mpris.enabled, mpris.timer, \
                rest.failed_extra, history.keep_days, history.heart_rate_keep_days, history.weight_unit, \
                workout.abandon_after, recovery.until_recovered, recovery.target, recovery.min, recovery.hold, \
                recovery.hr_max, recovery.resting_hr, categories, exercises

                """, "\(bad)")

        // Every problem inside the exercises' tables, each at its own key, names as written.
        let training = try ConfigHome(
            "[exercises.\"Bench Press\"]\nrest = \"0s\"\nreps = 5\ncategory = \"compund\"\n[categories]\ncompound = 90\n"
        )
        let refused = try Self.restdCommand(["--check-config"], configHome: training.path)
        #expect(refused.status == 78, "\(refused)")
        #expect(
            refused.stderr == """
                \(training.file):2: exercises."Bench Press".rest: 0 s is out of range: give 1 s to 24 h
                \(training.file):3: exercises."Bench Press".reps: unknown key; an exercise has rest, failed_rest, \
                category, sets, sound, until_recovered, recovery_target, recovery_min, recovery_hold
                \(training.file):4: exercises."Bench Press".category: "compund" is not in [categories] ("compound")

                """, "\(refused)")

        // --config names another file; a syntax error carries its line.
        let other = try TempDirectory(prefix: "restd-cfg")
        let path = try other.write("other.toml", "max_timers = 3\nmax_timers = [\n")
        let syntax = try Self.restdCommand(["--check-config", "--config", path], configHome: good.path)
        #expect(syntax.status == 78 && syntax.stderr.hasPrefix("\(path):2: not valid TOML: "), "\(syntax)")

        // A file named with --config must exist: a typo is an error, not the defaults.
        let typo = other.path("tpyo.toml")
        let absent = try Self.restdCommand(["--check-config", "--config", typo], configHome: good.path)
        #expect(absent.status == 78 && absent.stdout.isEmpty, "\(absent)")
        #expect(absent.stderr == "\(typo): does not exist; check the path given to --config\n", "\(absent)")
    }

    @Test("restd --config with a missing file does not start: exit 78 with the path")
    func missingExplicitConfig() throws {
        let other = try TempDirectory(prefix: "restd-cfg")
        let restd = try RestdSetup(arguments: ["--config", other.path("tpyo.toml")]).launch()
        #expect(try restd.waitForExit() == 78, "\(restd.log())")
        #expect(restd.log().contains("\(other.path("tpyo.toml")): does not exist"), "\(restd.log())")
    }

    @Test("restd's own command line: --help and --version")
    func commandLine() throws {
        let none = try ConfigHome(nil)
        let help = try Self.restdCommand(["--help"], configHome: none.path)
        #expect(help.status == 0 && help.stdout.hasPrefix("USAGE: restd [--address ADDRESS]"), "\(help)")
        #expect(help.stdout.contains("real elapsed time,\nanchored to the wall clock across restarts"), "\(help)")
        let version = try Self.restdCommand(["--version"], configHome: none.path)
        #expect(version.status == 0 && version.stdout == "0.1.0\n", "\(version)")
    }

    /// In restctl's style (CONTRIBUTING.md, "Messages"): what one types in single quotes, a
    /// value in double quotes, the option likely meant.
    @Test(
        "a mistake on restd's command line: one line, exit 64",
        arguments: [
            (["help"], "restd: unexpected argument \"help\"; restd takes only options; see 'restd --help'"),
            (["--frobnicate"], "restd: unknown option '--frobnicate'; see 'restd --help'"),
            (["--bogus"], "restd: unknown option '--bogus'; see 'restd --help'"),
            (["--verbos"], "restd: unknown option '--verbos'; did you mean '--verbose'?"),
            (["--chek-config"], "restd: unknown option '--chek-config'; did you mean '--check-config'?"),
            (["--state-dir"], "restd: --state-dir needs a value; see 'restd --help'"),
            (["--verbose=yes"], "restd: --verbose takes no value; see 'restd --help'"),
        ])
    func commandLineMistake(arguments: [String], sentence: String) throws {
        let none = try ConfigHome(nil)
        let result = try Self.restdCommand(arguments, configHome: none.path)
        #expect(result.status == 64 && result.stderr == sentence + "\n" && result.stdout.isEmpty, "\(result)")
    }

    @Test("the start-up configuration is in force: DefaultDurationUSec, restctl start, max_timers")
    func startupConfiguration() throws {
        let daemon = try RunningDaemon(config: "default_duration = \"2m\"\nmax_timers = 1\n")
        let bus = daemon.bus
        #expect(Self.defaultDuration(bus) == "t 120000000", "\(daemon.log())")
        let start = restctl(bus, "start")
        #expect(start.succeeded && start.stdout.hasPrefix("default  running  "), "\(start)")
        let snapshot = try daemon.client.timer(id: "default")
        #expect(snapshot.durationUSec == 120_000_000)
        let second = restctl(bus, "start", "10", "--id", "two")
        #expect(second.status == 1 && second.stderr.contains("at most 1 timers may exist at once"), "\(second)")
    }

    @Test("SIGHUP applies a good file at once, and keeps the old one when the new one is broken")
    func reload() throws {
        let notify = try NotifySocket()
        let setup = try RestdSetup(config: "default_duration = \"2m\"\n", environment: notify.environment)
        let (bus, config, restd) = (setup.bus, setup.config, try setup.launch())
        try notify.waitFor(line: "READY=1")
        let watcher = try SignalWatcher.restd(bus: bus)
        let client = try RestdClient(address: bus.address)
        try client.start(id: "one", durationUSec: 60_000_000)

        try config.write("default_duration = 45\nmax_timers = 1\n[notifications]\nurgency = \"normal\"\n")
        restd.signal(SIGHUP)
        let changed = try watcher.waitFor(where: { $0.member == "PropertiesChanged" && $0.path == RestBus.managerPath })
        #expect(changed.changedProperties == [ManagerProperty.defaultDurationUSec: .uint64(45_000_000)])
        try notify.waitFor(line: "RELOADING=1")
        try notify.waitFor(line: "READY=1")
        try restd.waitForLog(
            containing:
                "reloaded the configuration from \(config.file); changed: default_duration, max_timers, notifications.urgency"
        )
        #expect(restctl(bus, "start", "--id", "one").stdout.hasPrefix("one  running  0:4"))
        let refused = restctl(bus, "start", "10", "--id", "two")
        #expect(refused.status == 1 && refused.stderr.contains("at most 1 timers"), "\(refused)")

        // A broken file changes nothing, and says why.
        try config.write("default_duration = 45\nmax_timers = \"many\"\n")
        restd.signal(SIGHUP)
        let log = try restd.waitForLog(
            containing: "the configuration was not reloaded; the previous one stays in force")
        #expect(
            log.contains("\(config.file):2: max_timers: expected a whole number from 1 to 10000, found a string"),
            "\(log)")
        #expect(restd.isRunning)
        #expect(Self.defaultDuration(bus) == "t 45000000")
        #expect(restctl(bus, "start", "10", "--id", "two").status == 1, "max_timers = 1 still holds")

        // The same values again: no PropertiesChanged for the manager. Removing the file then
        // brings the defaults back with exactly one, which must be the next one seen.
        try config.write("default_duration = 45\nmax_timers = 1\n[notifications]\nurgency = \"normal\"\n")
        restd.signal(SIGHUP)
        try restd.waitForLog(containing: "reloaded the configuration from \(config.file); nothing changed")
        try FileManager.default.removeItem(atPath: config.file)
        restd.signal(SIGHUP)
        let next = try watcher.waitFor(where: {
            $0.member == "PropertiesChanged" && $0.path == RestBus.managerPath && $0 !== changed
        })
        #expect(next.changedProperties == [ManagerProperty.defaultDurationUSec: .uint64(90_000_000)])
        try restd.waitForLog(
            containing: "reloaded the configuration: \(config.file) does not exist, so the defaults apply; changed: ")
        #expect(restctl(bus, "start", "10", "--id", "two").succeeded, "max_timers is back to 10000")
    }

    @Test("a shorter expired_retention on reload removes expired timers at once")
    func retentionReload() throws {
        let daemon = try RunningDaemon()
        let (bus, config, restd, client) = (daemon.bus, daemon.config, daemon.restd, daemon.client)
        let watcher = try SignalWatcher.restd(bus: bus)
        // Without sound: a ringing timer stays until it is silenced, whatever the retention.
        try client.start(id: "short", durationUSec: 1_000_000, sound: false)
        try watcher.waitFor(where: { $0.member == "Expired" })
        #expect(try client.timer(id: "short").state == "expired")

        try config.write("expired_retention = 0\n")
        restd.signal(SIGHUP)
        let removed = try watcher.waitFor(where: { $0.member == "InterfacesRemoved" })
        #expect(removed.arguments().first == .objectPath(RestBus.timerPath(id: "short")), "\(restd.log())")
        #expect(try client.timers().isEmpty)
    }

    @Test("an expiry is logged with its timer id; the message id stays out of stderr")
    func expiryLogged() throws {
        let daemon = try RunningDaemon()
        let watcher = try SignalWatcher.restd(bus: daemon.bus)
        try daemon.client.start(id: "squat", durationUSec: 1_000_000)
        try watcher.waitFor(where: { $0.member == "Expired" })
        let log = try daemon.restd.waitForLog(containing: "info: timer squat expired (")
        let line = try #require(log.split(separator: "\n").first { $0.contains("timer squat expired") })
        #expect(
            line.contains("timer_id=squat") && line.contains("deadline_usec=") && line.contains("late_usec="), "\(line)"
        )
        #expect(!log.contains("message_id") && !log.contains(LogMessageIDs.timerExpired), "\(log)")
    }
}

/// The journal MESSAGE_IDs restd documents (Sources/RestDaemon/Logging/LogMessageID.swift).
enum LogMessageIDs {
    static let timerExpired = "31539ef581fd4385a8910d77db46c94c"
    static let stateRecovered = "97b3b6b15a0345279aa2d762546f1e51"
}
