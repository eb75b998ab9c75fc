import Clocks
import Foundation
import Glibc
import ProcessHarness
import RestProtocol

/// Scenario 8: training. CompleteSet's round trip against Start's in the same run (one
/// transaction, not several); with 100,000 sets in history, `restctl stats --since 365d` and
/// `restctl history --since 7d`, start-up to READY, idle RSS and idle wake-ups, each beside the
/// same figure with an empty history.
enum Training {
    /// A restctl command's times with a full history, against an empty one and a target median.
    private static func againstEmptyHistory(
        _ title: String, full: Summary, empty: Summary, targetMilliseconds target: Double, note: String
    ) -> Metric {
        Metric(
            8, title, "median \(fixed(full.p50, 1)) ms, max \(fixed(full.max, 1)) ms",
            baseline: "empty history: median \(fixed(empty.p50, 1)) ms",
            target: "≤ \(Int(target)) ms", verdict: Verdict(full.p50 <= target),
            values: full.values.msKeys.merging(["empty_p50_ms": empty.p50]) { a, _ in a }, note: note)
    }

    static func run(_ context: BenchContext) throws -> [Metric] {
        let calls = context.size(400, smoke: 10)
        let cliRounds = context.size(20, smoke: 2)
        let starts = context.size(8, smoke: 2)
        let historySets = context.size(100_000, smoke: 2_000)
        let quiet = context.size(10.0, smoke: 1.0)

        // 1. The figures of an empty history (measure records the one set that warms its path).
        let stage = try context.stage()
        let empty = try measure(
            context, stage: stage, starts: starts, cliRounds: cliRounds, quiet: quiet, withBaselines: false)

        // 2. CompleteSet against Start, alternated on one timer, on that restd.
        let client = try stage.client()
        let rest: UInt64 = 3_600_000_000
        func start() -> OpaquePointer {
            RawMessage.call(
                RestBus.name, RestBus.managerPath, RestBus.managerInterface, ManagerMember.start,
                [.string("bench"), .uint64(rest), .vardict(["label": .string("Squat")])])
        }
        func completeSet() -> OpaquePointer {
            RawMessage.call(
                RestBus.name, RestBus.managerPath, RestBus.managerInterface, ManagerMember.completeSet,
                [.string("bench"), .string("Squat"), .vardict(["reps": .uint32(5), "rest_usec": .uint64(rest)])])
        }
        for _ in 0..<5 {  // warm-up
            _ = try client.timedCall(start())
            _ = try client.timedCall(completeSet())
        }
        var startTimes: [Double] = []
        var setTimes: [Double] = []
        for _ in 0..<calls {
            startTimes.append(try client.timedCall(start()).seconds * 1000)
            setTimes.append(try client.timedCall(completeSet()).seconds * 1000)
        }
        let startSummary = Summary(startTimes)!
        let setSummary = Summary(setTimes)!
        let ratio = setSummary.p50 / max(startSummary.p50, 1e-9)

        // 3. The same figures with 100,000 sets over a year added, same stage.
        stage.stopRestd()
        try HistoryFill.fill(
            stateDirectory: stage.stateDirectory, count: historySets, days: 365,
            nowUSec: UInt64(Clock.realtimeUSec))
        _ = try stage.startRestd()
        let full = try measure(
            context, stage: stage, starts: starts, cliRounds: cliRounds, quiet: quiet, withBaselines: true)
        // 4. CompleteSet of an exercise with a tenth of those sets (its records read among them).
        let fullClient = try stage.client()
        func filledSet() -> OpaquePointer {
            RawMessage.call(
                RestBus.name, RestBus.managerPath, RestBus.managerInterface, ManagerMember.completeSet,
                [
                    .string("bench"), .string("Exercise 3"),
                    .vardict(["reps": .uint32(5), "weight_kg": .double(62.5), "rest_usec": .uint64(rest)]),
                ])
        }
        for _ in 0..<5 { _ = try fullClient.timedCall(filledSet()) }
        var fullSetTimes: [Double] = []
        for _ in 0..<calls { fullSetTimes.append(try fullClient.timedCall(filledSet()).seconds * 1000) }
        let fullSetSummary = Summary(fullSetTimes)!

        let statsTarget = 100.0
        let historyTarget = 30.0
        let sets = grouped(Double(historySets))
        return [
            Metric(
                8, "CompleteSet round trip (record set, end rest, start timer)", percentiles(setSummary),
                baseline:
                    "Start on the same timer, same run: \(percentiles(startSummary)); ratio of p50 \(fixed(ratio))",
                target: "p50 ≤ 2 × Start's", verdict: Verdict(ratio <= 2),
                values: setSummary.values.msKeys.merging(["start_p50_ms": startSummary.p50, "ratio_p50": ratio]) {
                    a, _ in a
                },
                note: "\(calls) of each, alternated, one call in flight"),
            Metric(
                8, "CompleteSet round trip with \(sets) sets (records read)", percentiles(fullSetSummary),
                baseline: "empty history: \(percentiles(setSummary))",
                target: "p50 ≤ 2 × the empty history's", verdict: Verdict(fullSetSummary.p50 <= 2 * setSummary.p50),
                values: fullSetSummary.values.msKeys.merging(["empty_p50_ms": setSummary.p50]) { a, _ in a },
                note: "\(calls) calls, one in flight, an exercise with \(grouped(Double(historySets / 10))) sets"),
            againstEmptyHistory(
                "restctl stats --since 365d, \(sets) sets", full: full.stats, empty: empty.stats,
                targetMilliseconds: statsTarget, note: "\(cliRounds) runs, spawn to exit"),
            againstEmptyHistory(
                "restctl history --since 7d, \(sets) sets in a year", full: full.history, empty: empty.history,
                targetMilliseconds: historyTarget,
                note: "\(cliRounds) runs, spawn to exit; about \(historySets * 7 / 365) sets printed"),
            Metric(
                8, "  CPU time per restctl history call",
                "restd \(fixed(full.historyCPU.restd, 1)) ms, restctl \(fixed(full.historyCPU.restctl, 1)) ms",
                baseline:
                    "empty history: restd \(fixed(empty.historyCPU.restd, 1)) ms, "
                    + "restctl \(fixed(empty.historyCPU.restctl, 1)) ms",
                values: [
                    "restd_ms": full.historyCPU.restd, "restctl_ms": full.historyCPU.restctl,
                    "empty_restd_ms": empty.historyCPU.restd, "empty_restctl_ms": empty.historyCPU.restctl,
                ],
                note: "restd's CPU time over the runs, and restctl's (getrusage of the waited-for children), per run"),
            Metric(
                8, "  the same SetRows call by C clients (reply read and printed)",
                full.sameCall.isEmpty
                    ? "neither busctl nor dbus-send is installed"
                    : full.sameCall.map { "\($0.name) median \(fixed($0.times.p50, 1)) ms" }.joined(separator: ", "),
                baseline: "restctl history: median \(fixed(full.history.p50, 1)) ms",
                values: Dictionary(uniqueKeysWithValues: full.sameCall.map { ("\($0.name)_p50_ms", $0.times.p50) }),
                note: "\(cliRounds) runs each, spawn to exit: what any client of this reply waits for"),
            Metric(
                8, "  libdbus loading that reply (restd, the bus and restctl each do)",
                full.replyLoad.map {
                    "\(fixed($0.rows.milliseconds, 2)) ms a load, \(fixed($0.rows.milliseconds * 3, 1)) ms for the three"
                } ?? "not measured",
                baseline: full.replyLoad.map {
                    "the same sets as Sets' dictionaries: \(fixed($0.entries.milliseconds, 2)) ms a load, "
                        + "\(grouped(Double($0.entries.bytes) / 1000)) KB"
                } ?? "",
                values: full.replyLoad.map {
                    [
                        "load_ms": $0.rows.milliseconds, "three_loads_ms": $0.rows.milliseconds * 3,
                        "reply_bytes": Double($0.rows.bytes), "sets_load_ms": $0.entries.milliseconds,
                        "sets_reply_bytes": Double($0.entries.bytes),
                    ]
                } ?? [:],
                note: full.replyLoad.map {
                    "\(grouped(Double($0.rows.bytes) / 1000)) KB; dbus_message_demarshal, \(cliRounds) loads, median"
                } ?? ""),
            Metric(
                8, "Start-up to READY=1 with \(sets) sets", "median \(fixed(full.startup.p50, 1)) ms",
                baseline: "empty history: median \(fixed(empty.startup.p50, 1)) ms",
                target: "unchanged within noise", verdict: Verdict(full.startup.p50 <= empty.startup.p50 * 1.25 + 2),
                values: ["p50_ms": full.startup.p50, "empty_p50_ms": empty.startup.p50], note: "\(starts) starts each"),
            Metric(
                8, "Idle RSS with \(sets) sets (after stats and history)",
                "\(fixed(Double(full.rssKiB) / 1024, 1)) MiB",
                baseline: "empty history: \(fixed(Double(empty.rssKiB) / 1024, 1)) MiB",
                target: "unchanged within noise",
                verdict: Verdict(Double(full.rssKiB) <= Double(empty.rssKiB) * 1.15 + 512),
                values: ["rss_kib": Double(full.rssKiB), "empty_rss_kib": Double(empty.rssKiB)]),
            Metric(
                8, "Idle wake-ups after sets, stats and history", "\(full.wakeUps) in \(fixed(quiet, 0)) s",
                baseline: "empty history: \(empty.wakeUps)", target: "0",
                verdict: Verdict(full.wakeUps == 0 && empty.wakeUps == 0),
                values: ["wakeups": Double(full.wakeUps), "empty_wakeups": Double(empty.wakeUps)],
                note: "a rest of 1 h running; pruning rides on commits"),
        ]
    }

