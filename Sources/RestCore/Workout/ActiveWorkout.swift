/// The workout in progress, as the state keeps it: where the person is in the plan, the plan's
/// own text (copied when it started, so a file changed or deleted meanwhile changes nothing),
/// and when it was last touched (an untouched workout is abandoned after `[workout] abandon_after`).
public struct ActiveWorkout: Sendable, Equatable {
    public var progress: WorkoutProgress
    /// The plan file's text as it was read at the start; it is parsed again when restd restarts.
    public var planText: String
    /// Where the plan came from (a path, or "" for a plan given as text), for messages.
    public var planSource: String
    /// CLOCK_REALTIME µs of the last change (start, set, next, previous).
    public var touchedAtUSec: USec

    public init(progress: WorkoutProgress, planText: String, planSource: String, touchedAtUSec: USec) {
        self.progress = progress
        self.planText = planText
        self.planSource = planSource
        self.touchedAtUSec = touchedAtUSec
    }

    public var name: String { progress.plan.name }
}
