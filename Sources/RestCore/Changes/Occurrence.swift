/// What happens to restd, beside what callers ask of it (`Command`): the other half of the
/// messages `Books` plans. restd's own producers (its timers, the recovery service, the strap,
/// the clock watcher) post them; none can be refused.
public enum Occurrence: Sendable {
    /// The due instant: running timers past their deadline expire, pre-alerts are due, old timers
    /// go. `strapsLost` names the rests whose strap was lost by then, planned with it in one
    /// change (`TimerBook.due`); a rest that runs on is marked only when `marksRunning` (not in
    /// the catch-up before a caller's command, which writes nothing before its own plan).
    case due(strapsLost: Set<TimerID>, marksRunning: Bool)
    /// The rest on `timer` recovered at `atBoottimeUSec`, the heart rate then `bpm`, with how it
    /// recovered (`metrics`, kept with the rest).
    case recovered(TimerID, bpm: Int?, atBoottimeUSec: USec, metrics: RecoveryMetrics)
    /// The strap of the rest on this timer was lost: it runs to its planned maximum.
    case strapLost(TimerID)
    /// The strap of the rest on this timer is back: recovery may end it again.
    case strapBack(TimerID)
    /// How heart rate recovered so far in each followed rest, kept with its open rest until it
    /// is next written (before a change is planned, so that a rest ended by it keeps them).
    case recoveryNoted([TimerID: RecoveryMetrics])
    /// RR intervals (ms) from a strap, kept with every rest in progress until it is next written.
    case rrIntervals([Int])
    /// CLOCK_REALTIME was set: it has moved `offsetUSec` against CLOCK_BOOTTIME since the
    /// running timers' wall-clock instants were last published (`WallClockSteps.step`); from
    /// `WallClockSteps.thresholdUSec` on, they are published again.
    case wallClockStepped(offsetUSec: Int64)
    /// The workout in progress may have been left untouched past `[workout] abandon_after`.
    case workoutAbandonDue
    /// A followed rest's heart rate, once restd stops following it.
    case heartRateTrace(HeartRateTrace)
}

/// One message to restd: a caller's `Command`, or an `Occurrence`. `Books` says what the history
/// must tell about it (`questions`), plans it (`plan`) and applies the plan (`apply`).
public enum Change: Sendable {
    case command(Command)
    case occurrence(Occurrence)
}
