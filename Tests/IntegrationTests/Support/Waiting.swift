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
