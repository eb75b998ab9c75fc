import Clocks
import DBusKit
import Foundation
import Glibc
import ProcessHarness
import RestClient
import RestProtocol
import Testing

/// A real restd playing through a real sound server on a null sink, driven by restctl, with what
/// the sink played recorded and measured against the rests' own ends.
final class HeardDaemon {
    let server: AudioServer
    let daemon: NotifyingDaemon
    private(set) var recording: Recording
    /// CLOCK_REALTIME − CLOCK_MONOTONIC (seconds), to place a rest's EndsAtUSec in the recording.
    private let realtimeOffset: Double

    init(_ kind: AudioServer.Kind) throws {
        server = try AudioServer(kind)
        daemon = try NotifyingDaemon(environment: server.clientEnvironment)
        recording = try server.record()
        realtimeOffset = Double(KernelClock.realtimeUSec) / 1e6 - KernelClock.monotonicSeconds
    }

    /// restctl on restd's bus.
    @discardableResult
    func run(_ args: String...) -> CommandResult { daemon.daemon.run(args) }

    /// restctl, and the CLOCK_MONOTONIC moments (seconds) just before it ran and when it replied.
    func timed(_ args: String...) -> (result: CommandResult, sent: Double, replied: Double) {
        let sent = KernelClock.monotonicSeconds
        let result = daemon.daemon.run(args)
        return (result, sent, KernelClock.monotonicSeconds)
    }

    /// `restctl start SECONDS --id ID` and more `options`: the CLOCK_MONOTONIC moment (seconds) of
    /// the rest's end, from its EndsAtUSec.
    func start(_ id: String, seconds: Int, _ options: String...) throws -> Double {
        let result = daemon.daemon.run(["start", String(seconds), "--id", id] + options)
        try #require(result.succeeded, "\(result)")
        let endsAt = try daemon.client.timer(id: id).endsAtUSec
        try #require(endsAt > 0, "\(id) is not running")
        return Double(endsAt) / 1e6 - realtimeOffset
    }

    /// The moment of the recording played at CLOCK_MONOTONIC `moment`, once it has been recorded.
    func inRecording(_ moment: Double) throws -> Double {
        var seconds: Double?
        try waitUntil("the recording to reach \(moment)", details: { self.server.logs() }) {
            seconds = recording.secondsIntoRecording(atMonotonic: moment)
            return seconds != nil
        }
        return seconds!
    }

    /// The onsets heard from the recording's moment `from` on, as CLOCK_MONOTONIC moments.
    func onsets(after from: Double) -> [Double] {
        recording.loudness().onsets().filter { $0 >= from }.compactMap { recording.monotonic($0) }
    }

    /// Waits until `count` onsets were heard after the CLOCK_MONOTONIC moment `moment`; returns them.
    @discardableResult
    func waitForOnsets(_ count: Int, after moment: Double, _ what: String) throws -> [Double] {
        var heard: [Double] = []
        try waitUntil(what, details: { "heard \(heard)\n\(self.server.logs())\n\(self.daemon.daemon.log())" }) {
            let from = recording.secondsIntoRecording(atMonotonic: moment) ?? .infinity
            heard = recording.loudness().onsets().filter { $0 >= from }.compactMap { recording.monotonic($0) }
            return heard.count >= count
        }
        return heard
    }

