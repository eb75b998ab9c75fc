import Clocks
import DBusKit
import Glibc
import ProcessHarness
import RestProtocol

/// Scenario 10: restd's sounds as a person at the speakers hears them, from a real sound server
/// (PipeWire with WirePlumber and pipewire-pulse, on a null sink whose monitor is recorded):
/// each cue's lateness against the moment the rest's end calls for (3, 2 and 1 s before it), the
/// alarm's against the end, the time from Silence to quiet, and restd's threads and memory while
/// the alarm rings and once restd has let the server go. Onsets are read from the recording, so
/// the recording's own latency (10 ms asked of parec) is included.
enum SoundTiming {
    /// Each rest: 4 s, so that all three cues come after its start.
    static let restSeconds = 4.0

    static func run(_ context: BenchContext) throws -> [Metric] {
        let rests = context.size(12, smoke: 1)
        let server = try AudioServer(.pipewire)
        let stage = try context.stage()
        let restd = try stage.startRestd(environment: server.clientEnvironment)
        let client = try stage.client()
        let recording = try server.record()
        // CLOCK_REALTIME − CLOCK_MONOTONIC: restd publishes its ends on the wall clock.
        let offset = Double(Clock.realtimeUSec) / 1e6 - KernelClock.monotonicSeconds

        /// The recording's moment for a CLOCK_MONOTONIC one, once it has been recorded.
        func inRecording(_ moment: Double) throws -> Double {
            var seconds: Double?
            // The recording arrives in pieces with nothing to wait on from here.
            guard
                poll(
                    timeout: 30, interval: 0.02,
                    {
                        seconds = recording.secondsIntoRecording(atMonotonic: moment)
                        return seconds != nil
                    }), let seconds
            else { throw BenchError("the recording stopped: \(server.logs())") }
            return seconds
        }

        /// Whether the server lists restd among its clients; nil when pactl fails.
        func isClient() -> Bool? {
            (try? AudioServer.pactl(["list", "short", "clients"], environment: server.tools))?.contains("restd")
        }

        var cues: [Double] = []
        var alarms: [Double] = []
        var quiet: [Double] = []
        var missedCues = 0
        var ringing: (threads: Int, rssKiB: Int, connected: Bool)?
        for index in 0..<rests {
            let id = "sound_\(index)"
            let from = KernelClock.monotonicSeconds
            try client.manager(ManagerMember.start, [.string(id), .uint64(UInt64(restSeconds * 1e6)), .vardict([:])])
            guard let endsAt = try client.timers()[id]?.endsAt, endsAt > 0 else {
                throw BenchError("\(id) did not start")
            }
            let end = Double(endsAt) / 1e6 - offset
            let fromInRecording = try inRecording(from)
            // A second of the alarm, then restd's figures while it rings.
            _ = try inRecording(end + 1)
            if ringing == nil {
                ringing = (Proc.threadCount(restd.pid) ?? 0, Proc.rssKiB(restd.pid) ?? 0, isClient() == true)
            }
            let heard = recording.loudness().onsets().filter { $0 >= fromInRecording }.compactMap {
                recording.monotonic($0)
            }
            // Each due moment against the onset nearest it (within half the spacing of the cues).
            for due in [end - 3, end - 2, end - 1] {
                if let onset = heard.first(where: { abs($0 - due) < 0.5 }) {
                    cues.append((onset - due) * 1000)
                } else {
                    missedCues += 1
                }
            }
            if let onset = heard.first(where: { abs($0 - end) < 0.5 }) { alarms.append((onset - end) * 1000) }

            let sent = KernelClock.monotonicSeconds
            try client.manager(ManagerMember.silence, [.string(id)])
            let sentInRecording = try inRecording(sent)
            _ = try inRecording(sent + 1)
            let lastSound = recording.loudness().lastSound ?? 0
            quiet.append(max(0, lastSound - sentInRecording) * 1000)
        }
        // Released 5 s after the last sound (SoundService.standardLingerUSec): the server no
        // longer lists restd as a client.
        let released = poll(timeout: 15, interval: 0.2) { isClient() == false }
        let after = (threads: Proc.threadCount(restd.pid) ?? 0, rssKiB: Proc.rssKiB(restd.pid) ?? 0)
        recording.stop()

        let expected = rests * 3
        var metrics: [Metric] = []
        if let summary = Summary(cues) {
            metrics.append(
                Metric(
                    10, "Cue lateness, \(rests) rests × 3 cues, against the end − 3, 2, 1 s", percentiles(summary),
                    target: "p99 ≤ 50 ms", verdict: Verdict(missedCues == 0 && summary.p99 <= 50),
                    values: summary.values.msKeys.merging(["missed": Double(missedCues)]) { a, _ in a },
                    note: missedCues == 0 ? nil : "\(missedCues) of \(expected) cues not heard"))
        } else {
            metrics.append(Metric(10, "Cue lateness", "no cue heard", target: "p99 ≤ 50 ms", verdict: .missed))
        }
        if let summary = Summary(alarms) {
            metrics.append(
                Metric(
                    10, "Alarm lateness, against the end", percentiles(summary), values: summary.values.msKeys,
                    note: alarms.count == rests ? nil : "\(alarms.count) of \(rests) alarms heard"))
        }
        if let summary = Summary(quiet) {
            metrics.append(
                Metric(
                    10, "Silence call to quiet", percentiles(summary), target: "≤ 500 ms",
                    verdict: Verdict(summary.max <= 500), values: summary.values.msKeys,
                    note: "from the call sent to the end of the last sound recorded"))
        }
        let mib = { (kib: Int) in fixed(Double(kib) / 1024, 1) + " MiB" }
        if let ringing {
            metrics.append(
                Metric(
                    10, "restd while the alarm rings, and once released",
                    "\(ringing.threads) thread\(ringing.threads == 1 ? "" : "s"), RSS \(mib(ringing.rssKiB)); "
                        + "released: \(after.threads) thread\(after.threads == 1 ? "" : "s"), RSS \(mib(after.rssKiB))",
                    target: "1 thread",
                    verdict: Verdict(ringing.threads == 1 && after.threads == 1 && ringing.connected && released),
                    values: [
                        "ringing_threads": Double(ringing.threads), "ringing_rss_kib": Double(ringing.rssKiB),
                        "released_threads": Double(after.threads), "released_rss_kib": Double(after.rssKiB),
                    ],
                    note: !ringing.connected
                        ? "the server did not list restd while it rang"
                        : released
                            ? "released: no longer the server's client; libpulse stays mapped, with libsndfile "
                                + "(Debian links libpulse -z nodelete)"
                            : "restd still connected 15 s after the last sound"))
        }
        return metrics
    }
}
