import Clocks
import Glibc
import ProcessHarness
import RestProtocol

/// Scenario 2: how often restd wakes up, counted as the context switches of all its threads,
/// idle and with timers running, next to a 1 Hz ticking process counted the same way.
enum WakeUps {
    static func run(_ context: BenchContext) throws -> [Metric] {
        let window = context.size(30.0, smoke: 2.0)
        let timerCount = context.size(10, smoke: 2)
        let settle = 1.5

        let stage = try context.stage()
        let restd = try stage.startRestd()
        let recorder = try SignalRecorder(address: stage.bus.address, matches: [expiredMatch])
        let client = try stage.client()
        let tick = try ChildProcess(
            executable: context.benchExecutable, arguments: ["--tick-baseline"],
            environment: ChildEnvironment.make())
        defer { tick.stop(grace: 1) }

        // Idle: nothing talks to restd during the window; the 1 Hz process ticks beside it.
        Clock.sleep(settle)
        let idle = try count([restd.pid, tick.pid], over: window).totals

        // Running timers, all expiring inside the window; the Starts happen before it begins.
        let windowStart = Clock.realtimeUSec + Int64((settle + 0.5) * 1e6)
        let deadlines = (0..<timerCount).map { i in
            windowStart + Int64(window * 1e6 * Double(i + 1) / Double(timerCount + 1))
        }
        let now = Clock.realtimeUSec
        _ = try client.startTimers(
            deadlines.enumerated().map { (id: "wake_\($0.offset)", durationUSec: UInt64($0.element - now)) })
        Clock.sleep(Double(windowStart - Clock.realtimeUSec) / 1e6)
        let (busy, timeline) = try count([restd.pid, tick.pid], over: window)
        let expiredInWindow = recorder.count(ManagerMember.expired)
        // When restd handled each expiry (fired_usec): a late wake-up on a busy machine is still the expiry's.
        let handled = recorder.stop().filter { $0.message.member == ManagerMember.expired }
            .compactMap { $0.message.arguments.count > 3 ? $0.message.arguments[3].uint64.map(Int64.init) : nil }
        let causes = deadlines + handled
        // A switch seen more than 50 ms before or 500 ms after every deadline and every handling
        // (the sync of the expiry's write included) was not caused by an expiry.
        let strays = timeline.filter { sample in
            !causes.contains { sample.time >= $0 - 50_000 && sample.time <= $0 + 500_000 }
        }
        let stray = strays.map(\.switches).reduce(0, +)
        let strayText = strays.map { sample in
            let nearest = causes.min { abs($0 - sample.time) < abs($1 - sample.time) } ?? sample.time
            return "\(sample.switches) at \(fixed(Double(sample.time - nearest) / 1000, 0)) ms from the nearest expiry"
        }.joined(separator: ", ")

        // The daemon a person runs: restarted on its state, with timers persisted (half of them
        // paused, all far from their end), then left alone.
        try stage.startRestd()
        _ = try client.startTimers((0..<timerCount).map { (id: "kept_\($0)", durationUSec: 3_600_000_000) })
        for i in stride(from: 0, to: timerCount, by: 2) {
            _ = try client.manager(ManagerMember.pause, [.string("kept_\(i)")])
        }
        let restarted = try stage.startRestd()  // stops the one before, SIGTERM
        Clock.sleep(settle)
        let restartedThreads = Proc.threadCount(restarted.pid) ?? 0
        let restartedIdle = try count([restarted.pid, tick.pid], over: window).totals
        // Idle again, now following BlueZ on a system bus of its own (python-dbusmock's bluez5:
        // an adapter and a paired strap, not connected): waiting for BlueZ costs nothing.
        let bluetooth = try idleFollowingBluez(context, window: window, settle: settle)

        let restdIdle = idle[0]
        let tickIdle = idle[1]
        let restdBusy = busy[0]
        let perExpiry = Double(restdBusy.total) / Double(max(expiredInWindow, 1))
        let windowText = "\(fixed(window, 0)) s"
        return [
            Metric(
                2, "restd idle, no timers, \(windowText)", "\(restdIdle.total) context switches (\(restdIdle.text))",
                baseline: "1 Hz tick: \(tickIdle.total) (\(tickIdle.text))", target: "0",
                verdict: Verdict(restdIdle.total == 0),
                values: [
                    "restd_switches": Double(restdIdle.total), "tick_switches": Double(tickIdle.total),
                    "window_s": window,
                ]),
            Metric(
                2, "restd with \(timerCount) timers expiring in \(windowText)",
                "\(restdBusy.total) context switches (\(restdBusy.text)), \(fixed(perExpiry, 1)) per expiry",
                baseline: "1 Hz tick: \(busy[1].total)",
                target: "only the expiries (\(timerCount))",
                verdict: Verdict(expiredInWindow == timerCount && stray == 0),
                values: [
                    "restd_switches": Double(restdBusy.total), "expired": Double(expiredInWindow),
                    "per_expiry": perExpiry, "stray_switches": Double(stray), "tick_switches": Double(busy[1].total),
                    "window_s": window,
                ],
                note:
                    "\(expiredInWindow) of \(timerCount) expired in the window; \(stray) switch(es) away from any expiry "
                    + "(sampled every 50 ms)" + (strayText.isEmpty ? "" : ": " + strayText)),
            Metric(
                2, "restd restarted on its state, \(timerCount) persisted timers, idle \(windowText)",
                "\(restartedIdle[0].total) context switches (\(restartedIdle[0].text)); \(restartedThreads) thread"
                    + (restartedThreads == 1 ? "" : "s"),
                baseline: "1 Hz tick: \(restartedIdle[1].total)", target: "0, 1 thread",
                verdict: Verdict(restartedIdle[0].total == 0 && restartedThreads == 1),
                values: [
                    "restd_switches": Double(restartedIdle[0].total), "threads": Double(restartedThreads),
                    "tick_switches": Double(restartedIdle[1].total), "window_s": window,
                ],
                note: "the daemon a person runs: started again on the state file a previous restd left"),
            bluetooth.map { bluetooth in
                Metric(
                    2, "restd idle, following BlueZ, no strap connected, \(windowText)",
                    "\(bluetooth.total) context switches (\(bluetooth.text))", target: "0",
                    verdict: Verdict(bluetooth.total == 0),
                    values: ["restd_switches": Double(bluetooth.total), "window_s": window],
                    note: "system bus with python-dbusmock's bluez5: one adapter, one paired heart-rate strap")
            }
                ?? Metric(
                    2, "restd idle, following BlueZ, no strap connected",
                    "not measured: this restd does not follow "
                        + "BlueZ (a build from before it did, in an A/B run)", verdict: .na),
            Metric(
                2, "Wake-ups per minute, idle", "restd \(fixed(Double(restdIdle.total) * 60 / window, 1))",
                baseline: "1 Hz tick \(fixed(Double(tickIdle.total) * 60 / window, 1))",
                values: [
                    "restd_per_min": Double(restdIdle.total) * 60 / window,
                    "tick_per_min": Double(tickIdle.total) * 60 / window,
                ]),
        ]
    }