    /// Whether nothing was heard from the CLOCK_MONOTONIC moment `moment` until `until` (once
    /// recorded; both while it records).
    func silent(from moment: Double, until: Double) throws -> Bool {
        let first = Int((try inRecording(moment) / Loudness.windowSeconds).rounded(.down))
        let last = Int((try inRecording(until) / Loudness.windowSeconds).rounded(.up))
        let loudness = recording.loudness()
        let windows = first..<min(last, loudness.windows.count)
        // As long as the span asked about: the recording ran throughout.
        try #require(
            windows.count >= Int((until - moment) / Loudness.windowSeconds) - 5,
            "recorded \(windows) for \(until - moment) s")
        return !windows.contains { loudness.isLoud($0) }
    }

    /// Waits until `id` rings (its Ringing true) or is quiet again.
    func waitUntilRinging(_ id: String, _ ringing: Bool = true) throws {
        try daemon.signals.waitFor("\(id) \(ringing ? "ringing" : "quiet")") {
            $0.member == "PropertiesChanged" && $0.path == RestBus.timerPath(id: id)
                && $0.changedProperties["Ringing"] == .boolean(ringing)
        }
    }

    /// Waits for the Manager's SoundServer to become `state`.
    func waitForSoundServer(_ state: String) throws {
        try daemon.signals.waitFor("SoundServer \(state)") {
            $0.member == "PropertiesChanged" && $0.path == RestBus.managerPath
                && $0.changedProperties["SoundServer"] == .string(state)
        }
    }

    /// The server back after `server.kill()`, and a new recording of it (the old one ended with it).
    func restartServer() throws {
        recording.stop()
        try server.start()
        recording = try server.record()
    }

    /// Whether restd is connected to the sound server (one of the clients it lists).
    func isClient() throws -> Bool {
        try AudioServer.pactl(["list", "short", "clients"], environment: server.tools).contains("restd")
    }

    func logs() -> String { "--- restd log:\n\(daemon.daemon.log())\n\(server.logs())" }
}

/// What a person at the rack hears from restd: the cues, the alarm until it is stopped, quiet
/// rests, a pause that cancels the cues left, a sound server that goes away and comes back, and
/// none at all. They wait for real sound to play (a few seconds each, one restd and one server
/// shared by the checks of a test), and stay out of the AddressSanitizer run.
@Suite(
    "The alarm heard through restd", .serialized, .tags(.realTime),
    .enabled(if: ProcessInfo.processInfo.environment["RESTD_SANITIZER"] == nil, "real time: not under a sanitizer"))
struct HeardAlarmTests {
    /// How late a sound may be heard after its moment and still count as on time: generous, for
    /// a loaded machine (the recording's latency included; the 50 ms target is the benchmark's).
    static let lateness = 0.3
    /// How early: the recording places a sound to within its pieces' delivery.
    static let earliness = 0.05

    /// A 5 s rest: three cues a second apart, the last a second before the alarm, which rings
    /// (through one repeat of its sound) without a pause longer than 1.5 s until `restctl
    /// silence`, and is quiet within half a second of its reply.
    static func cuesAndAlarm(_ heard: HeardDaemon, id: String, ringFor ringSeconds: Double) throws {
        let started = KernelClock.monotonicSeconds
        let end = try heard.start(id, seconds: 5)
        let meant = [end - 3, end - 2, end - 1, end]
        try heard.waitUntilRinging(id)
        let onsets = try heard.waitForOnsets(4, after: started, "three cues and the alarm")
        let comment = Comment(rawValue: "heard \(onsets.map { $0 - end }) s from the end\n\(heard.logs())")
        #expect(onsets.count == 4, comment)
        for (onset, moment) in zip(onsets, meant) {
            #expect(onset - moment > -earliness && onset - moment < lateness, comment)
        }

        // Rings on, until silenced.
        _ = try heard.inRecording(onsets[3] + ringSeconds)
        let silence = heard.timed("silence")
        #expect(silence.result.succeeded, "\(silence.result)")
        try heard.waitUntilRinging(id, false)
        let alarmOnset = try heard.inRecording(onsets[3])
        let asked = try heard.inRecording(silence.sent)
        let replied = try heard.inRecording(silence.replied)
        _ = try heard.inRecording(silence.replied + 1)
        let loudness = heard.recording.loudness()
        let sounds = Comment(rawValue: "sounds \(loudness.sounds()) (alarm from \(alarmOnset))\n\(heard.logs())")
        #expect(loudness.longestSilence(from: alarmOnset, to: asked) < 1.5, sounds)
        #expect((loudness.lastSound ?? 0) > asked - 0.5, "it rang until silenced; \(sounds)")
        #expect(loudness.isSilent(from: replied + 0.5), sounds)
    }

