import Foundation
import ProcessHarness
import RestClient
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `restctl watch --format` for status bars, against the real restd on a private bus.
///
/// Exact lines are compared where time stands still: a paused timer, no timer. A running timer
/// is checked to tick down one second per line and an expired one to tick up, each line whole,
/// without depending on how many ticks a slow machine shows.
@Suite("restctl for status bars", .serialized, .tags(.calendar))
struct RestctlBarTests {
    static let squat = "Squat → Bench press"

    // MARK: watch --format

    @Test(
        "a scripted timer line by line: idle, start, pause, add, live, resume, expire, cancel",
        arguments: ["waybar", "polybar", "i3blocks", "i3status-rs"])
    func scripted(format: String) throws {
        let daemon = try RunningDaemon()
        let watch = try WatchProcess(bus: daemon.bus, arguments: ["--format", format])
        defer { watch.stop() }
        let bar = Bar(format: format)
        try watch.waitForLine { $0 == bar.idle() }

        #expect(restctl(daemon.bus, "start", "90", "--label", "Squat", "--next", "Bench press").succeeded)
        try watch.waitForLine { bar.runningSeconds($0) != nil }

        #expect(restctl(daemon.bus, "pause").succeeded)
        var left = try remainingUSec(daemon)
        try watch.waitForLine { $0 == bar.paused(leftUSec: left, durationUSec: 90_000_000) }

        #expect(restctl(daemon.bus, "add", "30").succeeded)
        left += 30_000_000
        try watch.waitForLine { $0 == bar.paused(leftUSec: left, durationUSec: 120_000_000) }

        #expect(restctl(daemon.bus, "live", "--done", "3", "--total", "5").succeeded)
        try watch.waitForLine { $0 == bar.paused(leftUSec: left, durationUSec: 120_000_000, progress: true) }

        // Running: whole lines, one second apart, counting down.
        #expect(restctl(daemon.bus, "resume").succeeded)
        var shown: [Int] = []
        while shown.count < 3 {
            let line = try watch.waitForLine { bar.runningSeconds($0) != nil }
            let seconds = try #require(bar.runningSeconds(line))
            #expect(line == bar.running(seconds: seconds, durationSeconds: 120, progress: true))
            shown.append(seconds)
        }
        // Counting down (a second apart, unless the machine stalled restctl for longer).
        #expect(zip(shown, shown.dropFirst()).allSatisfy { $0 > $1 }, "\(watch.lines)")

        // Over: the overtime ticks up, in the expired class.
        #expect(restctl(daemon.bus, "sub", "5m").succeeded)
        var overtime: [Int] = []
        while overtime.count < 2 {
            let line = try watch.waitForLine { bar.overtimeSeconds($0) != nil }
            let seconds = try #require(bar.overtimeSeconds(line))
            #expect(line == bar.expired(overtime: seconds, progress: true))
            overtime.append(seconds)
        }
        #expect(overtime[1] > overtime[0], "\(watch.lines)")

        #expect(restctl(daemon.bus, "cancel").succeeded)
        try watch.waitForLine { $0 == bar.idle(progress: true) }
        #expect(restctl(daemon.bus, "live", "--heart-rate", "142").succeeded)
        try watch.waitForLine { $0 == bar.idle(heartRate: true, progress: true) }
        #expect(restctl(daemon.bus, "live", "--end").succeeded)
        try watch.waitForLine { $0 == bar.idle() }

        let lines = watch.lines
        #expect(zip(lines, lines.dropFirst()).allSatisfy { $0 != $1 }, "\(lines)")
        #expect(watch.errors().isEmpty, "\(watch.errors())")
    }

