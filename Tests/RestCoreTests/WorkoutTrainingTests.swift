import RestCore
import Testing

/// A workout walked through with `set` and no exercise: the plan's sets, rests and next-labels,
/// then its summary; and the workout's own commands.
@Suite struct WorkoutTrainingTests {
    /// Squat 2 × 5 at 100 kg (rest 3 min, 4 min after a failed set); a superset of Curl and
    /// Triceps pushdown, 2 rounds, 90 s after each; Rows 1 set, with no rest of its own.
    let plan = WorkoutPlan(
        name: "Push day",
        blocks: [
            .init(
                exercises: [.init(name: "Squat", sets: 2, reps: 5, weightKG: 100)], restUSec: 180 * second,
                failedRestUSec: 240 * second),
            .init(
                exercises: [
                    .init(name: "Curl", sets: 2, reps: 12, weightKG: 15), .init(name: "Triceps pushdown", sets: 2),
                ],
                restUSec: 90 * second),
            .init(exercises: [.init(name: "Rows", sets: 2)]),
        ])

    private func started() throws -> Session {
        var session = Session()
        try session.run(.workout(.start(plan, text: "", source: "push.toml")))
        return session
    }

    @Test("a plan's recovery keys: its [[exercise]]'s over the plan's, over the configuration; the set's own flag wins")
    func planRecovery() throws {
        var recoveringPlan = plan
        recoveringPlan.recovery = RecoverySettings(untilRecovered: true, target: .drop(25))
        recoveringPlan.blocks[1].recovery = RecoverySettings(untilRecovered: false)
        var settings = TrainingSettings()
        settings.exercises["squat"] = .init(recovery: RecoverySettings(target: .bpm(110), holdUSec: 4 * second))
        var session = Session(settings)
        try session.run(.workout(.start(recoveringPlan, text: "", source: "push.toml")))
        _ = try session.set(reps: nil, weightKg: nil, failed: false)
        let squat = try #require(session.timers.timer(tid("default"))?.recovery)
        #expect(squat.target == .drop(bpm: 25) && squat.holdUSec == 4 * second && squat.plannedUSec == 180 * second)
        try session.run(.completeSet(tid("default"), SetInput(untilRecovered: false)))
        #expect(session.timers.timer(tid("default"))?.recovery == nil)
        // The superset says no; its rounds rest as timed rests.
        _ = try session.set(reps: nil, weightKg: nil, failed: false)
        _ = try session.set(reps: nil, weightKg: nil, failed: false)
        #expect(session.timers.timer(tid("default"))?.label == "Triceps pushdown")
        #expect(session.timers.timer(tid("default"))?.recovery == nil)
    }

