/// What a caller asks of restd: the one type every change from outside restd takes — a method
/// call on the bus, a notification's or a media player's button. `Books.plan` plans it (through
/// `TrainingBook.plan`) from the books, the history's facts read before (`HistoryFacts`) and the
/// time, without any I/O; restd's own changes are `Occurrence`s, planned the same way.
public enum Command: Sendable, Equatable {
    /// One timer's own operation, planned by `TimerBook.plan`.
    case timer(TimerCommand)
    /// A set is done: record it, end the rest before it, start the rest after it, chosen from the
    /// history and the configuration.
    case completeSet(TimerID, SetInput)
    /// A fix of sets already recorded: undo, delete, edit, rename.
    case fixHistory(HistoryFix)
    /// The workout's start, moves and end.
    case workout(WorkoutCommand)
    /// A reloaded configuration (`Reload`, SIGHUP): its limits and training settings, in force
    /// from now. Planned by `Books`, which holds both.
    case reload(TimerLimits, TrainingSettings)
    /// Sets of another app's export, added to the history at their own times in one
    /// transaction (or, dry, only counted).
    case importHistory(HistoryImport)
}
