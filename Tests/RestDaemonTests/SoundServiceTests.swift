import Clocks
import EventLoop
import Foundation
import Glibc
import Logging
import ProcessHarness
import RestProtocol
import SoundKit
import Testing

@testable import RestDaemon

/// restd's sound engine against real sound servers (PipeWire with WirePlumber and pipewire-pulse,
/// and PulseAudio), each private to its test, with what the null sink played recorded and
/// measured: cues and the alarm are heard, the alarm stops at once, a server that goes away or
/// is not there, or a file that cannot be read, harms nothing. They wait for real sound to play,
/// and stay out of the AddressSanitizer run (the servers' timing means nothing under it).
@Suite(
    "Sound engine on real sound servers", .serialized, .tags(.realTime),
    .enabled(if: ProcessInfo.processInfo.environment["RESTD_SANITIZER"] == nil, "real time: not under a sanitizer"))
struct SoundServiceTests {
    /// Drives the loop until `done` or `seconds` have passed.
    static func run(_ loop: EventLoop, for seconds: Double, until done: () -> Bool = { false }) throws {
        let deadline = Deadline(secondsFromNow: seconds)
        while !done() && !deadline.hasPassed {
            _ = try loop.runOnce(timeoutUSec: UInt64(max(1_000, min(50_000, deadline.remaining * 1e6))))
        }
    }

    /// A sound service on `loop` talking to `server` (none: an address where no server listens).
    static func service(
        _ loop: EventLoop, server: AudioServer?, settings: RestdConfiguration.Sound = .init(),
        logs: LogLines = LogLines(), linger: UInt64 = 1_000_000
    ) throws -> SoundService {
        try SoundService(
            loop: loop, settings: settings, theme: SoundTheme(soundDirectories: ["/usr/share/sounds"]),
            logger: logs.logger, serverAddress: server?.pulseServer ?? "unix:/nonexistent/restd-test/native",
            lingerUSec: linger)
    }

