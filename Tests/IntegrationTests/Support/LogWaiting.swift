import Foundation

extension RestdProcess {
    /// Waits until restd's log (its stderr, a plain file) holds `text` at least `count` times,
    /// for what only the log shows; returns the log. Gives up early, with the log, if restd
    /// exits first.
    @discardableResult
    func waitForLog(containing text: String, count: Int = 1, timeout: Double = 30) throws -> String {
        var log = ""
        let what = count == 1 ? "restd to log \"\(text)\"" : "restd to log \"\(text)\" \(count) times"
        try waitUntil(
            what, timeout: timeout, givingUpIf: { termination.map { "restd \($0)" } },
            details: { "--- restd log:\n\(log)" }
        ) {
            log = self.log()
            return log.components(separatedBy: text).count - 1 >= count
        }
        return log
    }
}