    @Test("a plan resting until recovered on a share of HRmax without hr_max is refused at its start")
    func planShareTargetNeedsItsFigures() throws {
        var sharing = plan
        sharing.blocks[1].recovery = RecoverySettings(untilRecovered: true, target: .shareOfMax(0.6))
        let book = TrainingBook()
        #expect(
            throws: TimerError.invalidArgs(
                "cannot start the workout \"Push day\": Curl rests until recovered, and recovery_target of its "
                    + "[[exercise]] 2 is a share — the recovery target 60%max needs your HRmax: set hr_max in "
                    + "[recovery] of config.toml")
        ) {
            try book.plan(
                .workout(.start(sharing, text: "", source: "push.toml")), timers: TimerBook(), facts: HistoryFacts(),
                now: Instant(realtime: 0, boottime: 0))
        }
        // With hr_max configured it starts.
        var settings = TrainingSettings()
        settings.maxHeartRate = 190
        #expect(
            try !TrainingBook(settings: settings).plan(
                .workout(.start(sharing, text: "", source: "")), timers: TimerBook(), facts: HistoryFacts(),
                now: Instant(realtime: 0, boottime: 0)
            ).isEmpty)
    }

    @Test func aSetWithNoExerciseFollowsThePlanToTheEndAndSumsItUp() throws {
        var session = try started()
        var seen: [String] = []
        for index in 0..<8 {
            let set = try session.set(reps: nil, weightKg: nil, failed: index == 1)
            let timer = session.timers.timer(tid("default"))
            seen.append(
                "\(set.record.exercise) \(set.record.reps.map(String.init) ?? "-")×\(set.record.weightKg ?? 0) "
                    + "rest \(set.rest.usec / second) \(set.rest.sourceText) next \(timer?.next ?? "(no timer)") "
                    + "\(set.workout?.progress.setsDone ?? -1)/\(set.workout?.progress.plan.setsPlanned ?? -1)")
            session.wait(30 * second)
        }
        #expect(
            seen == [
                "Squat 5×100.0 rest 180 plan next Squat 2/2 1/8",
                "Squat 5×100.0 rest 240 plan_failed_rest next Next: Curl 2/8",
                // Inside a superset's round the next exercise comes at once: no rest, and the rest
                // this set ends has its timer removed.
                "Curl 12×15.0 rest 0 none next (no timer) 3/8",
                "Triceps pushdown -×0.0 rest 90 plan next Next: Curl 4/8",
                "Curl 12×15.0 rest 0 none next (no timer) 5/8",
                // The plan gives Rows no rest: the usual rules choose one (default_duration).
                "Triceps pushdown -×0.0 rest 90 plan next Next: Rows 6/8",
                "Rows -×0.0 rest 90 default next Rows 2/2 (last set) 7/8",
                // The last set: no rest, no timer, and the workout is over.
                "Rows -×0.0 rest 0 none next (no timer) 8/8",
            ])
        #expect(session.training.workout == nil)
        let summary = try #require(
            session.history.compactMap { if case .workoutEnded(let summary) = $0 { summary } else { nil } }.first)
        #expect(summary.setsDone == 8 && summary.setsPlanned == 8 && !summary.abandoned)
        #expect(summary.volumeKG == 2 * 500 + 2 * 180)
        // Five rests ended, each after 30 s: the next set came before any was over.
        #expect(summary.totalRestUSec == 5 * 30 * second)
        #expect(summary.medianRestUSec == 30 * second && summary.durationUSec == 8 * 30 * second - 30 * second)
    }

    @Test func givenValuesStillWinAndAnExerciseNamedIsOutsideThePlan() throws {
        var session = try started()
        let set = try session.set(reps: 3, weightKg: 110, rest: 200 * second)
        #expect(set.record.exercise == "Squat" && set.record.reps == 3 && set.record.weightKg == 110)
        #expect(set.rest == RestChoice(usec: 200 * second, source: .given))
        // A set of something else, named, leaves the workout where it was.
        let other = try session.set("Plank")
        #expect(other.workout == nil && session.training.workout?.progress.setsDone == 1)
        #expect(try session.set(reps: nil, weightKg: nil).record.exercise == "Squat")
    }

    /// The rest after a set says what comes next; moving on in the workout, running or over, it
    /// follows the workout, and another timer's `next` is left alone.
    @Test func theRestsNextFollowsTheWorkoutsMoves() throws {
        var session = try started()
        _ = try session.set(reps: nil, weightKg: nil)
        _ = try session.run(
            .timer(.start(tid("tea"), durationUSec: 60 * second, options: TimerOptions(next: "Squat 2/2"))))
        #expect(session.timers.timer(tid("default"))?.next == "Squat 2/2")
        try session.move(forward: true)
        #expect(session.timers.timer(tid("default"))?.next == "Next: Curl")
        session.wait(200 * second)
        #expect(session.timers.timer(tid("default"))?.state == .expired)
        // Back to the start of Squat, whose first set is done.
        try session.move(forward: false)
        #expect(session.timers.timer(tid("default"))?.next == "Next: Squat")
        #expect(session.timers.timer(tid("tea"))?.next == "Squat 2/2")
    }

    /// Once the workout has ended nothing comes next: the running rest that said what came next
    /// says nothing more, and a timer started by hand keeps its `next`.
    @Test func endingTheWorkoutClearsTheRestsNext() throws {
        var session = try started()
        _ = try session.set(reps: nil, weightKg: nil)
        _ = try session.run(
            .timer(.start(tid("tea"), durationUSec: 60 * second, options: TimerOptions(next: "Squat 2/2"))))
        #expect(session.timers.timer(tid("default"))?.next == "Squat 2/2")
        _ = try session.run(.workout(.end))
        #expect(session.timers.timer(tid("default"))?.next == "")
        #expect(session.timers.timer(tid("default"))?.state == .running)
        #expect(session.timers.timer(tid("tea"))?.next == "Squat 2/2")

        // A rest that is over keeps what it said (its "Rest over" is not shown again).
        var over = try started()
        _ = try over.set(reps: nil, weightKg: nil)
        over.wait(200 * second)
        _ = try over.run(.workout(.end))
        #expect(over.timers.timer(tid("default"))?.next == "Squat 2/2")
    }

    @Test func oneWorkoutAtATimeAndItsOwnCommands() throws {
        var session = try started()
        #expect(
            thrown {
                _ = try session.training.plan(
                    .workout(.start(plan, text: "", source: "")), timers: session.timers, facts: HistoryFacts(),
                    now: session.clock.now())
            }
                == .invalidState(
                    "the workout \"Push day\" is in progress; end it first with 'restctl workout end'"))
        try session.move(forward: true)
        #expect(session.training.workout?.progress.currentExercise?.name == "Curl")
        try session.move(forward: false)
        #expect(thrown { try session.move(forward: false) }?.message.isEmpty == false)
        _ = try session.set(reps: nil, weightKg: nil)
        session.clock.advance(60 * second)
        let changes = try session.run(.workout(.end)).history
        guard case .workoutEnded(let summary)? = changes.first else {
            Issue.record("no summary: \(changes)")
            return
        }
        #expect(changes.count == 1 && summary.setsDone == 1 && summary.volumeKG == 500)
        #expect(session.training.workout == nil)
        #expect(
            thrown { try session.run(.workout(.end)) }
                == .invalidState("no workout is in progress; start one with 'restctl workout start NAME'"))
    }
}

