import Localization

/// What a caller asks of the workout (`Command.workout`).
public enum WorkoutCommand: Sendable, Equatable {
    /// Start `plan`, whose file `source` held `text` ("" for a plan given as text).
    case start(WorkoutPlan, text: String, source: String)
    /// On to the next exercise without recording a set.
    case next
    /// Back to the previous exercise.
    case previous
    /// End the workout in progress, summed up.
    case end
}

/// The workout's own commands (start, next, previous, end) and its abandonment, planned like a
/// set: pure, returning the history changes the daemon commits in one transaction and then applies.
extension TrainingBook {
    /// Plans a workout command at `now`; End sums the workout up from `facts.workoutSoFar`.
    func planWorkout(
        _ command: WorkoutCommand, timers: TimerBook, facts: HistoryFacts, now: Instant
    ) throws(TimerError) -> ChangePlan {
        switch command {
        case .start(let plan, let text, let source):
            ChangePlan(events: [], history: try planWorkoutStart(plan, text: text, source: source, now: now.realtime))
        case .next: try planWorkoutMove(forward: true, timers: timers, now: now)
        case .previous: try planWorkoutMove(forward: false, timers: timers, now: now)
        case .end:
            // A rest still under way says nothing comes next; one that is over keeps what it said.
            ChangePlan(
                events: timers.settingNext(
                    "", on: restsSayingNext(timers).filter { timers.timer($0)?.state != .expired }, now: now),
                history: try planWorkoutEnd(now: now.realtime, soFar: facts.workoutSoFar).changes)
        }
    }

    /// Starts `plan` at `now`; refused while another workout runs (one at a time), and when a set
    /// of it would rest until recovered with a target the settings lack the figures for (else
    /// each of its sets would be refused).
    func planWorkoutStart(
        _ plan: WorkoutPlan, text: String, source: String, now: USec
    ) throws(TimerError) -> [HistoryChange] {
        if let workout {
            throw .invalidState(
                localized(
                    "the workout %1$s is in progress; end it first with 'restctl workout end'",
                    MessageText.quoted(workout.name)))
        }
        try checkRecoveryTargets(of: plan)
        let progress = WorkoutProgress(plan: plan, startedAtUSec: now)
        return [
            .workoutSaved(ActiveWorkout(progress: progress, planText: text, planSource: source, touchedAtUSec: now))
        ]
    }

    /// Refuses a plan whose rests would end on recovery with a share target (`%max`,
    /// `%reserve`) while `hr_max` or `resting_hr` is not configured, naming where it comes from.
    private func checkRecoveryTargets(of plan: WorkoutPlan) throws(TimerError) {
        for (index, block) in plan.blocks.enumerated() {
            for exercise in block.exercises {
                let name = try ExerciseName(parsing: exercise.name)
                do {
                    _ = try settings.recoveryRule(
                        exercise: settings.exercise(name), plan: [block.recovery, plan.recovery], asked: nil,
                        plannedUSec: 60_000_000)
                } catch {
                    let (workout, name) = (MessageText.quoted(plan.name), exercise.name)
                    throw .invalidArgs(
                        block.recovery.target != nil
                            ? localized(
                                "cannot start the workout %1$s: %2$s rests until recovered, and %3$s of its %4$s %5$d is a share — %6$s",
                                workout, name, "recovery_target", "[[exercise]]", index + 1, error.message)
                            : plan.recovery.target != nil
                                ? localized(
                                    "cannot start the workout %1$s: %2$s rests until recovered, and its %3$s is a share — %4$s",
                                    workout, name, "recovery_target", error.message)
                                : localized(
                                    "cannot start the workout %1$s: %2$s rests until recovered, and the configuration's recovery target is a share — %3$s",
                                    workout, name, error.message))
                }
            }
        }
    }

    /// Moves to the next exercise (`forward`) or back to the previous one without recording a set.
    /// The rests that said what came next (a set's rest whose `next` is the workout's, running,
    /// paused or over) say what comes now; a timer started by hand keeps its `next`.
    func planWorkoutMove(forward: Bool, timers: TimerBook, now: Instant) throws(TimerError) -> ChangePlan {
        var active = try activeWorkout()
        let before = active.progress.nextLabel
        let moved = forward ? active.progress.skipToNextBlock() : active.progress.backToPreviousBlock()
        guard moved else {
            throw .invalidState(
                forward
                    ? localized(
                        "this is the workout's last exercise; record its sets, or end the workout with 'restctl workout end'"
                    )
                    : localized("this is the workout's first set; there is no exercise before it"))
        }
        active.touchedAtUSec = now.realtime
        return ChangePlan(
            events: timers.settingNext(active.progress.nextLabel, on: restsSayingNext(timers, label: before), now: now),
            history: [.workoutSaved(active)])
    }

    /// The rests that say what the workout does next (a set's rest whose `next` is the workout's
    /// `label`), by id; a timer started by hand keeps its `next`. Moving on relabels them; ending
    /// the workout clears those still under way, as nothing comes next any more.
    private func restsSayingNext(_ timers: TimerBook, label: String? = nil) -> [TimerID] {
        guard let label = label ?? workout?.progress.nextLabel, !label.isEmpty else { return [] }
        return timers.timers.values.filter { $0.next == label && !$0.restSource.isEmpty }.map(\.id)
            .sorted { $0.rawValue < $1.rawValue }
    }

    /// Ends the workout in progress, summed up from `soFar`; one with no set done is discarded
    /// (no summary: nil).
    func planWorkoutEnd(
        now: USec, soFar: WorkoutSoFar, abandoned: Bool = false
    ) throws(TimerError)
        -> (changes: [HistoryChange], summary: WorkoutSummary?)
    {
        let active = try activeWorkout()
        let summary = soFar.summary(of: active, endedAtUSec: now, abandoned: abandoned)
        return summary.setsDone == 0 ? ([.workoutDiscarded], nil) : ([.workoutEnded(summary)], summary)
    }

    /// When the workout in progress is abandoned if left untouched: `[workout] abandon_after`
    /// after its last change; nil when none runs.
    public var workoutAbandonDeadline: USec? {
        workout.map { $0.touchedAtUSec.addingSaturated(settings.workoutAbandonAfterUSec) }
    }

    /// Whether the workout in progress was left untouched past its deadline at `now`.
    public func isWorkoutAbandonDue(now: USec) -> Bool {
        workoutAbandonDeadline.map { now >= $0 } ?? false
    }

    /// Ends the workout in progress as abandoned when it was left untouched past its deadline,
    /// summed up from `soFar`; it ended with its last change (discarded when no set was done).
    /// Nothing when none runs or it is not due.
    public func planWorkoutAbandon(now: USec, soFar: WorkoutSoFar) -> [HistoryChange] {
        guard let workout, isWorkoutAbandonDue(now: now) else { return [] }
        let summary = soFar.summary(of: workout, endedAtUSec: workout.touchedAtUSec, abandoned: true)
        return summary.setsDone == 0 ? [.workoutDiscarded] : [.workoutEnded(summary)]
    }

    private func activeWorkout() throws(TimerError) -> ActiveWorkout {
        guard let workout else {
            throw .invalidState(localized("no workout is in progress; start one with 'restctl workout start NAME'"))
        }
        return workout
    }
}