    @Test("the status-bar guide's table of bar texts is what a bar shows, state by state, live fields included")
    func guideTable() throws {
        let guide = try String(
            contentsOf: URL(fileURLWithPath: #filePath)
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("docs/status-bars.md"), encoding: .utf8)
        // The rows of the table under "| state | text |": each state and the texts shown for it.
        let table = try #require(guide.components(separatedBy: "| state | text |\n").dropFirst().first)
        var texts: [String: [String]] = [:]
        for row in table.split(separator: "\n").dropFirst().prefix(while: { $0.hasPrefix("|") }) {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            texts[cells[0]] = cells[1].matches(of: #/`([^`]+)`/#).map { String($0.output.1) }
        }
        #expect(Set(texts.keys) == ["running", "paused", "over", "no timer"], "\(texts)")
        // A text as a pattern: any time where the guide shows one.
        func pattern(_ text: String) -> Regex<Substring> {
            let escaped = text.map { "\\^$.|?*+()[]{}".contains($0) ? "\\\($0)" : String($0) }.joined()
            return try! Regex(escaped.replacing(#/\d+:\d\d/#, with: #"\d+:\d\d"#))
        }
        let daemon = try RunningDaemon()
        let watch = try WatchProcess(bus: daemon.bus, arguments: ["--format", "polybar"])
        defer { watch.stop() }
        func shows(_ state: String, _ index: Int) throws {
            let text = try #require(texts[state]?.dropFirst(index).first, "no text \(index) for \(state) in \(texts)")
            try watch.waitForLine { $0.wholeMatch(of: pattern(text)) != nil }
        }
        try shows("no timer", 1)  // `idle`
        #expect(restctl(daemon.bus, "live", "--heart-rate", "142", "--done", "3", "--total", "5").succeeded)
        try shows("no timer", 0)  // `idle ♥142 3/5`
        #expect(restctl(daemon.bus, "start", "90", "--label", "Squat", "--next", "Bench press").succeeded)
        try shows("running", 0)
        #expect(restctl(daemon.bus, "pause").succeeded)
        try shows("paused", 0)
        #expect(restctl(daemon.bus, "sub", "5m").succeeded)
        try shows("over", 0)
    }

    @Test("restd going away shows idle and the watch goes on; the timer is back with restd")
    func daemonRestart() throws {
        let daemon = try RunningDaemon()
        #expect(restctl(daemon.bus, "start", "2m", "--label", "Squat", "--next", "Bench press").succeeded)
        #expect(restctl(daemon.bus, "pause").succeeded)
        let left = try remainingUSec(daemon)
        let bar = Bar(format: "waybar")
        let watch = try WatchProcess(bus: daemon.bus, arguments: ["--format", "waybar"])
        defer { watch.stop() }
        try watch.waitForLine { $0 == bar.paused(leftUSec: left, durationUSec: 120_000_000) }
        daemon.restd.kill9()
        try watch.waitForLine { $0 == bar.idle() }
        try daemon.crashAndRestart()
        try watch.waitForLine { $0 == bar.paused(leftUSec: left, durationUSec: 120_000_000) }
        #expect(watch.isRunning && watch.errors().isEmpty, "\(watch.errors())")
    }

    @Test("no wake-ups while idle or paused; a running timer wakes the watch, once a line")
    func noWakeUps() async throws {
        let daemon = try RunningDaemon()
        let watch = try WatchProcess(bus: daemon.bus, arguments: ["--format", "i3blocks"])
        defer { watch.stop() }
        try watch.waitForLine { $0 == "idle" }
        // Quiet windows long enough to see a once-a-second tick twice, were there one.
        let pid = watch.child.pid
        let idleWakeUps = try await ProcessActivity.wakeUps(pid, over: 2.5)
        #expect(idleWakeUps == 0, "restctl woke up \(idleWakeUps) times while idle")

        #expect(restctl(daemon.bus, "start", "90", "--label", "Squat").succeeded)
        #expect(restctl(daemon.bus, "pause").succeeded)
        try watch.waitForLine { $0.hasPrefix("paused ") }
        let pausedWakeUps = try await ProcessActivity.wakeUps(pid, over: 2.5)
        #expect(pausedWakeUps == 0, "restctl woke up \(pausedWakeUps) times while paused")

        // The same measure sees the ticks of a running timer (the second line below was
        // written after `before` was read, whatever was already there).
        #expect(restctl(daemon.bus, "resume").succeeded)
        try watch.waitForLine { !$0.hasPrefix("paused ") }
        let before = try ProcessActivity.contextSwitches(pid)
        try watch.waitForLine { _ in true }
        try watch.waitForLine { _ in true }
        #expect(try ProcessActivity.contextSwitches(pid) > before)
    }

    @Test("a bar closing its pipe ends the watch quietly, status 0")
    func closedPipe() throws {
        let daemon = try RunningDaemon()
        #expect(restctl(daemon.bus, "start", "90").succeeded)
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        let errors = try anonymousFile()
        let child = try ChildProcess(
            executable: try BuildProducts.executable("restctl"),
            arguments: ["watch", "--format", "i3status-rs"],
            environment: ChildEnvironment.make(["DBUS_SESSION_BUS_ADDRESS": daemon.bus.address]),
            stdout: fds[1], stderr: errors.fileDescriptor)
        close(fds[1])
        defer { child.killAndReap() }
        var endOfFile = false
        let first = readLine(from: fds[0], timeout: 30, endOfFile: &endOfFile)
        #expect(
            first?.hasPrefix(#"{"icon":"pomodoro_break","state":"Good","text":""#) == true,
            "\(String(describing: first))")
        close(fds[0])
        // The next tick finds nobody reading.
        let termination = child.wait(timeout: 30)
        #expect(termination == .exited(0), "\(String(describing: termination))")
        #expect(readAll(errors).isEmpty, "\(readAll(errors))")
    }

    @Test(
        "format problems exit 64 before anything reaches the bus",
        arguments: [
            (
                ["watch", "--json", "--format", "waybar"],
                "restctl: --json is --format json; give one format only\nUsage: restctl watch "
            ),
            (
                ["watch", "--format", "lemonbar"],
                "restctl: the value 'lemonbar' is invalid for '--format <format>'; "
                    + "give one of text, json, waybar, polybar, i3blocks, i3status-rs\n"
            ),
        ])
    func usageErrors(args: [String], stderrPrefix: String) throws {
        let bus = try TestBus()
        let result = restctl(bus, args)
        #expect(result.status == 64 && result.stdout.isEmpty, "\(result)")
        #expect(
            stderrPrefix.hasSuffix("\n") ? result.stderr == stderrPrefix : result.stderr.hasPrefix(stderrPrefix),
            "\(result)")
    }

    @Test("--json and --format json are the same")
    func jsonAlias() throws {
        let daemon = try RunningDaemon()
        for arguments in [["--json"], ["--format", "json"], ["--json", "--format", "json"]] {
            let watch = try WatchProcess(bus: daemon.bus, arguments: arguments)
            try watch.waitForLine { $0 == #"{"timer":null,"live":{}}"# }
            watch.stop()
        }
    }

    // MARK: Helpers

    /// `remaining_usec` of the default timer, from `status --json` (exact while paused).
    private func remainingUSec(_ daemon: RunningDaemon) throws -> UInt64 {
        let json = restctl(daemon.bus, "status", "--json")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json)")
        return UInt64(try #require(object["remaining_usec"] as? Int, "\(json)"))
    }
}

/// What each bar format must print for the timer of these tests (label Squat, next Bench
/// press), written out by hand from the formats docs/status-bars.md gives.
private struct Bar {
    let format: String

    func idle(heartRate: Bool = false, progress: Bool = false) -> String {
        line(
            time: "idle", kind: "idle", percentage: 0, status: "no rest timer", heartRate: heartRate, progress: progress
        )
    }

    func paused(leftUSec: UInt64, durationUSec: UInt64, progress: Bool = false) -> String {
        let seconds = (leftUSec + 999_999) / 1_000_000
        let percentage = Int((durationUSec - seconds * 1_000_000) * 100 / durationUSec)
        let left = TimeFormat.clock(seconds: seconds)
        let of = TimeFormat.clock(seconds: durationUSec / 1_000_000)
        return line(
            time: "paused " + left, kind: "paused", percentage: percentage,
            status: "paused, \(left) left of \(of)", progress: progress)
    }

    func running(seconds: Int, durationSeconds: Int, progress: Bool = false) -> String {
        let left = TimeFormat.clock(seconds: UInt64(seconds))
        return line(
            time: left, kind: "running", percentage: (durationSeconds - seconds) * 100 / durationSeconds,
            status: "\(left) left of \(TimeFormat.clock(seconds: UInt64(durationSeconds)))", progress: progress)
    }

    func expired(overtime: Int, progress: Bool = false) -> String {
        let over = TimeFormat.clock(seconds: UInt64(overtime))
        return line(time: "+" + over, kind: "expired", percentage: 100, status: "over \(over) ago", progress: progress)
    }

    /// The seconds left shown by a running line, nil for any other line.
    func runningSeconds(_ line: String) -> Int? {
        seconds(line, #"(?:^|"text":")(\d+):(\d\d) Squat"#)
    }

    /// The overtime shown by an expired line, nil for any other line.
    func overtimeSeconds(_ line: String) -> Int? {
        seconds(line, #"(?:^|"text":")\+(\d+):(\d\d) Squat"#)
    }

    private func seconds(_ line: String, _ pattern: String) -> Int? {
        guard let regex = try? Regex(pattern, as: (Substring, Substring, Substring).self),
            let match = line.firstMatch(of: regex),
            let minutes = Int(match.output.1), let seconds = Int(match.output.2)
        else { return nil }
        return minutes * 60 + seconds
    }

    private func line(
        time: String, kind: String, percentage: Int, status: String,
        heartRate: Bool = false, progress: Bool = false
    ) -> String {
        let text =
            time + (kind == "idle" ? "" : " " + RestctlBarTests.squat)
            + (heartRate ? " ♥142" : "") + (progress ? " 3/5" : "")
        var live: [String] = []
        if heartRate { live.append("♥142 bpm") }
        if progress { live.append("3 of 5 done") }
        switch format {
        case "waybar":
            let tooltip =
                (kind == "idle" ? "" : #"Squat · Next: Bench press\u000a"#) + status
                + (live.isEmpty ? "" : #"\u000a"# + live.joined(separator: " · "))
            return #"{"text":""# + text + #"","alt":""# + kind + #"","tooltip":""# + tooltip + #"","class":""# + kind
                + #"","percentage":"# + String(percentage) + "}"
        case "i3status-rs":
            let icon = [
                "running": "pomodoro_break", "paused": "pomodoro_paused", "expired": "bell", "idle": "pomodoro_stopped",
            ]
            let state = ["running": "Good", "paused": "Info", "expired": "Critical", "idle": "Idle"]
            return #"{"icon":""# + icon[kind]! + #"","state":""# + state[kind]! + #"","text":""# + text
                + #"","short_text":""# + time + #""}"#
        default:
            return text
        }
    }
}

/// `text` matches `pattern` as a whole.
private func matches(_ text: String, _ pattern: String) -> Bool {
    guard let regex = try? Regex(pattern) else { return false }
    return text.wholeMatch(of: regex) != nil
}