@Suite struct EmptyWorkoutTests {
    /// A workout ended, or abandoned, before its first set leaves nothing: no summary, no row.
    @Test func aWorkoutWithNoSetIsDiscardedWhetherEndedOrAbandoned() throws {
        for abandoned in [false, true] {
            var settings = TrainingSettings()
            settings.workoutAbandonAfterUSec = 3_600 * second
            var session = Session(settings)
            let plan = WorkoutPlan(name: "Legs", blocks: [.init(exercises: [.init(name: "Squat", sets: 3)])])
            let start = session.clock.now().realtime
            try session.run(.workout(.start(plan, text: "", source: "")))
            if abandoned {
                let changes = session.training.planWorkoutAbandon(now: start + 3_600 * second, soFar: WorkoutSoFar())
                #expect(changes == [.workoutDiscarded], "abandoned")
                session.training.apply(changes)
            } else {
                session.clock.advance(second)
                #expect(try session.run(.workout(.end)).history == [.workoutDiscarded], "ended")
            }
            #expect(session.training.workout == nil && session.training.workoutAbandonDeadline == nil)
        }
    }
}

@Suite struct WorkoutAbandonTests {
    @Test func aWorkoutLeftUntouchedPastAbandonAfterEndsAsAbandonedAtItsLastChange() throws {
        var settings = TrainingSettings()
        settings.workoutAbandonAfterUSec = 3_600 * second
        var session = Session(settings)
        let plan = WorkoutPlan(name: "Legs", blocks: [.init(exercises: [.init(name: "Squat", sets: 3)])])
        try session.run(.workout(.start(plan, text: "", source: "")))
        session.clock.advance(60 * second)
        _ = try session.set(reps: 5, weightKg: 100)
        let touched = session.clock.now().realtime
        #expect(session.training.workoutAbandonDeadline == touched + 3_600 * second)
        #expect(!session.training.isWorkoutAbandonDue(now: touched + 3_600 * second - 1))
        #expect(session.training.planWorkoutAbandon(now: touched + 3_600 * second - 1, soFar: WorkoutSoFar()).isEmpty)
        #expect(session.training.isWorkoutAbandonDue(now: touched + 3_600 * second))
        let changes = session.training.planWorkoutAbandon(
            now: touched + 3_600 * second, soFar: Session.soFar(session.history))
        guard case .workoutEnded(let summary)? = changes.first else {
            Issue.record("no summary: \(changes)")
            return
        }
        #expect(
            summary.abandoned && summary.endedAtUSec == touched && summary.setsDone == 1 && summary.setsPlanned == 3)
        session.training.apply(changes)
        #expect(session.training.workout == nil && session.training.workoutAbandonDeadline == nil)
    }
}