    @Test(
        "PipeWire: cues, the alarm until silence or the next set, quiet rests, no stale cue, the server gone and back, Do Not Disturb"
    )
    func pipeWire() throws {
        let heard = try HeardDaemon(.pipewire)
        // Long enough for the alarm sound (6.1 s) to ring a second time.
        try Self.cuesAndAlarm(heard, id: "squat", ringFor: 7)

        // The next set silences a ringing rest (and starts the next one).
        let benchEnd = try heard.start("bench", seconds: 1)
        try heard.waitUntilRinging("bench")
        try heard.waitForOnsets(1, after: benchEnd - Self.earliness, "bench's alarm")
        let set = heard.timed("set", "--id", "bench", "--exercise", "Bench press", "--rest", "60")
        #expect(set.result.succeeded, "\(set.result)")
        try heard.waitUntilRinging("bench", false)
        _ = try heard.inRecording(set.replied + 1)
        let afterSet = try heard.inRecording(set.replied + 0.5)
        #expect(heard.recording.loudness().isSilent(from: afterSet), "\(heard.recording.loudness().sounds())")
        heard.run("cancel", "--id", "bench")

        // A rest without sound: nothing from its start until well after its end.
        let quietStart = KernelClock.monotonicSeconds
        let quietEnd = try heard.start("quiet", seconds: 1, "--no-sound")
        try heard.daemon.expired("quiet")
        #expect(try heard.silent(from: quietStart, until: quietEnd + 1), "\(heard.logs())")

        // Paused after its first cue, a rest plays no further one, nor the alarm.
        let pauseStart = KernelClock.monotonicSeconds
        let pausedEnd = try heard.start("paused", seconds: 3)
        try heard.waitForOnsets(1, after: pauseStart, "paused's first cue")
        let pause = heard.timed("pause", "--id", "paused")
        #expect(pause.result.succeeded, "\(pause.result)")
        // (A precondition: the pause landed before the second cue was due.)
        try #require(pause.replied < pausedEnd - 1.1, "the pause came too late to tell: \(pause)")
        _ = try heard.inRecording(pausedEnd + 0.5)
        let cues = heard.onsets(after: try heard.inRecording(pauseStart))
        #expect(cues.count == 1, "heard \(cues.map { $0 - pausedEnd }) s from paused's end")
        heard.run("cancel", "--id", "paused")

        // The server killed while an alarm rings: the rest and its notification go on, restd says
        // so once and rings again on the server's return.
        let notified = heard.daemon.calls.calls("Notify").count
        let killEnd = try heard.start("kill", seconds: 1)
        try heard.waitUntilRinging("kill")
        try heard.waitForOnsets(1, after: killEnd - Self.earliness, "kill's alarm")
        heard.server.kill()
        try heard.waitForSoundServer("missing")
        try heard.daemon.startAndExpireOnTime("gone", label: "while the server is gone")
        try heard.waitUntilRinging("gone")
        try heard.daemon.calls.waitFor("Notify", count: notified + 2)
        #expect(heard.daemon.daemon.restd.isRunning)
        #expect(try heard.daemon.client.timer(id: "kill").ringing)
        heard.run("silence")
        try heard.waitUntilRinging("kill", false)
        try heard.restartServer()
        let backEnd = try heard.start("back", seconds: 1)
        try heard.waitUntilRinging("back")
        try heard.waitForOnsets(1, after: backEnd - Self.earliness, "back's alarm, on the server's return")
        heard.run("silence")
        try heard.waitUntilRinging("back", false)
        let log = heard.daemon.daemon.log()
        #expect(log.components(separatedBy: "rests end without restd's sounds").count - 1 == 1, "\(log)")

        // Do Not Disturb on (the settings portal says so) and in_do_not_disturb = false: neither
        // cues nor alarm are heard, yet the rest rings on the bus; off again, the next one is heard.
        let portal = try SettingsPortal(bus: heard.daemon.bus, doNotDisturb: true)
        try heard.daemon.reload(config: "[sound]\nin_do_not_disturb = false\n")
        let disturbStart = KernelClock.monotonicSeconds
        let disturbEnd = try heard.start("disturb", seconds: 3)
        try heard.waitUntilRinging("disturb")
        #expect(try heard.silent(from: disturbStart, until: disturbEnd + 1.5), "\(heard.logs())")
        heard.run("silence")
        try heard.waitUntilRinging("disturb", false)
        try portal.set(doNotDisturb: false)
        let undisturbedEnd = try heard.start("undisturbed", seconds: 1)
        try heard.waitForOnsets(1, after: undisturbedEnd - Self.earliness, "the alarm once Do Not Disturb is off")
        #expect(try heard.isClient())
        let silenced = heard.timed("silence")
        try heard.waitUntilRinging("undisturbed", false)
        // Quiet again, as it is within half a second of the reply, before the next rest is
        // listened to: the alarm's last moments are not the next rest's sound.
        _ = try heard.inRecording(silenced.replied + 0.5)
        // On again: a rest without cues asks at its end, and its first ring waits for the answer
        // rather than follow the last one (off).
        try portal.set(doNotDisturb: true)
        let suddenStart = KernelClock.monotonicSeconds
        let suddenEnd = try heard.start("sudden", seconds: 1)
        try heard.waitUntilRinging("sudden")
        let suddenSpan = "\(try heard.inRecording(suddenStart))–\(try heard.inRecording(suddenEnd + 1)) s"
        #expect(
            try heard.silent(from: suddenStart, until: suddenEnd + 1),
            "sounds \(heard.recording.loudness().sounds()) (the span \(suddenSpan))\n\(heard.logs())")
        heard.run("silence")
        try heard.waitUntilRinging("sudden", false)

