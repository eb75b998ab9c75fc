import Glibc
import RestProtocol

/// Scenario 6: restd with 10,000 timers (its limit): how long starting them takes through
/// D-Bus, its memory, GetManagedObjects, start-up with them all persisted, and expiry
/// lateness at that size against scenario 1's.
enum Scale {
    static func run(_ context: BenchContext) throws -> [Metric] {
        let total = context.size(10_000, smoke: 200)
        let expiring = context.size(200, smoke: 10)
        let spreadSeconds = context.size(10.0, smoke: 1.0)
        let startups = context.size(3, smoke: 1)
        let listings = context.size(5, smoke: 2)
        let dueDuringListing = context.size(100, smoke: 10)
        let dueSpacingUSec: Int64 = context.size(15_000, smoke: 50_000)

        let stage = try context.stage()
        var restd = try stage.startRestd()
        var client = try stage.client()
        let rssEmpty = Proc.rssKiB(restd.pid) ?? 0

        let meter = CPUMeter(pid: restd.pid)
        let started = try client.startTimers((0..<total).map { (id: "scale_\($0)", durationUSec: 3_600_000_000) })
        let startCPU = meter.read()
        Clock.sleep(0.5)
        let rssFull = Proc.rssKiB(restd.pid) ?? 0

        // GetManagedObjects, with timers falling due while the replies are written: restd writes
        // a reply in slices and serves its loop between them, so how late it fires those timers
        // (its own fired − deadline) is the longest its loop was kept from a due timer. Their
        // Expired reaches a subscriber only after the reply in progress (what restd sends waits
        // behind it). Its CPU time over the calls (one thread) is what the replies and those
        // expiries cost in all. The calls go on until every timer has expired.
        let dueRecorder = try SignalRecorder(address: stage.bus.address, matches: [expiredMatch])
        let dueStart = Clock.realtimeUSec + 1_500_000
        let due = (0..<dueDuringListing).map { i in
            (id: "scale_\(i)", durationUSec: UInt64(dueStart + Int64(i) * dueSpacingUSec - Clock.realtimeUSec))
        }
        _ = try client.startTimers(due)
        let giveUp = dueStart + Int64(dueDuringListing) * dueSpacingUSec + 30_000_000
        var listing: [Double] = []
        var bytes = 0
        let listingMeter = CPUMeter(pid: restd.pid)
        while listing.count < listings
            || dueRecorder.count(ManagerMember.expired) < dueDuringListing && Clock.realtimeUSec < giveUp
        {
            let call = RawMessage.call(
                RestBus.name, RestBus.managerPath, "org.freedesktop.DBus.ObjectManager", "GetManagedObjects")
            let timed = try client.timedCall(call)
            listing.append(timed.seconds * 1000)
            bytes = timed.bytes
        }
        let listingCPUMS = listingMeter.read().seconds / Double(listing.count) * 1000
        // restd's fired − deadline, and the Expired signal's arrival − deadline.
        let lateness = dueRecorder.stop().compactMap { record -> (fired: Double, arrived: Double)? in
            ExpiryRun.expired(record).map { signal in
                let deadline = Double(signal.deadlineUSec)
                return (
                    (Double(signal.firedUSec) - deadline) / 1000, (Double(record.arrivalNSec / 1000) - deadline) / 1000
                )
            }
        }
        let firedLate = lateness.map(\.fired)
        guard firedLate.count == dueDuringListing, let longestLate = firedLate.max(),
            let arrivedLate = lateness.map(\.arrived).max()
        else {
            throw BenchError(
                "only \(firedLate.count) of \(dueDuringListing) timers due during GetManagedObjects expired")
        }

        // Start-up with every timer persisted: restart restd, time spawn → READY=1.
        var startupTimes: [Double] = []
        for _ in 0..<startups {
            restd = try stage.startRestd()
            startupTimes.append(restd.startupSeconds * 1000)
        }
        Clock.sleep(0.5)
        let rssRestarted = Proc.rssKiB(restd.pid) ?? 0

        // Expiry at this size: replace some timers (the count stays at the limit) with
        // deadlines spread as in scenario 1.
        client = try stage.client()
        let notifications = try FakeNotificationServer(address: stage.bus.address)
        let recorder = try SignalRecorder(address: stage.bus.address, matches: [expiredMatch])
        // Starts are slower at this size: lead by the time they take, as measured above.
        let lead = 1.5 + 1.5 * Double(expiring) / max(started.rate, 20)
        let now = Clock.realtimeUSec
        let timers = (0..<expiring).map { i in
            (id: "scale_\(i)", target: now + Int64((lead + spreadSeconds * Double(i) / Double(expiring)) * 1e6))
        }
        let run = try ExpiryRun.start(timers, client: client, recorder: recorder)
        let analysis = run.analyse(records: recorder.stop(), notifications: notifications.stop())

        let mib = { (kib: Int) in fixed(Double(kib) / 1024, 1) + " MiB" }
        let startup = Summary(startupTimes)!
        let list = Summary(listing)!
        let metrics = [
            Metric(
                6, "Start \(grouped(Double(total))) timers (pipelined, 64 in flight)",
                "\(fixed(started.seconds, 2)) s = \(grouped(started.rate)) calls/s; restd CPU \(fixed(startCPU.seconds, 2)) s",
                values: ["seconds": started.seconds, "calls_per_s": started.rate, "restd_cpu_s": startCPU.seconds]),
            Metric(
                6, "restd RSS with \(grouped(Double(total))) timers",
                "\(mib(rssFull)) (empty: \(mib(rssEmpty)); after restart: \(mib(rssRestarted)))",
                target: "after restart ≤ 16 MiB",
                verdict: Verdict(rssRestarted <= 16 * 1024),
                values: [
                    "rss_kib": Double(rssFull), "rss_empty_kib": Double(rssEmpty),
                    "rss_restarted_kib": Double(rssRestarted),
                ]),
            Metric(
                6, "GetManagedObjects with \(grouped(Double(total))) timers",
                "median \(fixed(list.p50, 1)) ms, max \(fixed(list.max, 1)) ms; reply \(grouped(Double(bytes) / 1024)) KiB; "
                    + "restd's CPU per call \(fixed(listingCPUMS, 1)) ms",
                values: list.values.msKeys.merging(["reply_bytes": Double(bytes), "restd_cpu_ms": listingCPUMS]) {
                    a, _ in a
                },
                note:
                    "\(listing.count) calls in a row, sent to reply read (through dbus-daemon, which checks all of it)"),
            Metric(
                6,
                "  restd's loop blocked meanwhile (the most late of \(dueDuringListing) timers due during the calls)",
                "fired \(fixed(longestLate, 1)) ms late at most (p50 \(fixed(Summary(firedLate)!.p50, 2)) ms); "
                    + "their Expired arrived \(fixed(arrivedLate, 1)) ms late at most, behind the reply",
                target: "≤ 50 ms", verdict: Verdict(longestLate <= 50),
                values: ["ms": longestLate, "expired_arrival_max_ms": arrivedLate],
                note: "restd's own fired − deadline of timers due every \(dueSpacingUSec / 1000) ms while the calls ran"
            ),
            Metric(
                6, "Start-up to READY=1 with \(grouped(Double(total))) persisted timers",
                "median \(fixed(startup.p50, 1)) ms, max \(fixed(startup.max, 1)) ms",
                target: "≤ 50 ms", verdict: Verdict(startup.p50 <= 50), values: startup.values.msKeys,
                note: "\(startups) restarts"),
        ]
        let reference =
            context.expiryP99.map { (p99: $0, name: "scenario 1's p99 \(fixed($0, 2)) ms") }
            ?? context.floorP99.map { (p99: $0, name: "floor p99 \(fixed($0, 3)) ms") }
        var expiry = analysis.metrics(
            scenario: 6, title: "\(expiring) of \(grouped(Double(total))) timers over \(fixed(spreadSeconds, 0)) s",
            baseline: reference?.name ?? "scenario 1 not run", target: "p99 within 5 ms of scenario 1's",
            limit: (reference?.p99 ?? .infinity) + 5, spreadMS: nil)
        if reference == nil {
            for i in expiry.indices where expiry[i].verdict == .met { expiry[i].verdict = .info }
        }
        return metrics + expiry
    }
}
