import Foundation
import ProcessHarness

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Waits until `condition` holds: a precondition to wait for, never an assertion about timing,
/// so the timeout is generous. The one polling loop of the integration tests; everything that
/// waits for a state only visible by looking (a log line, a file, a property) goes through it.
///
/// - interval: how often to look (20 ms); when the condition also sends something (a value
///   refreshed until a reaction shows), this is its pace.
/// - givingUpIf: a reason the condition can no longer come, e.g. that the process it waits on
///   ended. It is read *before* each look, so what a process did before it ended is still seen.
/// - details: what to add to the error (a log, an output), so a failure shows what was there.
///
///     try waitUntil("restd to log \"ready\"", givingUpIf: { restd.termination.map { "restd \($0)" } },
///                   details: { "--- restd log:\n\(restd.log())" }) { restd.log().contains("ready") }
func waitUntil(
    _ description: String, timeout: Double = 30, interval: Double = 0.02,
    givingUpIf ended: () -> String? = { nil }, details: () -> String = { "" },
    _ condition: () throws -> Bool
) throws {
    let deadline = Deadline(secondsFromNow: timeout)
    func explained(_ text: String) -> String {
        let more = details()
        return more.isEmpty ? text : text + "\n" + more
    }
    while true {
        let reason = ended()
        if try condition() { return }
        if let reason { throw HarnessError.failed(explained("gave up waiting for \(description): \(reason)")) }
        guard !deadline.hasPassed else {
            throw HarnessError.timedOut(explained("waiting for \(description): not within \(timeout) s"))
        }
        usleep(useconds_t(interval * 1_000_000))
    }
}
