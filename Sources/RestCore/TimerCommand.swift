/// What a caller asks of the timers. Every change that comes from outside restd — a method call
/// on the bus, a notification's button — is one of these, planned by `TimerBook.plan`; restd's
/// own changes (expiry, clean-up, a wall-clock step) come from `due` and `wallClockChanged`.
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
    /// A set is done: record it, end the rest before it, start the rest after it. Planned by
    /// `TrainingBook.plan`, which chooses that rest from the history and the configuration.
    case completeSet(TimerID, SetInput)

    /// The timer the command is about.
    public var timerID: TimerID {
        switch self {
        case .start(let id, _, _), .pause(let id), .resume(let id), .adjust(let id, _), .restart(let id),
            .cancel(let id), .skip(let id), .completeSet(let id, _):
            id
        }
    }
}

extension TimerBook {
    /// Plans `command`: the events that carrying it out at `now` would cause, or the refusal.
    /// Nothing changes until the caller applies the events (after storing them). A set is the
    /// one command planned by `TrainingBook.plan` instead, which needs the history to choose its
    /// rest; asked here, it is refused.
    public func plan(_ command: TimerCommand, now: Instant) throws(TimerError) -> [TimerEvent] {
        switch command {
        case .start(let id, let duration, let options):
            try start(id, durationUSec: duration, options: options, now: now)
        case .pause(let id): try pause(id, now: now)
        case .resume(let id): try resume(id, now: now)
        case .adjust(let id, let delta): try adjust(id, deltaUSec: delta, now: now)
        case .restart(let id): try restart(id, now: now)
        case .cancel(let id): try cancel(id, now: now)
        case .skip(let id): try skip(id, now: now)
        case .completeSet: throw .invalidArgs("a set is planned by TrainingBook.plan, which chooses its rest")
        }
    }
}
