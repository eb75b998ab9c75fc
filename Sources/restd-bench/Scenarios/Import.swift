import Clocks
import DBusKit
import Foundation
import Glibc
import RestCore
import RestProtocol

/// Scenario 11: a file of 100,000 sets imported as restctl sends it: in imports of at most
/// `HistoryImport.maxRows` sets (whole workouts), each staged with AddImportRows in calls of
/// 5,000, all staged before the first CommitImport. restd is one thread, so the time a call
/// takes is the time its loop does nothing else (a timer due then fires late by as much): each
/// call must stay short. Then the same file again (every key found, nothing added), and
/// restd's memory while the whole file is staged.
enum ImportScenario {
    static func run(_ context: BenchContext) throws -> [Metric] {
        let rows = context.size(100_000, smoke: 2_000)
        let batchSize = 5_000
        let partSize = HistoryImport.maxRows
        let stage = try context.stage()
        let restd = try stage.startRestd()
        let client = try stage.client()
        let emptyRSS = Proc.rssKiB(restd.pid) ?? 0

        let parts = makeParts(
            rows: rows, partSize: partSize, batchSize: batchSize, nowUSec: UInt64(Clock.realtimeUSec))
        let first = try importOnce(client, parts: parts, restdPID: restd.pid)
        let again = try importOnce(client, parts: parts, restdPID: restd.pid)
        guard first.added == rows, again.added == 0 else {
            throw BenchError("the import added \(first.added) of \(rows) sets, and \(again.added) again")
        }
        let afterRSS = Proc.rssKiB(restd.pid) ?? 0
        stage.stopRestd()

        let target = 250.0
        let count = grouped(Double(rows))
        let batches = Summary(first.batchMilliseconds)!
        let commits = Summary(first.commitMilliseconds)!
        let commitsAgain = Summary(again.commitMilliseconds)!
        let commitCPU = Summary(first.commitCPUMilliseconds)!
        let commitCPUAgain = Summary(again.commitCPUMilliseconds)!
        let part = "\(parts.count) imports of at most \(grouped(Double(partSize)))"
        return [
            Metric(
                11, "AddImportRows, \(grouped(Double(batchSize))) rows a call", percentiles(batches),
                target: "max ≤ \(Int(target)) ms", verdict: Verdict(batches.max <= target),
                values: batches.values.msKeys,
                note: "\(first.batchMilliseconds.count) calls, one in flight: each row checked as a set is, then staged"
            ),
            Metric(
                11, "CommitImport of up to \(grouped(Double(partSize))) sets, all new", percentiles(commits, digits: 1),
                baseline:
                    "the whole file of \(count) sets: \(fixed(first.commitMilliseconds.reduce(0, +), 0)) ms of commits",
                target: "max ≤ \(Int(target)) ms", verdict: Verdict(commits.max <= target),
                values: commits.values.msKeys,
                note: "\(part), each planned and written in one transaction; restd's loop does nothing else meanwhile"),
            Metric(
                11, "  restd's CPU time per CommitImport", "new: \(percentiles(commitCPU, digits: 1))",
                baseline: "none added: \(percentiles(commitCPUAgain, digits: 1))",
                values: commitCPU.values.msKeys.merging(["again_p50_ms": commitCPUAgain.p50]) { a, _ in a },
                note:
                    "from /proc (10 ms ticks): unlike the wall-clock figures, it does not grow with the machine's load"),
            Metric(
                11, "CommitImport of up to \(grouped(Double(partSize))) sets again, none added",
                percentiles(commitsAgain, digits: 1),
                baseline: "AddImportRows again: max \(fixed(Summary(again.batchMilliseconds)!.max, 1)) ms",
                target: "max ≤ \(Int(target)) ms", verdict: Verdict(commitsAgain.max <= target),
                values: commitsAgain.values.msKeys,
                note: "every key found among the sets imported before"),
            Metric(
                11, "restd RSS with \(count) sets staged", "\(fixed(Double(first.stagedKiB) / 1024, 1)) MiB",
                baseline:
                    "before: \(fixed(Double(emptyRSS) / 1024, 1)) MiB; after both imports: "
                    + "\(fixed(Double(afterRSS) / 1024, 1)) MiB",
                values: [
                    "staged_rss_kib": Double(first.stagedKiB), "empty_rss_kib": Double(emptyRSS),
                    "after_rss_kib": Double(afterRSS),
                ]),
        ]
    }

