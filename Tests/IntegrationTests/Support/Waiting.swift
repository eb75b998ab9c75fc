import Foundation
import ProcessHarness
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Waits (generous timeout, looking every 20 ms) until `condition` holds: a precondition to
/// wait for, never an assertion about timing.
func waitUntil(_ description: String, timeout: Double = 30, _ condition: () throws -> Bool) throws {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while try !condition() {
        guard Date() < deadline else { throw HarnessError.timedOut("waiting for \(description)") }
        usleep(20_000)
    }
}

/// Context switches of every thread of `pid` so far: unchanged means it never woke up.
func contextSwitches(_ pid: Int32) throws -> Int {
    let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
    var total = 0
    for task in tasks {
        let status = try String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)
        for line in status.split(separator: "\n") where line.contains("ctxt_switches:") {
            total += Int(line.split(separator: "\t").last.map(String.init) ?? "") ?? 0
        }
    }
    return total
}

/// The context switches once a process has gone to sleep: right after it did something it may
/// still be on its way into poll(2), and that last switch is not a wake-up. Readings 250 ms
/// apart until two agree (a precondition, with a generous limit).
func settledContextSwitches(_ pid: Int32) throws -> Int {
    var last = try contextSwitches(pid)
    for _ in 0..<120 {
        usleep(250_000)
        let now = try contextSwitches(pid)
        if now == last { return now }
        last = now
    }
    throw HarnessError.timedOut("process \(pid) kept running for 30 s")
}
