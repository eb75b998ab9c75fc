import Foundation
import ProcessHarness
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `restctl toggle` and `restctl start --wait` against the real restd on a private bus.
@Suite("restctl toggle and start --wait", .serialized)
struct RestctlWaitTests {
    // MARK: toggle

    @Test("toggle: starts the default rest, pauses, resumes, restarts one that is over")
    func toggle() throws {
        let daemon = try RunningDaemon()
        let start = restctl(daemon.bus, "toggle")
        #expect(start.status == 0 && start.stderr.isEmpty, "\(start)\n\(daemon.restd.log())")
        #expect(matches(start.stdout, #"default  running  1:(30|2\d)\n"#), "\(start)")
        #expect(matches(restctl(daemon.bus, "toggle").stdout, #"default  paused   1:(30|2\d)\n"#))
        #expect(matches(restctl(daemon.bus, "toggle").stdout, #"default  running  1:(30|2\d)\n"#))
        #expect(restctl(daemon.bus, "add", "30").succeeded)
        #expect(restctl(daemon.bus, "sub", "5m").succeeded)
        // Restart runs the duration of the last start again, not the adjusted one.
        let again = restctl(daemon.bus, "toggle")
        #expect(matches(again.stdout, #"default  running  1:(30|2\d)\n"#), "\(again)")
        let other = restctl(daemon.bus, "toggle", "--id", "plank")
        #expect(matches(other.stdout, #"plank  running  1:(30|2\d)\n"#), "\(other)")
    }

    @Test("toggle without restd: the usual sentence, exit 69")
    func toggleNoDaemon() throws {
        let bus = try TestBus()
        let result = restctl(bus, "toggle")
        #expect(result.status == 69 && result.stdout.isEmpty, "\(result)")
        #expect(result.stderr.hasPrefix("restctl: restd is not running on the session bus;"), "\(result)")
    }

    // MARK: start --wait

    @Test("start --wait without a terminal: the start line, silence, exit 0 when the rest is over")
    func waitOver() throws {
        let daemon = try RunningDaemon()
        let wait = try WatchProcess(bus: daemon.bus, arguments: ["90", "--wait", "--label", "Squat"], command: "start")
        defer { wait.stop() }
        let first = try wait.waitForLine { _ in true }
        #expect(matches(first, #"default  running  1:(30|2\d)  Squat"#), "\(first)")
        // Paused, it waits on.
        #expect(restctl(daemon.bus, "pause").succeeded)
        #expect(restctl(daemon.bus, "resume").succeeded)
        #expect(wait.isRunning)
        #expect(restctl(daemon.bus, "sub", "90").succeeded)
        let termination = wait.child.wait(timeout: 30)
        #expect(termination == .exited(0), "\(String(describing: termination)): \(wait.errors())")
        // The test bus has no notification server: the start said so, once.
        #expect(wait.lines == [first] && wait.errors() == note, "\(wait.lines) \(wait.errors())")

        // A short rest, waited for to its end.
        let short = restctl(daemon.bus, "start", "1", "--wait", "--id", "quick")
        #expect(short.status == 0 && short.stderr.isEmpty, "\(short)")
        #expect(matches(short.stdout, #"quick  (running  0:0[01]|expired  0:00 \(\+0:0\d\))\n"#), "\(short)")
        #expect(restctl(daemon.bus, "status", "--id", "quick").stdout.hasPrefix("quick  expired  0:00 (+"))
    }

