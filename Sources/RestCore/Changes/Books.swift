import Localization

/// The one model of restd's state: the timers (`TimerBook`) and the training (`TrainingBook`),
/// changed only by `apply`. Every message, a caller's `Command` or restd's own `Occurrence`,
/// goes the same way: `questions` says what the history must tell, `plan` turns the message,
/// those facts and the time into a `ChangePlan` without I/O, and `apply` carries it out.
public struct Books: Sendable {
    public private(set) var timers: TimerBook
    public private(set) var training: TrainingBook
    /// The wall clock's steps since the timers' wall-clock instants were last published.
    public private(set) var wallClock: WallClockSteps

    /// The books as restd publishes them at `now`.
    public init(timers: TimerBook, training: TrainingBook, publishedAt now: Instant) {
        self.timers = timers
        self.training = training
        wallClock = WallClockSteps(publishedAt: now)
    }

    /// What the history must tell before `change` is planned at `now`: for a set, its timer's
    /// previous exercise, its exercise's facts, and the workout so far when it is the workout's
    /// last; for a workout's End or its abandonment, the workout so far; for an import, the
    /// history where it falls; for anything else, nothing.
    public func questions(for change: Change, now: Instant) -> HistoryQuestions {
        var questions = HistoryQuestions()
        switch change {
        case .command(.completeSet(let id, let input)):
            if input.exercise == nil { questions.previousExerciseOf = id }
            questions.asksExercise = true
            questions.givenExercise = training.givenExercise(ofSet: input)
            questions.dayStartUSec = LocalCalendar.startOfDay(containing: now.realtime)
            questions.weightKg = training.weight(ofSet: input)
            if training.setEndsWorkout(input) { askWorkoutSoFar(&questions, now: now) }
        case .command(.fixHistory(let fix)):
            askFix(fix, &questions)
        case .command(.workout(.end)):
            askWorkoutSoFar(&questions, now: now)
        case .command(.importHistory(let request)):
            if let span = request.span() {
                questions.importSinceUSec = span.sinceUSec
                questions.importUntilUSec = span.untilUSec
            }
        case .occurrence(.workoutAbandonDue) where training.isWorkoutAbandonDue(now: now.realtime):
            askWorkoutSoFar(&questions, now: now)
        case .command, .occurrence:
            break
        }
        return questions
    }

    private func askFix(_ fix: HistoryFix, _ questions: inout HistoryQuestions) {
        switch fix {
        case .undo:
            questions.lastSet = true
        case .delete(let ids):
            questions.setIDs = ids
        case .edit(let id, let edit):
            questions.setIDs = [id]
            if let name = edit.exercise.flatMap({ try? ExerciseName(parsing: $0) }) {
                questions.exerciseNames = [name.key]
            }
        case .rename(let from, let to):
            let names = [from, to].compactMap { try? ExerciseName(parsing: $0) }
            questions.exerciseNames = names.map(\.key)
            questions.setsOfExercise = names.first?.key
        }
    }

    private func askWorkoutSoFar(_ questions: inout HistoryQuestions, now: Instant) {
        guard let workout = training.workout else { return }
        questions.workoutSinceUSec = workout.progress.startedAtUSec
        questions.workoutUntilUSec = now.realtime
    }

    /// Plans `change` at `now`, a pure function of the books, the history's `facts` (the answer
    /// to `questions`), whether heart rate is coming in, and the time. A caller's command may be
    /// refused (`TimerError`); restd's own messages never are.
    public func plan(
        _ change: Change, facts: HistoryFacts, heartRateComingIn: Bool, now: Instant
    ) throws(TimerError) -> ChangePlan {
        switch change {
        case .command(.reload(let limits, let settings)):
            var plan = ChangePlan()
            plan.notes = (limits == timers.limits ? [] : [.limits(limits)]) + [.trainingSettings(settings)]
            return plan
        case .command(let command):
            var plan = try training.plan(command, timers: timers, facts: facts, now: now)
            if !heartRateComingIn { plan = plan.withoutHeartRate(now: now) }
            // A set prunes the history older than keep_days in its own transaction.
            if plan.set != nil { plan.pruneBeforeUSec = training.settings.historyCutoffUSec(now: now.realtime) }
            return plan
        case .occurrence(let occurrence):
            return plan(occurrence, facts: facts, now: now)
        }
    }