    /// `rows` sets over the last 300 days, one workout a day of ten exercises, as AddImportRows'
    /// arguments: imports of whole workouts of at most `partSize` sets, `batchSize` a call.
    private static func makeParts(rows: Int, partSize: Int, batchSize: Int, nowUSec: UInt64) -> [[DBusValue]] {
        let rowType = DBusType.structure([
            .string, .string, .string, .uint32, .uint64, .uint32, .double, .boolean, .boolean, .string,
        ])
        let days = 300
        let perDay = (rows + days - 1) / days
        let dayUSec: UInt64 = 86_400_000_000
        var parts: [[DBusValue]] = []
        var part: [[DBusValue]] = [[]]
        var inPart = 0
        for index in 0..<rows {
            let day = index / perDay
            let inDay = index % perDay
            if inDay == 0 && inPart + perDay > partSize && inPart > 0 {
                parts.append(part.map { .array(rowType, $0) })
                part = [[]]
                inPart = 0
            }
            if part[part.count - 1].count == batchSize { part.append([]) }
            let exercise = inDay % 10
            let at = nowUSec - UInt64(days - day) * dayUSec + UInt64(inDay) * 30_000_000
            part[part.count - 1].append(
                .structure([
                    .string("day \(day) 07:00"), .string("Workout \(day)"), .string("Exercise \(exercise)"),
                    .uint32(UInt32(inDay / 10 + 1)), .uint64(at), .uint32(UInt32(5 + index % 8)),
                    .double(Double(20 + index % 80)), .boolean(inDay < 10), .boolean(index % 17 == 0),
                    .string(exercise % 2 == 0 ? "Legs" : "Back"),
                ]))
            inPart += 1
        }
        if inPart > 0 { parts.append(part.map { .array(rowType, $0) }) }
        return parts
    }

    private struct ImportTimes {
        var batchMilliseconds: [Double] = []
        var commitMilliseconds: [Double] = []
        /// restd's CPU time per commit: what the call costs, whatever else runs on the machine.
        var commitCPUMilliseconds: [Double] = []
        var added = 0
        /// restd's RSS with every part staged, before the first commit.
        var stagedKiB = 0
    }

    private static func importOnce(
        _ client: BusClient, parts: [[DBusValue]], restdPID: pid_t
    ) throws -> ImportTimes {
        var times = ImportTimes()
        var handles: [String] = []
        for part in parts {
            let handle = try client.manager(ManagerMember.beginImport, [.string("hevy")]).first?.string ?? ""
            handles.append(handle)
            for batch in part {
                let message = RawMessage.call(
                    RestBus.name, RestBus.managerPath, RestBus.managerInterface, ManagerMember.addImportRows,
                    [.string(handle), batch])
                times.batchMilliseconds.append(try client.timedCall(message).seconds * 1000)
            }
        }
        times.stagedKiB = Proc.rssKiB(restdPID) ?? 0
        for handle in handles {
            let started = KernelClock.monotonicSeconds
            let cpu = CPUMeter(pid: restdPID)
            let reply = try client.manager(
                ManagerMember.commitImport, [.string(handle), .vardict([ImportKey.dryRun: .boolean(false)])])
            times.commitMilliseconds.append((KernelClock.monotonicSeconds - started) * 1000)
            times.commitCPUMilliseconds.append(cpu.read().seconds * 1000)
            if case .uint32(let added)? = reply.first?.vardictEntries?[ImportKey.setsAdded]?.unwrapped {
                times.added += Int(added)
            }
        }
        return times
    }
}