    @Test("start --wait: cancelled from another client, exit 1 with a sentence")
    func waitCancelled() throws {
        let daemon = try RunningDaemon()
        let wait = try WatchProcess(bus: daemon.bus, arguments: ["90", "--wait"], command: "start")
        defer { wait.stop() }
        try wait.waitForLine { _ in true }
        #expect(restctl(daemon.bus, "cancel").succeeded)
        let termination = wait.child.wait(timeout: 30)
        #expect(termination == .exited(1), "\(String(describing: termination))")
        #expect(
            wait.errors() == note + "restctl: timer \"default\" was cancelled before its rest was over\n",
            "\(wait.errors())")
    }

    @Test("start --wait: restd going away, exit 69")
    func waitDaemonGone() throws {
        let daemon = try RunningDaemon()
        let wait = try WatchProcess(bus: daemon.bus, arguments: ["90", "--wait"], command: "start")
        defer { wait.stop() }
        try wait.waitForLine { _ in true }
        daemon.restd.kill9()
        let termination = wait.child.wait(timeout: 30)
        #expect(termination == .exited(69), "\(String(describing: termination))")
        // What happened, that the timer is not lost, and the one command that brings restd back.
        #expect(
            wait.errors()
                == note + "restctl: restd stopped before the rest was over; the timer is kept, and restd takes it up "
                + "again when it starts: run 'restd' (in another terminal, or as 'restd &')\n", "\(wait.errors())")
    }

    @Test(
        "start --wait without a terminal: SIGTERM, SIGHUP and SIGINT end it with the note and the signal's status",
        arguments: [SIGTERM, SIGHUP, SIGINT])
    func waitSignalledWithoutTerminal(signalNumber: Int32) throws {
        let daemon = try RunningDaemon()
        let wait = try WatchProcess(bus: daemon.bus, arguments: ["90", "--wait"], command: "start")
        defer { wait.stop() }
        try wait.waitForLine { _ in true }
        #expect(kill(wait.child.pid, signalNumber) == 0)
        let termination = wait.child.wait(timeout: 30)
        #expect(termination?.status == -signalNumber, "\(String(describing: termination))")
        #expect(
            wait.errors() == note + "restctl: stopped waiting; the timer goes on ('restctl cancel' ends it)\n",
            "\(wait.errors())")
        #expect(restctl(daemon.bus, "status").stdout.hasPrefix("default  running  "))
    }

    // MARK: wait

    @Test("wait: silent until the rest is over, exit 0; at once for a timer already over")
    func waitForRunningTimer() throws {
        let daemon = try RunningDaemon()
        #expect(restctl(daemon.bus, "start", "90", "--id", "plank").succeeded, "\(daemon.restd.log())")
        let wait = try WatchProcess(bus: daemon.bus, arguments: ["--id", "plank"], command: "wait")
        defer { wait.stop() }
        #expect(restctl(daemon.bus, "pause", "--id", "plank").succeeded)
        #expect(restctl(daemon.bus, "resume", "--id", "plank").succeeded)
        #expect(restctl(daemon.bus, "sub", "90", "--id", "plank").succeeded)
        let termination = wait.child.wait(timeout: 30)
        #expect(termination == .exited(0), "\(String(describing: termination)): \(wait.errors())")
        #expect(wait.lines.isEmpty && wait.errors().isEmpty, "\(wait.lines) \(wait.errors())")

        let over = restctl(daemon.bus, "wait", "--id", "plank")
        #expect(over.status == 0 && over.stdout.isEmpty && over.stderr.isEmpty, "\(over)")
    }

    @Test("wait: no such timer, or cancelled meanwhile, exit 1 with a sentence")
    func waitRefused() throws {
        let daemon = try RunningDaemon()
        let missing = restctl(daemon.bus, "wait", "--id", "nope")
        #expect(missing.status == 1 && missing.stderr == "restctl: no timer \"nope\"\n", "\(missing)")
        #expect(restctl(daemon.bus, "start", "90").succeeded)
        let wait = try WatchProcess(bus: daemon.bus, command: "wait")
        defer { wait.stop() }
        #expect(restctl(daemon.bus, "cancel").succeeded)
        let termination = wait.child.wait(timeout: 30)
        #expect(termination == .exited(1), "\(String(describing: termination))")
        // Depending on whether the wait had read the timer before the cancel (nothing here can
        // tell: it prints nothing), it was cancelled under it, or it was already gone.
        #expect(
            ["restctl: timer \"default\" was cancelled before its rest was over\n", "restctl: no timer \"default\"\n"]
                .contains(wait.errors()), "\(wait.errors())")
    }

    @Test("start --wait in a terminal: a countdown redrawn in place, erased at the end, then the timer's line")
    func waitTerminal() throws {
        let daemon = try RunningDaemon()
        let restctlPath = try BuildProducts.executable("restctl")
        // script(1) gives restctl a pseudo-terminal (80 columns: it has no size of its own).
        let result = Command.run(
            ["script", "-qefc", "\(restctlPath) start 4 --wait --label Squat", "/dev/null"],
            environment: ["DBUS_SESSION_BUS_ADDRESS": daemon.bus.address, "SHELL": "/bin/sh"])
        #expect(result.status == 0, "\(result)")
        let erase = "\u{1B}[K"
        // Each frame's bar is the part of the rest gone when it was drawn: with s seconds shown
        // (rounded up), 4 − s to 5 − s of the 4 s, so 5·(4 − s) to 5·(5 − s) − 1 full cells of 20.
        // Frames come once a second (a machine that stalls restctl may skip one).
        let frames = result.stdout.matches(of: #/\r0:0([1-3]) \[([█▏▎▍▌▋▊▉ ]{20})\] Squat\x{1B}\[K/#)
        #expect(!frames.isEmpty, "\(result.stdout.debugDescription)")
        for frame in frames {
            let shown = Int(frame.output.1)!
            let full = frame.output.2.filter { $0 == "█" }.count
            #expect((5 * (4 - shown)...(5 * (5 - shown) - 1)).contains(full), "\(frame.output.0.debugDescription)")
        }
        // The note that the test bus has no notification server comes before the countdown.
        #expect(
            result.stdout.hasPrefix(note.replacing("\n", with: "\r\n") + "\r0:0"), "\(result.stdout.debugDescription)")
        let end = try #require(
            result.stdout.range(of: "\r" + erase + "default  expired  0:00 (+"),
            "\(result.stdout.debugDescription)")
        // The test bus has no sound server: the alarm "rings" unheard, so the terminal's bell does.
        #expect(
            matches(String(result.stdout[end.upperBound...]), #"0:0\d\)  ringing  Squat\r\n\x{07}"#),
            "\(result.stdout.debugDescription)")
    }

    @Test("start --wait --no-sound: one bell at the end in a terminal, none without one")
    func waitBell() throws {
        let daemon = try RunningDaemon()
        let restctlPath = try BuildProducts.executable("restctl")
        let inTerminal = Command.run(
            ["script", "-qefc", "\(restctlPath) start 1 --wait --no-sound --label Squat", "/dev/null"],
            environment: ["DBUS_SESSION_BUS_ADDRESS": daemon.bus.address, "SHELL": "/bin/sh"])
        #expect(inTerminal.status == 0, "\(inTerminal)")
        #expect(
            inTerminal.stdout.filter { $0 == "\u{7}" }.count == 1 && inTerminal.stdout.hasSuffix("  Squat\r\n\u{7}"),
            "\(inTerminal.stdout.debugDescription)")

        let piped = restctl(daemon.bus, "start", "1", "--wait", "--no-sound", "--label", "Squat")
        #expect(piped.status == 0, "\(piped)")
        #expect(
            matches(piped.stdout, #"default  (running  0:0[01]|expired  0:00 \(\+0:0\d\))  Squat\n"#),
            "\(piped.stdout.debugDescription)")
    }

    @Test("start --wait in a terminal, Ctrl-C: the countdown erased, a note, killed by SIGINT; the timer runs on")
    func waitInterrupted() throws {
        let daemon = try RunningDaemon()
        let directory = try TempDirectory(prefix: "restctl-tty")
        let pidFile = directory.path("pid")
        let output = try openLogFile(directory.path("out"))
        defer { close(output) }
        let restctlPath = try BuildProducts.executable("restctl")
        // restctl's own pid, for the signal the terminal would send it.
        let command = "echo $$ > \(pidFile); exec \(restctlPath) start 90 --wait --label Squat"
        let script = try ChildProcess(
            executable: "/usr/bin/script", arguments: ["-qefc", command, "/dev/null"],
            environment: ChildEnvironment.make([
                "DBUS_SESSION_BUS_ADDRESS": daemon.bus.address,
                "SHELL": "/bin/sh",
            ]),
            stdout: output)
        defer { script.killAndReap() }
        let outputPath = directory.path("out")
        func drawn() -> String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
        // Waiting for the first frame: a precondition, not a timing check.
        try waitUntil(
            "the first frame drawn", interval: 0.01, givingUpIf: { script.termination.map { "script \($0)" } },
            details: { "drawn: \(drawn().debugDescription)" }
        ) { drawn().contains("\u{1B}[K") }
        let pid = try #require(
            Int32(
                (try? String(contentsOfFile: pidFile, encoding: .utf8))?
                    .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""), "\(drawn().debugDescription)")
        #expect(kill(pid, SIGINT) == 0)
        let termination = script.wait(timeout: 30)
        #expect(termination == .exited(128 + SIGINT), "\(String(describing: termination))")
        #expect(
            drawn().hasSuffix("\r\u{1B}[Krestctl: stopped waiting; the timer goes on ('restctl cancel' ends it)\r\n"),
            "\(drawn().debugDescription)")
        #expect(restctl(daemon.bus, "status").stdout.hasPrefix("default  running  "))
    }
}

/// What restctl start says when the bus has no notification server (the test buses have none).
private let note = NotificationServerTests.note

/// `text` matches `pattern` as a whole.
private func matches(_ text: String, _ pattern: String) -> Bool {
    guard let regex = try? Regex(pattern) else { return false }
    return text.wholeMatch(of: regex) != nil
}
