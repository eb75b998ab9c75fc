import RestCore

/// What one carried-out change did, as the daemon's parts hear of it (`StateService.observers`)
/// and as `StateService.perform` returns it to the caller that asked for it.
struct Committed {
    /// The timer events, applied to the books; often none (a workout that moved).
    var events: [TimerEvent] = []
    /// The set recorded, with the rest it started.
    var set: PlannedSet?
    /// What a fix of the history did (undo, delete, edit, rename).
    var fixed: FixedSets?
    /// The workout, when it started, moved or ended.
    var workout: WorkoutChange?
    /// What an import added (or, dry, would add).
    var imported: ImportOutcome?

    struct WorkoutChange {
        /// The workout in progress now; nil when none is.
        var current: ActiveWorkout?
        /// The summary of the workout that just ended, if one did.
        var ended: WorkoutSummary?
    }
}
