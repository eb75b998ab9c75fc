import Foundation
import ProcessHarness

/// What /proc says about a process: its threads, and how often they were scheduled.
enum ProcessActivity {
    /// The number of threads of `pid`.
    static func threads(_ pid: Int32) throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").count
    }

    /// Context switches (voluntary and not) of every thread of `pid` so far: unchanged means
    /// that no thread of it ran.
    static func contextSwitches(_ pid: Int32) throws -> Int {
        var total = 0
        for task in try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") {
            let status = try String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)
            for line in status.split(separator: "\n") where line.contains("ctxt_switches:") {
                total += Int(line.split(separator: "\t").last.map(String.init) ?? "") ?? 0
            }
        }
        return total
    }

    /// The context switches once `pid` has gone to sleep: right after it handled something it
    /// may still be on its way into its poll, and that last switch is not a wake-up. Readings
    /// 250 ms apart until two agree (a precondition, with a generous limit).
    static func settledContextSwitches(_ pid: Int32) throws -> Int {
        var last = try contextSwitches(pid)
        for _ in 0..<120 {
            // A quiet window of its own, not `waitUntil`: two readings must lie 250 ms apart.
            usleep(250_000)
            let now = try contextSwitches(pid)
            if now == last { return now }
            last = now
        }
        throw HarnessError.timedOut("process \(pid) kept running for 30 s")
    }

    /// How many times `pid` woke up during `seconds` of quiet, counted once it had settled.
    /// The window is a suspension, not a blocked thread: Swift Testing's pool has a thread a
    /// core, and the other tests run meanwhile.
    static func wakeUps(_ pid: Int32, over seconds: Double) async throws -> Int {
        let before = try settledContextSwitches(pid)
        // The window in which nothing may happen: no condition to wait for.
        try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
        return try contextSwitches(pid) - before
    }
}
