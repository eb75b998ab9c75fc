import Logging

/// A failure that may repeat at every rest (a notification server gone, a sound command that
/// fails): the first of a run is logged as a warning, the next ones only at debug level, and the
/// first success after them says that it works again.
struct RepeatedFailure {
    private let logger: Logger
    /// What the first success after failures says: "desktop notifications work again".
    private let recovered: Logger.Message
    private var failing = false

    init(logger: Logger, recovered: Logger.Message) {
        self.logger = logger
        self.recovered = recovered
    }

    /// A failure: `warning` if it is the first of a run, else `again` at debug level.
    mutating func failed(warning: @autoclosure () -> Logger.Message, again: @autoclosure () -> Logger.Message) {
        if failing {
            logger.debug(again())
            return
        }
        failing = true
        logger.warning(warning())
    }

    /// A success, which ends a run of failures.
    mutating func succeeded() {
        guard failing else { return }
        failing = false
        logger.info(recovered)
    }

    /// Forgets a run of failures without a word: what failed was replaced.
    mutating func forget() { failing = false }
}