    /// restd's context switches over `window` while it follows a BlueZ with nothing connected;
    /// nil for a restd that does not follow BlueZ (an older build, `--restd`).
    static func idleFollowingBluez(_ context: BenchContext, window: Double, settle: Double) throws -> Switches? {
        let stage = try context.stage()
        let system = try PrivateBus(prefix: "restd-bench-system-bus")
        let bluez = try ChildProcess(
            executable: "/usr/bin/python3", arguments: ["-m", "dbusmock", "--system", "--template", "bluez5"],
            environment: ChildEnvironment.make(["DBUS_SYSTEM_BUS_ADDRESS": system.address]))
        defer { _ = bluez.stop(grace: 1) }
        let client = try BusClient(address: system.address)
        let deadline = KernelClock.monotonicSeconds + 30
        while (try? client.call(
            "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner",
            [.string("org.bluez")])) == nil
        {
            guard KernelClock.monotonicSeconds < deadline, bluez.isRunning else {
                throw BenchError("python-dbusmock's bluez5 did not start")
            }
            Clock.sleep(0.02)
        }
        try client.call("org.bluez", "/", "org.bluez.Mock", "AddAdapter", [.string("hci0"), .string("restd-bench")])
        try client.call(
            "org.bluez", "/", "org.bluez.Mock", "AddDevice",
            [.string("hci0"), .string("A0:9E:1A:12:34:56"), .string("Polar H10")])
        try client.call(
            "org.bluez", "/", "org.bluez.Mock", "PairDevice",
            [.string("hci0"), .string("A0:9E:1A:12:34:56"), .int32(0)])
        try client.call(
            "org.bluez", "/org/bluez/hci0/dev_A0_9E_1A_12_34_56", "org.freedesktop.DBus.Mock", "UpdateProperties",
            [.string("org.bluez.Device1"), .vardict(["UUIDs": .strings(["0000180d-0000-1000-8000-00805f9b34fb"])])])
        let restd = try stage.startRestd(systemBus: system)
        Clock.sleep(settle)
        guard restd.log().contains("no heart-rate strap connected") else {
            // Only another build (`--restd`, an A/B run) may not follow BlueZ; the bench's own must.
            if context.restdIsOwnBuild {
                throw BenchError("restd does not follow the bench's BlueZ; its log:\n\(restd.log())")
            }
            return nil
        }
        return try count([restd.pid], over: window).totals[0]
    }

    struct Switches {
        var voluntary: Int
        var involuntary: Int
        var total: Int { voluntary + involuntary }
        var text: String { "\(voluntary) voluntary, \(involuntary) involuntary" }
    }

    /// Context switches of each process over `seconds`, all threads summed, and when the
    /// first process's happened (read from /proc every 50 ms, which does not wake it).
    static func count(
        _ pids: [pid_t], over seconds: Double
    ) throws
        -> (totals: [Switches], timeline: [(time: Int64, switches: Int)])
    {
        func read(_ pid: pid_t) throws -> (voluntary: Int, involuntary: Int) {
            guard let value = Proc.contextSwitches(pid) else { throw BenchError("process \(pid) is gone") }
            return value
        }
        let before = try pids.map(read)
        var timeline: [(time: Int64, switches: Int)] = []
        var last = before[0].voluntary + before[0].involuntary
        let end = KernelClock.monotonicSeconds + seconds
        var next = KernelClock.monotonicSeconds
        while true {
            next += 0.05
            Clock.sleep(untilMonotonic: min(next, end))
            let now = try read(pids[0])
            let total = now.voluntary + now.involuntary
            if total != last { timeline.append((Clock.realtimeUSec, total - last)) }
            last = total
            if next >= end { break }
        }
        let totals = try zip(pids, before).map { pid, start in
            let end = try read(pid)
            return Switches(
                voluntary: end.voluntary - start.voluntary, involuntary: end.involuntary - start.involuntary)
        }
        return (totals, timeline)
    }
}