    struct Figures {
        var stats: Summary
        var history: Summary
        /// CPU time per `restctl history` call, in ms: restd's (its loop busy with the call) and
        /// restctl's own (start-up, decoding, printing). Unlike the wall-clock figures, these do
        /// not move with the machine's load.
        var historyCPU: (restd: Double, restctl: Double)
        /// The same SetRows call by C clients (busctl, dbus-send), when installed.
        var sameCall: [(name: String, times: Summary)]
        /// One load by libdbus (ms, median) and the size of the SetRows reply restctl reads, and
        /// of the Sets reply of the same sets.
        var replyLoad: (rows: (milliseconds: Double, bytes: Int), entries: (milliseconds: Double, bytes: Int))?
        var startup: Summary
        var rssKiB: Int
        var wakeUps: Int
    }

    /// Start-up (restd restarted `starts` times on the stage's state), then the CLI reads, then
    /// idle RSS and wake-ups of the last restd. `withBaselines`: also what the history read is
    /// compared with (the same call by C clients, libdbus loading its reply), for a full history.
    static func measure(
        _ context: BenchContext, stage: Stage, starts: Int, cliRounds: Int, quiet: Double, withBaselines: Bool
    ) throws -> Figures {
        var startup: [Double] = []
        var restd = try stage.startRestd()
        for _ in 0..<starts {
            restd = try stage.startRestd()
            startup.append(restd.startupSeconds * 1000)
        }
        let environment = ChildEnvironment.make(["DBUS_SESSION_BUS_ADDRESS": stage.bus.address])
        // One set, so that a rest runs and the history's commit path (pruning included) is warm.
        let client = try stage.client()
        try client.manager(
            ManagerMember.completeSet,
            [.string("bench"), .string("Squat"), .vardict(["rest_usec": .uint64(3_600_000_000)])])
        let devNull = open("/dev/null", O_WRONLY | O_CLOEXEC)
        guard devNull >= 0 else { throw BenchError("cannot open /dev/null") }
        defer { close(devNull) }
        /// CPU seconds of the children waited for so far (restctl's runs).
        func childrenCPU() -> Double {
            var usage = rusage()
            getrusage(RUSAGE_CHILDREN.rawValue, &usage)
            return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
                + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        }
        func time(_ arguments: [String], of executable: String? = nil) throws -> [Double] {
            let executable = executable ?? context.restctl
            let command = ([executable] + arguments).joined(separator: " ")
            guard captureOutput(executable, arguments, environment: environment) != nil else {
                throw BenchError("\(command) failed")
            }
            var times: [Double] = []
            for _ in 0..<cliRounds {
                let started = KernelClock.monotonicSeconds
                let child = try ChildProcess(
                    executable: executable, arguments: arguments, environment: environment, stdout: devNull)
                let status = child.waitBlocking().status
                guard status == 0 else { throw BenchError("\(command) exited with status \(status)") }
                times.append((KernelClock.monotonicSeconds - started) * 1000)
            }
            return times
        }
        let stats = try time(["stats", "--since", "365d"])
        let restdMeter = CPUMeter(pid: restd.pid)
        let restctlBefore = childrenCPU()
        let history = try time(["history", "--since", "7d"])
        let historyCPU = (
            restd: restdMeter.read().seconds / Double(cliRounds) * 1000,
            restctl: (childrenCPU() - restctlBefore) / Double(cliRounds) * 1000
        )
        // The call restctl makes (SetRows of the last 7 days, a page of 10,000), made by two C
        // clients: the same reply read and printed by busctl and dbus-send.
        let since = UInt64(Clock.realtimeUSec) - 7 * 86_400_000_000
        var sameCall: [(name: String, times: Summary)] = []
        if withBaselines, let busctl = which("busctl") {
            let arguments = [
                "--address=\(stage.bus.address)", "call", RestBus.name, RestBus.historyPath, RestBus.historyInterface,
                HistoryMember.setRows, "ttsu", "\(since)", "0", "", "10000",
            ]
            sameCall.append(("busctl", Summary(try time(arguments, of: busctl))!))
        }
        if withBaselines, let dbusSend = which("dbus-send") {
            let arguments = [
                "--bus=\(stage.bus.address)", "--print-reply", "--dest=\(RestBus.name)", RestBus.historyPath,
                "\(RestBus.historyInterface).\(HistoryMember.setRows)", "uint64:\(since)", "uint64:0",
                "string:", "uint32:10000",
            ]
            sameCall.append(("dbus-send", Summary(try time(arguments, of: dbusSend))!))
        }
        // The floor under any client of this reply: libdbus validates it as it loads it, in
        // restd (its body written whole, then loaded), in the dbus-daemon and in the client.
        // The same sets as Sets' dictionaries show what the structures save.
        func load(_ member: String) throws -> (milliseconds: Double, bytes: Int) {
            try client.replyLoad(
                RawMessage.call(
                    RestBus.name, RestBus.historyPath, RestBus.historyInterface, member,
                    [.uint64(since), .uint64(0), .string(""), .uint32(10_000)]), rounds: cliRounds)
        }
        let replyLoad =
            withBaselines ? (rows: try load(HistoryMember.setRows), entries: try load(HistoryMember.sets)) : nil
        Clock.sleep(1)  // the live broadcast of the set goes out at the end of its interval
        let rss = Proc.rssKiB(restd.pid) ?? 0
        let wakeUps = try WakeUps.count([restd.pid], over: quiet).totals[0].total
        return Figures(
            stats: Summary(stats)!, history: Summary(history)!, historyCPU: historyCPU, sameCall: sameCall,
            replyLoad: replyLoad, startup: Summary(startup)!,
            rssKiB: rss,
            wakeUps: wakeUps)
    }
}