    private func plan(_ occurrence: Occurrence, facts: HistoryFacts, now: Instant) -> ChangePlan {
        switch occurrence {
        case .due(let lost, let marksRunning):
            var plan = housekeeping(timers.due(now: now, recoveryLost: lost, marksRunning: marksRunning))
            if lost.isEmpty && plan.history.isEmpty { plan.write = .batched }
            return plan
        case .recovered(let id, let bpm, let atUSec, let metrics):
            var noted = training
            noted.noteRecovery(metrics, timer: id)
            let events = timers.endRecovered(id, heartRateBPM: bpm, atBoottimeUSec: atUSec, now: now)
            var plan = ChangePlan(events: events, history: noted.followHousekeeping(events))
            plan.notes = [.recovery(metrics, timer: id)]
            plan.write = .afterAnnouncing
            // TRANSLATORS: what restd could not store, in its error "could not store %1$s: …".
            plan.what = localized("expiry or clean-up")
            return plan
        case .strapLost(let id):
            return housekeeping(timers.recoveryLost(id))
        case .strapBack(let id):
            return housekeeping(timers.recoveryRegained(id))
        case .recoveryNoted(let metrics):
            var plan = ChangePlan()
            plan.notes = metrics.keys.sorted().map { .recovery(metrics[$0]!, timer: $0) }
            return plan
        case .rrIntervals(let milliseconds):
            var plan = ChangePlan()
            plan.notes = [.rrIntervals(milliseconds)]
            return plan
        case .wallClockStepped(let offset):
            guard WallClockSteps.isReal(offset) else {
                var plan = ChangePlan()
                plan.logged = .debug(
                    "wall clock set, \(WallClockSteps.seconds(offset)) from what was last published: nothing re-published"
                )
                return plan
            }
            var plan = housekeeping(timers.wallClockChanged(now: now))
            let (line, steps) = wallClock.published(offset, now: now, timers: plan.events.count)
            plan.notes = [.wallClock(steps)]
            if let line {
                plan.logged = .info(line)
            } else {
                plan.logged = .debug("wall clock stepped by \(WallClockSteps.seconds(offset))")
            }
            return plan
        case .workoutAbandonDue:
            guard training.isWorkoutAbandonDue(now: now.realtime) else { return ChangePlan() }
            var plan = ChangePlan(history: training.planWorkoutAbandon(now: now.realtime, soFar: facts.workoutSoFar))
            plan.write = .afterAnnouncing
            plan.logged = .info(
                "the workout \(MessageText.quoted(training.workout?.name ?? "")) was left untouched; ended as abandoned"
            )
            // TRANSLATORS: what restd could not store, in its error "could not store %1$s: …".
            plan.what = localized("the abandoned workout")
            return plan
        case .heartRateTrace(let trace):
            guard training.settings.heartRateKeepDays > 0 else { return ChangePlan() }
            let cutoff = training.settings.heartRateCutoffUSec(now: now.realtime)
            var plan = ChangePlan(history: [.heartRateKept(trace, pruneBeforeUSec: cutoff)])
            plan.write = .afterAnnouncing
            // TRANSLATORS: what restd could not store, in its error "could not store %1$s: …".
            plan.what = localized("a rest's heart rate")
            return plan
        }
    }

    /// restd's own timer events with the history they make (`TrainingBook.followHousekeeping`),
    /// written right after they are announced.
    private func housekeeping(_ events: [TimerEvent]) -> ChangePlan {
        var plan = ChangePlan(events: events, history: training.followHousekeeping(events))
        plan.write = .afterAnnouncing
        // TRANSLATORS: what restd could not store, in its error "could not store %1$s: …".
        plan.what = localized("expiry or clean-up")
        return plan
    }

    /// Carries out a plan: its notes, then its history and timer events.
    public mutating func apply(_ plan: ChangePlan) {
        for note in plan.notes {
            switch note {
            case .rrIntervals(let milliseconds): training.noteRRIntervals(milliseconds)
            case .recovery(let metrics, let id): training.noteRecovery(metrics, timer: id)
            case .limits(let limits): timers.limits = limits
            case .trainingSettings(let settings): training.settings = settings
            case .wallClock(let steps): wallClock = steps
            }
        }
        training.apply(plan.history)
        timers.apply(plan.events)
    }
}