    /// Two cues a second apart, then the alarm for three seconds: heard in that order, the
    /// alarm without a pause longer than 1.5 s, and quiet within half a second of stopAlarm.
    @Test("cues and the alarm are heard, and the alarm stops at once", arguments: AudioServer.Kind.allCases)
    func cuesThenAlarm(kind: AudioServer.Kind) throws {
        let server = try AudioServer(kind)
        let loop = try EventLoop()
        let sound = try Self.service(loop, server: server)
        sound.prepare()
        try Self.run(loop, for: 10) { sound.serverState == .available }
        try #require(sound.serverState == .available, "\(server.logs())")
        let recording = try server.record()
        // As the timers do: connect a second before the first cue.
        sound.prepare()
        try Self.run(loop, for: 1)

        let start = KernelClock.monotonicSeconds
        var moments: [Double] = []
        func at(_ offset: Double, _ action: () -> Void) throws {
            try Self.run(loop, for: start + offset - KernelClock.monotonicSeconds)
            moments.append(KernelClock.monotonicSeconds)
            action()
        }
        try at(0) { sound.playCue() }
        try at(1) { sound.playCue() }
        try at(2) { sound.startAlarm() }
        #expect(sound.isRinging)
        try at(6) { sound.stopAlarm() }
        try Self.run(loop, for: 1)
        recording.stop()

        let loudness = recording.loudness()
        let heard = try loudness.onsets().map { try #require(recording.monotonic($0)) - start }
        let meant = moments.map { $0 - start }
        let comment = Comment(rawValue: "onsets \(heard), meant \(meant), sounds \(loudness.sounds())")
        try #require(heard.count == 3, comment)
        // Each sound at the call that asked for it: within a quarter of a second, far less than
        // the second between two cues, on a loaded machine too (the recording's own latency
        // included; the 50 ms target is the benchmark's, on a quiet machine).
        for (onset, moment) in zip(heard, meant) {
            #expect(abs(onset - moment) < 0.25, comment)
        }
        // The alarm: no pause longer than 1.5 s from its onset to stopAlarm (in the recording's
        // time), and nothing from half a second after stopAlarm on.
        let alarmOnset = loudness.onsets()[2]
        let stoppedInRecording = alarmOnset + (meant[3] - heard[2])
        #expect(loudness.longestSilence(from: alarmOnset, to: stoppedInRecording) < 1.5, comment)
        let silentAfter = loudness.isSilent(from: stoppedInRecording + 0.5)
        #expect(silentAfter, comment)
        let lastSound = try #require(loudness.lastSound, comment)
        #expect(lastSound > stoppedInRecording - 0.5, "the alarm rang until it was stopped; \(comment)")
    }

    @Test("the server killed while the alarm rings: said once, and the next ring after its return is heard")
    func serverKilledMidRing() throws {
        let server = try AudioServer(.pipewire)
        let loop = try EventLoop()
        let logs = LogLines()
        let sound = try Self.service(loop, server: server, logs: logs)
        var states: [SoundServerState] = []
        sound.onServerStateChanged = { states.append($0) }
        sound.startAlarm()
        try Self.run(loop, for: 10) { sound.serverState == .available }
        try Self.run(loop, for: 1)
        server.kill()
        try Self.run(loop, for: 5) { sound.serverState == .missing }
        #expect(sound.serverState == .missing)
        #expect(sound.takeServerWarning())
        #expect(!sound.takeServerWarning())
        // Rings go on without a server, and nothing is said again.
        try Self.run(loop, for: 2.5)
        #expect(sound.isRinging)
        #expect(logs.lines.filter { $0.contains("sound server") }.count == 1, "\(logs.lines)")

        try server.start()
        let recording = try server.record()
        try Self.run(loop, for: 10) {
            sound.serverState == .available && recording.loudness().onsets().count >= 1
        }
        sound.stopAlarm()
        #expect(states == [.available, .missing, .available])
        #expect(recording.loudness().onsets().count >= 1, "\(server.logs())")
        #expect(logs.lines.contains { $0.contains("answers again") }, "\(logs.lines)")
    }

    @Test("no sound server: said once, nothing waits, and the alarm can still be started and stopped")
    func noServer() throws {
        let loop = try EventLoop()
        let logs = LogLines()
        let sound = try Self.service(loop, server: nil, logs: logs)
        let stopwatch = Stopwatch()
        sound.prepare()
        sound.playCue()
        sound.startAlarm()
        #expect(stopwatch.elapsed < 0.5)
        #expect(sound.serverState == .missing)
        try Self.run(loop, for: 2.5)
        sound.stopAlarm()
        #expect(sound.takeServerWarning())
        #expect(logs.lines.filter { $0.contains("no sound server") }.count == 1, "\(logs.lines)")
    }

    @Test("a sound file that cannot be read: said once; the other sound still plays")
    func missingFile() throws {
        let server = try AudioServer(.pipewire)
        let loop = try EventLoop()
        let logs = LogLines()
        var settings = RestdConfiguration.Sound()
        settings.alarmFile = "/nonexistent/alarm.oga"
        let sound = try Self.service(loop, server: server, settings: settings, logs: logs)
        let recording = try server.record()
        sound.prepare()
        try Self.run(loop, for: 10) { sound.serverState == .available }
        sound.startAlarm()
        try Self.run(loop, for: 2.5)
        sound.stopAlarm()
        sound.playCue()
        try Self.run(loop, for: 5) { recording.loudness().onsets().count >= 1 }
        let problems = logs.lines.filter { $0.contains("/nonexistent/alarm.oga") }
        #expect(problems.count == 1, "\(logs.lines)")
        #expect(recording.loudness().onsets().count == 1)
    }

    @Test("the connection is released once nothing is due")
    func releasedWhenIdle() throws {
        let server = try AudioServer(.pipewire)
        let loop = try EventLoop()
        let sound = try Self.service(loop, server: server, linger: 300_000)
        sound.playCue()
        #expect(sound.isConnected)
        try Self.run(loop, for: 5) { !sound.isConnected }
        #expect(!sound.isConnected)
        // The server saw the client leave: only pactl's own is listed.
        let clients = try AudioServer.pactl(["list", "short", "clients"], environment: server.tools)
        #expect(!clients.contains("restd"), "\(clients)")
    }
}

/// Log lines kept in memory, for a test to read what restd said.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []

    var lines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }

    var logger: Logger {
        Logger(label: "test") { _ in Handler(lines: self) }
    }

    fileprivate func append(_ line: String) {
        lock.lock()
        stored.append(line)
        lock.unlock()
    }

    private struct Handler: LogHandler {
        let lines: LogLines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .info

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(
            level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String,
            file: String, function: String, line: UInt
        ) {
            lines.append("\(level): \(message)")
        }
    }
}
