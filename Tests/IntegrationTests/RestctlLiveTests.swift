import DBusKit
import Foundation
import ProcessHarness
import RestClient
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `restctl live` and `restctl watch` against the real restd on a private bus.
///
/// Live fields are read back from the Fields property, which is the *throttled* broadcast:
/// the first update after a quiet interval is published at once, later ones at the end of
/// the interval, so checks after a stream wait for the PropertiesChanged that carries the
/// expected fields. Watchers run as child processes writing to a file that is polled while
/// waiting for a line; nothing here sleeps to assert timing.
@Suite("restctl live and watch", .serialized)
struct RestctlLiveTests {
    static let notRunning =
        "restd is not running on the session bus; start it: "
        + "run 'restd' (in another terminal, or as 'restd &')"

    // MARK: live

    @Test("live sends the options as one update; --end clears every field")
    func liveOptions() throws {
        let daemon = try RunningDaemon()
        let result = restctl(
            daemon.bus, "live", "--heart-rate", "142", "--done", "3", "--total", "5",
            "--exercise", "Bench press")
        #expect(
            result.status == 0 && result.stdout.isEmpty && result.stderr.isEmpty, "\(result)\n\(daemon.restd.log())")
        // The first update after a quiet interval is broadcast at once.
        #expect(
            try daemon.client.liveFields() == [
                "heart_rate": .int64(142), "progress_done": .int64(3), "progress_total": .int64(5),
                "exercise": .string("Bench press"),
            ])

        let end = restctl(daemon.bus, "live", "--end")
        #expect(end.status == 0 && end.stdout.isEmpty && end.stderr.isEmpty, "\(end)")
        // The end of an activity is published at once, outside the rate.
        #expect(try daemon.client.liveFields() == [:])
    }

    @Test("--set types custom values; options and --set go in the same update")
    func liveSet() throws {
        let daemon = try RunningDaemon()
        let result = restctl(
            daemon.bus, "live", "--workout", "Push", "--set", "x_zone=3", "--set", "x_note=easy going",
            "--set", "x_fast=true", "--set", "x_speed=2.5", "--set", #"x_code="42""#)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)\n\(daemon.restd.log())")
        #expect(
            try daemon.client.liveFields() == [
                "workout": .string("Push"), "x_zone": .int64(3), "x_note": .string("easy going"),
                "x_fast": .boolean(true),
                "x_speed": .double(2.5), "x_code": .string("42"),
            ])
    }

    @Test("a value or a key restd would refuse is a usage error (64) with restd's sentence")
    func liveRefused() throws {
        let daemon = try RunningDaemon()
        let result = restctl(daemon.bus, "live", "--heart-rate", "300", "--exercise", "Squat")
        #expect(result.status == 64 && result.stdout.isEmpty, "\(result)")
        #expect(result.stderr == "restctl: heart_rate 300 is out of range: give 20 to 250 bpm\n", "\(result)")
        let unknown = restctl(daemon.bus, "live", "--set", "mood=3")
        #expect(unknown.status == 64, "\(unknown)")
        #expect(unknown.stderr.hasPrefix("restctl: unknown key 'mood'; use heart_rate, "), "\(unknown)")
        #expect(try daemon.client.liveFields() == [:])
    }

    @Test("--stdin: good lines applied, bad ones reported with their number and skipped, exit 1")
    func liveStdin() throws {
        let daemon = try RunningDaemon()
        let watcher = try SignalWatcher(
            bus: daemon.bus, rules: ["type='signal',sender='io.restd.Rest1',path='/io/restd/Rest1/live'"])
        let input = """
            heart_rate=120 progress_done=1 progress_total=4

            # the next set
            {"heart_rate":142,"exercise":"Bench press","x_rpe":8.5}
            heart_rate=300
            progress_done=2 exercise="Bench press (paused)"
            {"heart_rate":[1]}
            heart_rate=fast
            x_done=true

            """
        let result = restctl(daemon.bus, ["live", "--stdin"], stdin: input)
        #expect(result.status == 1 && result.stdout.isEmpty, "\(result)\n\(daemon.restd.log())")
        #expect(
            result.stderr == """
                restctl: line 5: heart_rate 300 is out of range: give 20 to 250 bpm
                restctl: line 7: JSON: heart_rate is an array; values are strings, numbers, true or false
                restctl: line 8: heart_rate "fast" is not an integer
                restctl: skipped 3 of 7 updates

                """, "\(result)")
        let expected: [String: DBusValue] = [
            "heart_rate": .int64(142), "progress_done": .int64(2), "progress_total": .int64(4),
            "exercise": .string("Bench press (paused)"), "x_rpe": .double(8.5), "x_done": .boolean(true),
        ]
        try watcher.waitFor(timeout: 30, "Fields with every good line") { message in
            message.member == "PropertiesChanged" && message.changedProperties["Fields"]?.vardictEntries == expected
        }
        #expect(try daemon.client.liveFields() == expected)
    }

    @Test("--stdin with every line good (or blank) exits 0 quietly")
    func liveStdinClean() throws {
        let daemon = try RunningDaemon()
        let result = restctl(
            daemon.bus, ["live", "--stdin"], stdin: "# warm-up\n\nheart_rate=100\n{\"heart_rate\":101}")
        #expect(result.status == 0 && result.stdout.isEmpty && result.stderr.isEmpty, "\(result)")
        let empty = restctl(daemon.bus, ["live", "--stdin"], stdin: "")
        #expect(empty.status == 0 && empty.stderr.isEmpty, "\(empty)")
    }

    @Test("--stdin: restd going away mid-stream ends it with 69 and the line it happened at")
    func liveStdinDaemonGone() throws {
        let daemon = try RunningDaemon()
        let producer = try LiveStdinProducer(bus: daemon.bus)
        defer { producer.child.killAndReap() }
        let errors = producer.errors
        let refused = try producer.sendTwoLinesAndWaitForTheRefusal()
        let names = try SignalWatcher(
            bus: daemon.bus,
            rules: [
                "type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='io.restd.Rest1'"
            ])
        daemon.restd.kill9()
        // A precondition, not a timing check: the bus has seen restd go.
        try names.waitFor(timeout: 30, "restd's name released") { $0.arguments().dropFirst(2).first?.string == "" }
        producer.send("heart_rate=101\nheart_rate=102\n")
        producer.closeInput()
        let termination = producer.child.wait(timeout: 30)
        #expect(termination == .exited(69), "\(String(describing: termination)): \(readAll(errors))")
        #expect(readAll(errors) == refused + "restctl: line 3: \(Self.notRunning)\n")
    }

    @Test("--stdin: the bus dying while waiting for input, then the input ending: 69 with the sentence, not 0")
    func liveStdinBusGoneWhileIdle() throws {
        let daemon = try RunningDaemon()
        let producer = try LiveStdinProducer(bus: daemon.bus)
        defer { producer.child.killAndReap() }
        let errors = producer.errors
        let refused = try producer.sendTwoLinesAndWaitForTheRefusal()
        daemon.bus.kill()
        producer.closeInput()
        let termination = producer.child.wait(timeout: 30)
        #expect(termination == .exited(69), "\(String(describing: termination)): \(readAll(errors))")
        let said = readAll(errors).dropFirst(refused.count)
        #expect(said.hasPrefix("restctl: after line 2: the D-Bus session bus went away ("), "\(readAll(errors))")
        #expect(
            said.hasSuffix("), and restd with it: the session ended or the bus was stopped\n"), "\(readAll(errors))")
    }

    @Test("--stdin: restd restarted while waiting for input: the fields sent are gone with it, 69")
    func liveStdinDaemonRestartedWhileIdle() throws {
        let daemon = try RunningDaemon()
        let producer = try LiveStdinProducer(bus: daemon.bus)
        defer { producer.child.killAndReap() }
        let errors = producer.errors
        let refused = try producer.sendTwoLinesAndWaitForTheRefusal()
        try daemon.crashAndRestart()
        producer.closeInput()
        let termination = producer.child.wait(timeout: 30)
        #expect(termination == .exited(69), "\(String(describing: termination)): \(readAll(errors))")
        #expect(
            readAll(errors) == refused + "restctl: after line 2: restd stopped, and the live fields sent went with it; "
                + "send them again once it runs: run 'restd' (in another terminal, or as 'restd &')\n",
            "\(readAll(errors))")
    }

    @Test(
        "argument problems exit 64 before anything reaches the bus",
        arguments: [
            (
                ["live"],
                "restctl: give at least one field (--heart-rate, --done, --total, --exercise, --workout, --set KEY=VALUE), --end or --stdin.\nUsage: restctl live "
            ),
            (
                ["live", "--end", "--heart-rate", "100"],
                "restctl: --end clears every field; give no fields with it\nUsage: "
            ),
            (
                ["live", "--stdin", "--exercise", "Squat"],
                "restctl: --stdin reads every update from standard input; give no fields or --end with it\nUsage: "
            ),
            (
                ["live", "--stdin", "--end"],
                "restctl: --stdin reads every update from standard input; give no fields or --end with it\nUsage: "
            ),
            (["live", "--set", "x_zone"], "restctl: \"x_zone\" is not key=value\n"),
            (["live", "--set", "heart_rate=fast"], "restctl: heart_rate \"fast\" is not an integer\n"),
            (["live", "--heart-rate", "100", "--set", "heart_rate=101"], "restctl: heart_rate is given twice\n"),
            (["live", "--heart-rate", "fast"], "restctl: --heart-rate \"fast\" is not a whole number\n"),
            (["watch", "--rate", "0"], "restctl: --rate 0 is out of range: give 0.01 to 20 updates per second\n"),
            (["watch", "--rate", "21"], "restctl: --rate 21 is out of range: give 0.01 to 20 updates per second\n"),
            (["watch", "--rate", "-1"], "restctl: --rate -1 is out of range: give 0.01 to 20 updates per second\n"),
            (
                ["watch", "--id", "a.b"],
                "restctl: timer id \"a.b\" is invalid: use 1 to 64 characters of A-Z, a-z, 0-9, _ and -\n"
            ),
        ])
    func usageErrors(args: [String], stderr: String) throws {
        // A value that cannot be used is one sentence; a command of the wrong shape adds the usage lines.
        let bus = try TestBus()
        let result = restctl(bus, args)
        #expect(result.status == 64 && result.stdout.isEmpty, "\(result)")
        #expect(stderr.hasSuffix("\n") ? result.stderr == stderr : result.stderr.hasPrefix(stderr), "\(result)")
    }

    @Test("help: live's usage line, watch's whole help")
    func help() throws {
        let bus = try TestBus()
        let live = restctl(bus, ["live", "--help"], environment: ["COLUMNS": "80"])
        #expect(live.status == 0, "\(live)")
        #expect(
            live.stdout.contains(
                "USAGE: restctl live [--heart-rate <bpm>] [--done <n>] [--total <n>] "
                    + "[--exercise <text>] [--workout <text>] [--set <key=value> ...] [--end] [--stdin]\n"), "\(live)")
        let watch = restctl(bus, ["watch", "--help"], environment: ["COLUMNS": "80"])
        #expect(watch.status == 0 && watch.stderr.isEmpty, "\(watch)")
        #expect(
            watch.stdout == """
                OVERVIEW: Print the timer and live fields as they change.

                One line per change, and once a second while the timer runs or is over (on the
                second of its end); nothing wakes it while the timer is paused or there is
                none. In a terminal, the text format redraws one line in place instead.

                text: the timer's line, or idle when there is no such timer, then " | " and the
                live fields (heart_rate=142 progress=3/5 exercise="Bench press" …). json:
                {"timer":{…} or null,"live":{…}}. waybar: JSON for a custom module with
                return-type json (text, alt, tooltip, class running, paused, expired or idle,
                percentage of the rest gone by). polybar, i3blocks: the bar's text (1:23 Squat
                → Bench press ♥142 3/5, paused 1:02, +0:12 once over, idle). i3status-rs: JSON
                for a custom block with json = true (icon, state, text, short_text).

                restd may stop and start meanwhile: the watch shows idle and goes on. It ends
                quietly when its output is closed, and with status 69 when the bus goes away.

                USAGE: restctl watch [--id <id>] [--format <format>] [--json] [--rate <hz>]

                OPTIONS:
                  --id <id>               The timer to act on. (default: default)
                  --format <format>       How to write each line, text by default. (values:
                                          text, json, waybar, polybar, i3blocks, i3status-rs)
                  --json                  The same as --format json.
                  --rate <hz>             The most live-field updates per second. (default: 2)
                  -h, --help              Show help information.


                """, "\(watch)")
    }

    @Test("live without restd: the usual sentence, exit 69")
    func liveNoDaemon() throws {
        let bus = try TestBus()
        let result = restctl(bus, "live", "--heart-rate", "100")
        #expect(result.status == 69 && result.stderr == "restctl: \(Self.notRunning)\n", "\(result)")
        let stream = restctl(bus, ["live", "--stdin"], stdin: "# nothing yet\nheart_rate=100\n")
        #expect(stream.status == 69 && stream.stderr == "restctl: line 2: \(Self.notRunning)\n", "\(stream)")
    }

    // MARK: watch

    @Test("watch prints a line per change: timer, live fields, both, idle again")
    func watchText() throws {
        let daemon = try RunningDaemon()
        let watch = try WatchProcess(bus: daemon.bus)
        defer { watch.stop() }
        try watch.waitForLine { $0 == "idle" }

        #expect(restctl(daemon.bus, "start", "90", "--label", "Squat", "--next", "Bench press").succeeded)
        try watch.waitForLine { matches($0, #"default  running  1:(30|2\d)  Squat · Next: Bench press"#) }
        #expect(restctl(daemon.bus, "pause").succeeded)
        try watch.waitForLine { matches($0, #"default  paused   1:(30|2\d)  Squat · Next: Bench press"#) }
        let paused = try #require(watch.lines.last)

        #expect(
            restctl(
                daemon.bus, "live", "--heart-rate", "142", "--done", "3", "--total", "5",
                "--exercise", "Bench press", "--set", "x_zone=3"
            ).succeeded)
        try watch.waitForLine { $0 == paused + #" | heart_rate=142 progress=3/5 exercise="Bench press" x_zone=3"# }

        #expect(restctl(daemon.bus, "cancel").succeeded)
        try watch.waitForLine { $0 == #"idle | heart_rate=142 progress=3/5 exercise="Bench press" x_zone=3"# }
        #expect(restctl(daemon.bus, "live", "--end").succeeded)
        try watch.waitForLine { $0 == "idle" }

        // A line is printed only when it differs from the one before.
        let lines = watch.lines
        #expect(zip(lines, lines.dropFirst()).allSatisfy { $0 != $1 }, "\(lines)")
        #expect(watch.errors().isEmpty, "\(watch.errors())")
    }

    @Test("watch --json: one object per line, timer null when there is none")
    func watchJSON() throws {
        let daemon = try RunningDaemon()
        let watch = try WatchProcess(bus: daemon.bus, arguments: ["--json", "--rate", "20"])
        defer { watch.stop() }
        try watch.waitForLine { $0 == #"{"timer":null,"live":{}}"# }
        #expect(restctl(daemon.bus, "live", "--heart-rate", "120", "--workout", "Legs").succeeded)
        try watch.waitForLine { $0 == #"{"timer":null,"live":{"heart_rate":120,"workout":"Legs"}}"# }
        #expect(restctl(daemon.bus, "start", "1:00", "--label", "Lunge").succeeded)
        let line = try watch.waitForLine {
            $0.hasPrefix(#"{"timer":{"id":"default","state":"running","label":"Lunge","#)
        }
        #expect(
            line.hasSuffix(
                #""expired_at":null,"rest_source":null,"until_recovered":false,"end_reason":null,"recovered_bpm":null,"sound":true,"ringing":false},"live":{"heart_rate":120,"workout":"Legs"}}"#
            ),
            "\(line)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        let timer = try #require(object["timer"] as? [String: Any])
        #expect(timer["duration_usec"] as? Int == 60_000_000)
    }

    @Test("watch --json: a rest ended by sub is shown expired with the duration it ended with")
    func watchJSONEndedBySub() throws {
        let daemon = try RunningDaemon()
        let watch = try WatchProcess(bus: daemon.bus, arguments: ["--json"])
        defer { watch.stop() }
        #expect(restctl(daemon.bus, "start", "1:00", "--label", "Row").succeeded)
        _ = try watch.waitForLine { $0.contains(#""state":"running""#) }
        // Taken off whole: Expired and the timer's PropertiesChanged (State and duration) leave
        // in one wake-up, Expired first; the watch must not show the expiry with the old duration.
        #expect(restctl(daemon.bus, "sub", "1:00").succeeded)
        let expired = try watch.waitForLine { $0.contains(#""state":"expired""#) }
        let status = restctl(daemon.bus, "status", "--json")
        let duration = { (json: String) -> Int? in
            let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
            return ((object?["timer"] as? [String: Any]) ?? object)?["duration_usec"] as? Int
        }
        let ended = try #require(duration(status.stdout), "\(status.stdout)")
        #expect(ended != 60_000_000)
        #expect(duration(expired) == ended, "\(watch.lines)")
    }

    @Test("watch started while there are a timer and fields shows both on its first line")
    func watchFirstLine() throws {
        let daemon = try RunningDaemon()
        #expect(restctl(daemon.bus, "start", "90", "--label", "Dips").succeeded)
        #expect(restctl(daemon.bus, "pause").succeeded)
        #expect(restctl(daemon.bus, "live", "--heart-rate", "125", "--set", "x_rpe=7.5").succeeded)
        let watch = try WatchProcess(bus: daemon.bus)
        defer { watch.stop() }
        let first = try watch.waitForLine { _ in true }
        #expect(matches(first, #"default  paused   1:(30|2\d)  Dips \| heart_rate=125 x_rpe=7.5"#), "\(watch.lines)")
    }

    @Test("watch --id follows that timer only, through expiry")
    func watchID() throws {
        let daemon = try RunningDaemon()
        #expect(restctl(daemon.bus, "start", "90").succeeded)
        let watch = try WatchProcess(bus: daemon.bus, arguments: ["--id", "quick"])
        defer { watch.stop() }
        try watch.waitForLine { $0 == "idle" }
        #expect(restctl(daemon.bus, "start", "3", "--id", "quick", "--label", "Jump").succeeded)
        try watch.waitForLine { matches($0, #"quick  running  0:0[0-3]  Jump"#) }
        // A rest that ran out rings until it is silenced or `ring_for` runs out.
        try watch.waitForLine { matches($0, #"quick  expired  0:00 \(\+0:0\d\)  ringing  Jump"#) }
        #expect(restctl(daemon.bus, "cancel").succeeded)  // the default timer: nothing to print
        #expect(restctl(daemon.bus, "add", "30", "--id", "quick").succeeded)
        try watch.waitForLine { matches($0, #"quick  running  0:(30|2\d)  Jump"#) }
        #expect(!watch.lines.contains { $0.hasPrefix("default") }, "\(watch.lines)")
    }

    @Test("watch goes on through a restd restart: idle while it is gone, then the timer again")
    func watchRestart() throws {
        let daemon = try RunningDaemon()
        #expect(restctl(daemon.bus, "start", "2m", "--label", "Plank").succeeded)
        #expect(restctl(daemon.bus, "pause").succeeded)
        let watch = try WatchProcess(bus: daemon.bus)
        defer { watch.stop() }
        let paused = try watch.waitForLine { matches($0, #"default  paused   [12]:\d\d  Plank"#) }
        #expect(restctl(daemon.bus, "live", "--heart-rate", "130").succeeded)
        try watch.waitForLine { $0 == paused + " | heart_rate=130" }

        daemon.restd.kill9()
        try watch.waitForLine { $0 == "idle" }
        try daemon.crashAndRestart()
        // The timer comes back from restd's store; live fields are not kept.
        try watch.waitForLine { $0 == paused }
        #expect(restctl(daemon.bus, "live", "--heart-rate", "131").succeeded)
        try watch.waitForLine { $0 == paused + " | heart_rate=131" }
        #expect(watch.isRunning)
    }

    @Test("watch started before restd waits for it")
    func watchBeforeDaemon() throws {
        let setup = try RestdSetup()
        let bus = setup.bus
        let watch = try WatchProcess(bus: bus)
        defer { watch.stop() }
        try watch.waitForLine { $0 == "idle" }
        let daemon = try setup.start()
        #expect(restctl(bus, "start", "90", "--label", "Row").succeeded, "\(daemon.log())")
        try watch.waitForLine { matches($0, #"default  running  1:(30|2\d)  Row"#) }
        #expect(watch.errors().isEmpty, "\(watch.errors())")
    }

    @Test("watch in a terminal: the text line redrawn in place, not a new line a second; a newline at Ctrl-C")
    func watchTerminal() throws {
        let daemon = try RunningDaemon()
        #expect(restctl(daemon.bus, "start", "1:30", "--label", "Squat").succeeded, "\(daemon.restd.log())")
        let directory = try TempDirectory(prefix: "restctl-tty")
        let pidFile = directory.path("pid")
        let outputPath = directory.path("out")
        let output = try openLogFile(outputPath)
        defer { close(output) }
        let command = "echo $$ > \(pidFile); exec \(try BuildProducts.executable("restctl")) watch"
        let script = try ChildProcess(
            executable: "/usr/bin/script", arguments: ["-qefc", command, "/dev/null"],
            environment: ChildEnvironment.make([
                "DBUS_SESSION_BUS_ADDRESS": daemon.bus.address,
                "SHELL": "/bin/sh",
            ]),
            stdout: output)
        defer { script.killAndReap() }
        func drawn() -> String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
        // Waiting for two frames (the timer counts once a second): a precondition, not a timing check.
        try waitUntil(
            "two frames drawn", interval: 0.01, givingUpIf: { script.termination.map { "script \($0)" } },
            details: { "drawn: \(drawn().debugDescription)" }
        ) {
            drawn().components(separatedBy: "\u{1B}[K").count >= 3
        }
        let pid = try #require(
            Int32(
                (try? String(contentsOfFile: pidFile, encoding: .utf8))?
                    .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""), "\(drawn().debugDescription)")
        #expect(kill(pid, SIGINT) == 0)
        let termination = script.wait(timeout: 30)
        #expect(termination == .exited(128 + SIGINT), "\(String(describing: termination))")
        let text = drawn()
        let frames = text.matches(of: #/\rdefault  running  1:[0-3]\d  Squat\x{1B}\[K/#)
        #expect(frames.count >= 2, "\(text.debugDescription)")
        // Every frame on the same line: no newline until the one written at the end.
        #expect(
            text.hasSuffix("\u{1B}[K\r\n") && text.dropLast(2).allSatisfy { $0 != "\n" && $0 != "\r\n" },
            "\(text.debugDescription)")
    }

    @Test("watch ends quietly, status 0, when its output is closed")
    func watchClosedOutput() throws {
        let daemon = try RunningDaemon()
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        let errors = try anonymousFile()
        let child = try ChildProcess(
            executable: try BuildProducts.executable("restctl"), arguments: ["watch"],
            environment: ChildEnvironment.make(["DBUS_SESSION_BUS_ADDRESS": daemon.bus.address]),
            stdout: fds[1], stderr: errors.fileDescriptor)
        close(fds[1])
        defer { child.killAndReap() }
        var endOfFile = false
        #expect(readLine(from: fds[0], timeout: 30, endOfFile: &endOfFile) == "idle")
        close(fds[0])
        #expect(restctl(daemon.bus, "live", "--heart-rate", "100").succeeded)
        let termination = child.wait(timeout: 30)
        #expect(termination == .exited(0), "\(String(describing: termination))")
        #expect(readAll(errors).isEmpty, "\(readAll(errors))")
    }

    @Test("watch ends with status 69 when the bus goes away")
    func watchBusGone() throws {
        let daemon = try RunningDaemon()
        let watch = try WatchProcess(bus: daemon.bus)
        defer { watch.stop() }
        try watch.waitForLine { $0 == "idle" }
        daemon.bus.kill()
        let termination = watch.child.wait(timeout: 30)
        #expect(termination == .exited(69), "\(String(describing: termination))")
        #expect(watch.errors().hasPrefix("restctl: the D-Bus session bus went away ("), "\(watch.errors())")
    }

    @Test("watch without a bus: the usual sentence, exit 69")
    func watchNoBus() throws {
        let dir = try TempDirectory(prefix: "restctl-nobus")
        let result = Command.run(
            [try BuildProducts.executable("restctl"), "watch"],
            environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(dir.path("missing"))"])
        #expect(result.status == 69 && result.stdout.isEmpty, "\(result)")
        #expect(result.stderr.hasPrefix("restctl: cannot reach the D-Bus session bus ("), "\(result)")
    }
}

/// `text` matches `pattern` as a whole.
/// `restctl live --stdin` fed through a pipe, its stderr in a file: the three tests of restd or
/// the bus going away while it reads.
private final class LiveStdinProducer {
    let child: ChildProcess
    let errors: FileHandle
    private let input: Int32

    init(bus: TestBus) throws {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw HarnessError.failed("pipe(2) failed") }
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        errors = try anonymousFile()
        child = try ChildProcess(
            executable: try BuildProducts.executable("restctl"), arguments: ["live", "--stdin"],
            environment: ChildEnvironment.make(["DBUS_SESSION_BUS_ADDRESS": bus.address]),
            stdin: fds[0], stderr: errors.fileDescriptor)
        close(fds[0])
        input = fds[1]
    }

    func send(_ lines: String) {
        _ = lines.utf8CString.withUnsafeBufferPointer { write(input, $0.baseAddress, $0.count - 1) }
    }

    func closeInput() { close(input) }

    /// Sends a good line and a refused one, and waits for the refusal: the sign that restctl is
    /// through with the lines before it (a precondition). Returns the refusal's text.
    func sendTwoLinesAndWaitForTheRefusal() throws -> String {
        send("heart_rate=100\nheart_rate=300\n")
        let refused = "restctl: line 2: heart_rate 300 is out of range: give 20 to 250 bpm\n"
        try waitUntil(
            "restctl to refuse line 2", interval: 0.005,
            givingUpIf: { self.child.termination.map { "restctl \($0)" } },
            details: { "its stderr:\n\(readAll(self.errors))" }
        ) { readAll(self.errors) == refused }
        return refused
    }
}

private func matches(_ text: String, _ pattern: String) -> Bool {
    guard let regex = try? Regex(pattern) else { return false }
    return text.wholeMatch(of: regex) != nil
}
