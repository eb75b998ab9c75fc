import Clocks
import Foundation
import Glibc
import ProcessHarness
import SQLiteKit

/// Scenario 9: `restctl report` over a year of 100,000 sets (the history of scenario 8): how
/// long it takes, spawn to exit (the sets read from restd included), and how large the page is;
/// then what keeping a followed rest's heart rate costs restd, in that same state file.
enum TrainingReport {
    static func run(_ context: BenchContext) throws -> [Metric] {
        let rounds = context.size(5, smoke: 1)
        let historySets = context.size(100_000, smoke: 2_000)
        let stage = try context.stage()
        _ = try stage.startRestd()
        stage.stopRestd()
        try HistoryFill.fill(
            stateDirectory: stage.stateDirectory, count: historySets, days: 365, nowUSec: UInt64(Clock.realtimeUSec))
        let restd = try stage.startRestd()
        let page = stage.work.path("report.html")
        let environment = ChildEnvironment.make(["DBUS_SESSION_BUS_ADDRESS": stage.bus.address])
        let arguments = ["report", "--since", "365d", "--output", page]
        /// CPU seconds of the children waited for so far (restctl's runs).
        func childrenCPU() -> Double {
            var usage = rusage()
            getrusage(RUSAGE_CHILDREN.rawValue, &usage)
            return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
                + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        }
        // A first run, not timed: restd's pages of the history are read from disk once.
        guard captureOutput(context.restctl, arguments, environment: environment) != nil else {
            throw BenchError("restctl \(arguments.joined(separator: " ")) failed")
        }
        let restdMeter = CPUMeter(pid: restd.pid)
        let restctlBefore = childrenCPU()
        var times: [Double] = []
        for _ in 0..<rounds {
            let started = KernelClock.monotonicSeconds
            let child = try ChildProcess(executable: context.restctl, arguments: arguments, environment: environment)
            let status = child.waitBlocking().status
            guard status == 0 else { throw BenchError("restctl report exited with status \(status)") }
            times.append((KernelClock.monotonicSeconds - started) * 1000)
        }
        let restdCPU = restdMeter.read().seconds / Double(rounds) * 1000
        let restctlCPU = (childrenCPU() - restctlBefore) / Double(rounds) * 1000
        let bytes = (try? FileManager.default.attributesOfItem(atPath: page)[.size] as? Int) ?? 0
        let summary = Summary(times)!
        stage.stopRestd()
        let traceWrites = try heartRateWrites(
            stateDirectory: stage.stateDirectory, count: context.size(200, smoke: 5))
        let timeTarget = 1_000.0
        let sizeTarget = 2_000_000
        let sets = grouped(Double(historySets))
        return [
            Metric(
                9, "restctl report --since 365d, \(sets) sets",
                "median \(fixed(summary.p50, 0)) ms, max \(fixed(summary.max, 0)) ms",
                target: "≤ \(Int(timeTarget)) ms", verdict: Verdict(summary.p50 <= timeTarget),
                values: summary.values.msKeys,
                note:
                    "\(rounds) runs, spawn to exit: the sets read from restd (SetRows, 10,000 a call), the page made and written"
            ),
            Metric(
                9, "  CPU time per restctl report",
                "restctl \(fixed(restctlCPU, 0)) ms, restd \(fixed(restdCPU, 0)) ms",
                values: ["restctl_ms": restctlCPU, "restd_ms": restdCPU],
                note: "getrusage of the waited-for children; restd's CPU time over the runs, per run"),
            Metric(
                9, "Size of the report over \(sets) sets", "\(grouped(Double(bytes) / 1000)) KB",
                target: "≤ 2 MB", verdict: Verdict(bytes > 0 && bytes <= sizeTarget), values: ["bytes": Double(bytes)],
                note: "one HTML file, SVG and style sheet inline; a year of weekly top sets for ten exercises"),
            Metric(
                9, "Writing a followed rest's heart rate (3 min, 180 bytes)", percentiles(traceWrites),
                target: "≤ 1 ms per rest", verdict: Verdict(traceWrites.p50 <= 1),
                values: traceWrites.values.msKeys,
                note:
                    "\(traceWrites.count) transactions as restd writes one (the retention's prune, then the row; WAL, "
                    + "synchronous FULL) on the state file of \(sets) sets; at most one per rest, and none on an idle restd"
            ),
        ]
    }

    /// The time of `count` writes of a 3-minute trace into `rest_heart_rates` as restd makes them
    /// (`HeartRateSchema`: the traces older than the retention deleted, the row inserted, one
    /// transaction), on restd's own state file while restd is stopped.
    static func heartRateWrites(stateDirectory: String, count: Int) throws -> Summary {
        let database: SQLiteDatabase
        let insert: SQLiteStatement
        let prune: SQLiteStatement
        do {
            database = try SQLiteDatabase(path: stateDirectory + "/state.sqlite", create: false)
            try database.execute("PRAGMA synchronous = FULL")
            insert = try database.prepare(
                "INSERT OR REPLACE INTO rest_heart_rates (set_id, started_at_usec, bpm, target_bpm, minimum_usec, "
                    + "hold_usec, ended_after_usec, ending) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
            prune = try database.prepare("DELETE FROM rest_heart_rates WHERE started_at_usec < ?")
        } catch {
            throw BenchError("cannot write heart rates into the state file: \(error.reason)")
        }
        defer { try? database.close() }
        let now = Int64(Clock.realtimeUSec)
        let bpm = (0..<180).map { UInt8(150 - $0 / 4) }
        var times: [Double] = []
        for index in 0..<count {
            let started = KernelClock.monotonicSeconds
            do {
                try database.transaction { () throws(SQLiteError) in
                    try prune.run([.integer(now - 90 * 86_400_000_000)])
                    try insert.run([
                        .integer(Int64(2_000_000 + index)), .integer(now - Int64(count - index) * 240_000_000),
                        .blob(bpm), .real(120), .integer(60_000_000), .integer(10_000_000),
                        .integer(179_000_000), .text("recovered"),
                    ])
                }
            } catch {
                throw BenchError("could not write a heart rate: \(error.reason)")
            }
            times.append((KernelClock.monotonicSeconds - started) * 1000)
        }
        return Summary(times)!
    }
}
