/// What a caller asks of one timer (`Command.timer`), planned by `TimerBook.plan`.
public enum TimerCommand: Sendable, Equatable {
    /// Start `id` for a duration, replacing any timer of that name.
    case start(TimerID, durationUSec: USec, options: TimerOptions)
    case pause(TimerID)
    case resume(TimerID)
    /// Add (positive) or remove (negative) time.
    case adjust(TimerID, deltaUSec: Int64)
    /// Run again for the last duration, with the same label and next.
    case restart(TimerID)
    case cancel(TimerID)
    /// End the rest now, on purpose (a Skip button): over, without "Rest over".
    case skip(TimerID)
    /// Stop the alarm of a rest that is over; nothing else changes.
    case silence(TimerID)

    /// The timer the command is about.
    public var timerID: TimerID {
        switch self {
        case .start(let id, _, _), .pause(let id), .resume(let id), .adjust(let id, _), .restart(let id),
            .cancel(let id), .skip(let id), .silence(let id):
            id
        }
    }
}
