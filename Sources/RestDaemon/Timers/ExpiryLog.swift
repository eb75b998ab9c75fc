import Logging
import RestCore

/// One journal entry per expiry, with TIMER_ID, how late it was, and a fixed MESSAGE_ID.
struct ExpiryLog {
    let logger: Logger

    /// A listener of committed timer events.
    func timersChanged(_ events: [TimerEvent]) {
        for case .expired(let id, let deadline, let fired) in events {
            let late = fired > deadline ? fired - deadline : 0
            logger.info(
                "timer \(id.rawValue) expired",
                metadata: [
                    LogMessageID.metadataKey: .string(LogMessageID.timerExpired),
                    "timer_id": .string(id.rawValue),
                    "deadline_usec": .stringConvertible(deadline),
                    "late_usec": .stringConvertible(late),
                ])
        }
    }
}
