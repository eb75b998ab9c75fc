/// One change planned by `TimerBook`: persisted first, then applied and announced.
public enum TimerEvent: Sendable, Equatable {
    /// A timer with a new id.
    case added(RestTimer)
    /// An existing timer changed; Start on an existing id replaces it in place.
    case changed(from: RestTimer, to: RestTimer)
    /// A timer went away.
    case removed(RestTimer)
    /// A timer ran out; accompanies the `.changed` that moved it to `.expired`.
    /// `apply` ignores it: it exists so the daemon can signal and notify.
    case expired(id: TimerID, deadlineUSec: USec, firedUSec: USec)
    /// A running timer's time left dropped to its pre-alert time (`warnUSec`); accompanies
    /// the `.changed` that set `warned`, once per run. `remainingUSec` is the time left then.
    /// `apply` ignores it: it exists so the daemon can notify.
    case warning(id: TimerID, remainingUSec: USec, deadlineUSec: USec)

    /// The id of the timer the event is about.
    public var timerID: TimerID {
        switch self {
        case .added(let timer), .removed(let timer), .changed(from: _, to: let timer):
            timer.id
        case .expired(let id, _, _), .warning(let id, _, _):
            id
        }
    }
}
