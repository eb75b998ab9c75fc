import Foundation
import ProcessHarness
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension RestdProcess {
    /// Waits until restd's log (its stderr, a plain file) contains `text`; returns the log.
    /// A condition to wait for, not a delay: it looks every 20 ms and gives up early, with the
    /// log, if restd exits first.
    @discardableResult
    func waitForLog(containing text: String, timeout: Double = 30) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let log = self.log()
            if log.contains(text) { return log }
            if let termination {
                throw HarnessError.failed("restd \(termination) before logging \"\(text)\"\n--- restd log:\n\(log)")
            }
            guard Date() < deadline else {
                throw HarnessError.timedOut("restd did not log \"\(text)\" within \(timeout) s\n--- restd log:\n\(log)")
            }
            usleep(20_000)
        }
    }
}