        // Released a little after the last sound (the server no longer lists restd as a client),
        // and one thread throughout.
        try waitUntil("restd to let the sound server go", details: { heard.logs() }) { try !heard.isClient() }
        #expect(try ProcessActivity.threads(heard.daemon.daemon.restd.pid) == 1)
    }

    @Test("PulseAudio: cues, and the alarm until silence")
    func pulseAudio() throws {
        let heard = try HeardDaemon(.pulseaudio)
        try Self.cuesAndAlarm(heard, id: "squat", ringFor: 2.5)
    }

    @Test("no sound server: the rest ends on time and rings on the bus; restd and restctl say so once")
    func noServer() throws {
        let daemon = try NotifyingDaemon()
        try daemon.startAndExpireOnTime("squat", label: "Squat")
        try daemon.signals.waitFor("SoundServer missing") {
            $0.member == "PropertiesChanged" && $0.path == RestBus.managerPath
                && $0.changedProperties["SoundServer"] == .string("missing")
        }
        #expect(try daemon.client.timer(id: "squat").ringing)
        try daemon.calls.waitFor("Notify")
        let log = daemon.daemon.log()
        #expect(log.components(separatedBy: "rests end without restd's sounds").count - 1 == 1, "\(log)")
        #expect(daemon.daemon.run("silence").succeeded)

        // restctl's note, once: not to a quiet rest (which leaves it to the next caller), then to
        // the first start, and no more.
        let quiet = daemon.daemon.run("start", "30", "--id", "quiet", "--no-sound")
        #expect(quiet.succeeded && quiet.stderr.isEmpty, "\(quiet)")
        let first = daemon.daemon.run("start", "30", "--id", "squat")
        #expect(first.succeeded && first.stderr == "restctl: \(SoundServerNote.sentence)\n", "\(first)")
        let set = daemon.daemon.run("set", "--id", "bench", "--exercise", "Bench press", "--rest", "30")
        #expect(set.succeeded && set.stderr.isEmpty, "\(set)")
        let again = daemon.daemon.run("start", "30", "--id", "squat")
        #expect(again.succeeded && again.stderr.isEmpty, "\(again)")
    }
}
