/// Why a timer operation was refused; each case carries a full sentence for the caller.
public enum TimerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An argument is malformed or out of range.
    case invalidArgs(String)
    /// The named timer does not exist.
    case noSuchTimer(String)
    /// The operation does not apply to the timer's current state.
    case invalidState(String)
    /// Accepting the request would exceed a configured limit.
    case limitExceeded(String)

    /// The sentence explaining the refusal.
    public var message: String {
        switch self {
        case .invalidArgs(let message), .noSuchTimer(let message),
            .invalidState(let message), .limitExceeded(let message):
            message
        }
    }

    public var description: String { message }
}
