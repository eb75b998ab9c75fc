import Localization

/// What CompleteSet replies, and what the live activity shows.
public struct PlannedSet: Sendable, Equatable {
    public var record: SetRecord
    public var rest: RestChoice
    /// Sets of this exercise in a row today, this one included (`progress_done`): the count
    /// starts again when another exercise comes between.
    public var setsInARow: Int
    /// The exercise's `sets` from the configuration (`progress_total`).
    public var setsPlanned: Int?
    /// The records it beat (`PersonalRecord.beaten`), none for most sets.
    public var records: [PersonalRecord] = []
    /// The workout this set followed, as it stands after it; nil for a set outside a workout.
    public var workout: ActiveWorkout?
    /// The workout's summary when this set was its last.
    public var summary: WorkoutSummary?
}

/// The rests in progress, and the rules that turn commands into history: which rest a set gets,
/// how a rest ends. Pure (the time and the history's facts, `HistoryFacts`, come in as
/// parameters), like `TimerBook`, which it wraps: a command is planned here, committed by the
/// daemon, then applied (`Books`, which holds both).
public struct TrainingBook: Sendable, Equatable {
    public internal(set) var settings: TrainingSettings
    /// The open rest of each timer that has one.
    public private(set) var openRests: [TimerID: RestRecord]
    /// The id the next set gets.
    public private(set) var nextSetID: Int64
    /// The workout in progress, nil when none (one at a time).
    public private(set) var workout: ActiveWorkout?

    public init(
        settings: TrainingSettings = TrainingSettings(), openRests: [RestRecord] = [], lastSetID: Int64 = 0,
        workout: ActiveWorkout? = nil
    ) {
        self.settings = settings
        self.workout = workout
        self.openRests = Dictionary(openRests.map { ($0.timerID, $0) }, uniquingKeysWith: { $1 })
        self.nextSetID = max(lastSetID, openRests.map(\.setID).max() ?? 0) + 1
    }

    /// The exercise a set is for: the one given, else that of the previous set on this timer.
    public static func exerciseName(given: String?, previous: String?) throws(TimerError) -> ExerciseName {
        guard let raw = given ?? previous else {
            throw .invalidArgs(
                localized(
                    "no exercise given, and this timer has no previous set to take it from; name one, as in --exercise Squat"
                ))
        }
        return try ExerciseName(parsing: raw)
    }

    /// Plans `command` at `now`, as a pure function of the books, the history's `facts` (read
    /// by the caller before) and the time: the timer events (`timers.plan`, or the rest a set
    /// starts), and the history it makes: a set recorded, the previous rest ended, the new rest
    /// opened; a rest ended by Skip, Cancel or a Start that replaces it; an add or a pause noted
    /// on it; the workout started, moved or ended. Nothing changes until the caller applies it.
    public func plan(
        _ command: Command, timers: TimerBook, facts: HistoryFacts, now: Instant
    ) throws(TimerError) -> ChangePlan {
        switch command {
        case .timer(let command): try planTimer(command, timers: timers, now: now)
        case .completeSet(let id, let input): try planSet(id, input, timers: timers, facts: facts, now: now)
        case .workout(let command): try planWorkout(command, timers: timers, facts: facts, now: now)
        case .fixHistory(let fix): try planFix(fix, timers: timers, facts: facts, now: now)
        // Planned by `Books`: a reload changes the timers' limits too.
        case .reload: ChangePlan()
        case .importHistory(let request): try planImport(request, facts: facts.imported, now: now.realtime)
        }
    }

    /// A timer's own command, with what it does to the rest open on that timer.
    private func planTimer(_ command: TimerCommand, timers: TimerBook, now: Instant) throws(TimerError) -> ChangePlan {
        let id = command.timerID
        let open = openRests[id]
        switch command {
        case .start:
            let events = try timers.plan(command, now: now)
            guard let open, !events.isEmpty else { return ChangePlan(events: events) }
            return ChangePlan(events: events, history: [.restEnded(open.ended(.replaced, at: now.realtime))])
        case .cancel:
            let events = try timers.plan(command, now: now)
            guard let open else { return ChangePlan(events: events) }
            return ChangePlan(events: events, history: [.restEnded(open.ended(.cancelled, at: now.realtime))])
        case .skip:
            let wasOver = timers.timer(id)?.state == .expired
            let events = try timers.plan(command, now: now)
            guard let open else { return ChangePlan(events: events) }
            // Skipping a rest that is already over only closes it: it was taken in full.
            return ChangePlan(
                events: events,
                history: [.restEnded(open.ended(wasOver ? .completed : .skipped, at: now.realtime))])
        case .silence:
            return ChangePlan(events: try timers.plan(command, now: now))
        case .adjust(_, let delta):
            let events = try timers.plan(command, now: now)
            guard var open, !events.isEmpty, !Self.onlySilences(events) else { return ChangePlan(events: events) }
            let (sum, overflow) = open.adjustUSec.addingReportingOverflow(delta)
            open.adjustUSec = overflow ? open.adjustUSec : sum
            return ChangePlan(events: events, history: [.restOpen(open)])
        case .pause:
            let events = try timers.plan(command, now: now)
            guard var open, !events.isEmpty, !Self.onlySilences(events), open.pausedAtUSec == 0 else {
                return ChangePlan(events: events)
            }
            open.pausedAtUSec = now.realtime
            return ChangePlan(events: events, history: [.restOpen(open)])
        case .resume:
            let events = try timers.plan(command, now: now)
            guard var open, !events.isEmpty, !Self.onlySilences(events), open.pausedAtUSec != 0 else {
                return ChangePlan(events: events)
            }
            open.pausedUSec = open.pausedUSec.addingSaturated(now.realtime.subtractingSaturated(open.pausedAtUSec))
            open.pausedAtUSec = 0
            return ChangePlan(events: events, history: [.restOpen(open)])
        case .restart:
            // A fresh run of the rest as planned: earlier adds and subs no longer count, and a
            // pause in progress ends.
            let events = try timers.plan(command, now: now)
            guard var open, !events.isEmpty, open.adjustUSec != 0 || open.pausedAtUSec != 0 else {
                return ChangePlan(events: events)
            }
            open.adjustUSec = 0
            if open.pausedAtUSec != 0 {
                open.pausedUSec = open.pausedUSec.addingSaturated(now.realtime.subtractingSaturated(open.pausedAtUSec))
                open.pausedAtUSec = 0
            }
            return ChangePlan(events: events, history: [.restOpen(open)])
        }
    }

    /// Whether a timer's events only stop a rest's alarm (a pause, a resume or a sub on a
    /// ringing rest that is over): the rest in the history does not change.
    private static func onlySilences(_ events: [TimerEvent]) -> Bool {
        events.allSatisfy { event in
            if case .changed(let from, let to) = event { from.state == .expired && to.state == .expired } else { false }
        }
    }

    /// The history of restd's own changes (expiry, clean-up, start-up): a timer that runs out
    /// while its rest is open stores that rest as it stands (its recovery metrics and RR
    /// intervals, noted in memory until then), so that a rest's numbers are on disk when it ends
    /// rather than at the next set; a timer removed while its rest was open ends that rest —
    /// taken in full when it had run out, cancelled when it was left paused.
    public func followHousekeeping(_ events: [TimerEvent]) -> [HistoryChange] {
        var changes: [HistoryChange] = []
        for event in events {
            switch event {
            case .changed(let from, let to) where from.state != .expired && to.state == .expired:
                guard let open = openRests[to.id] else { continue }
                changes.append(.restOpen(open))
            case .removed(let timer):
                guard let open = openRests[timer.id] else { continue }
                if timer.state == .expired {
                    changes.append(
                        .restEnded(open.ended(.completed, at: max(timer.expiredAtUSec, open.startedAtUSec))))
                } else {
                    changes.append(.restEnded(open.ended(.cancelled, at: timer.updatedAtUSec)))
                }
            default:
                continue
            }
        }
        return changes
    }

    /// The most RR intervals kept for one rest (over five hours at 60 beats a minute).
    public static let maxRRIntervals = 20_000

    /// Heart-rate RR intervals (ms) received now: they belong to every rest in progress (while
    /// its timer runs, and in overtime until the next set). Kept in memory and stored when the
    /// rest is next written (an add, a pause, its end).
    mutating func noteRRIntervals(_ milliseconds: [Int]) {
        guard !milliseconds.isEmpty, !openRests.isEmpty else { return }
        let values = milliseconds.compactMap { UInt16(exactly: $0) }
        for id in Array(openRests.keys) where openRests[id]!.pausedAtUSec == 0 {
            let room = Self.maxRRIntervals - openRests[id]!.rrIntervalsMS.count
            guard room > 0 else { continue }
            openRests[id]!.rrIntervalsMS += values.prefix(room)
        }
    }

    /// How heart rate recovered during the open rest on timer `id` so far (restd's recovery
    /// service, before a command or an expiry, and when the rest ends on recovery): kept in
    /// memory and stored when the rest is next written, like its RR intervals.
    mutating func noteRecovery(_ metrics: RecoveryMetrics, timer id: TimerID) {
        openRests[id]?.recovery = metrics
    }

    /// Carries out committed history changes.
    public mutating func apply(_ changes: [HistoryChange]) {
        for change in changes {
            switch change {
            case .setRecorded(let set), .setImported(let set, _): nextSetID = max(nextSetID, set.id + 1)
            case .restOpen(let rest): openRests[rest.timerID] = rest
            case .restEnded(let rest):
                if openRests[rest.timerID]?.setID == rest.setID { openRests[rest.timerID] = nil }
            case .workoutSaved(let active): workout = active
            case .workoutEnded, .workoutDiscarded: workout = nil
            case .heartRateKept, .workoutImported, .categoryImported: break
            case .setsDeleted(let sets):
                let ids = Set(sets.map(\.id))
                for (id, rest) in openRests where ids.contains(rest.setID) { openRests[id] = nil }
            case .setEdited(_, let set):
                for (id, rest) in openRests where rest.setID == set.id {
                    openRests[id]?.exercise = set.exercise
                    openRests[id]?.exerciseKey = set.exerciseKey
                }
            case .exerciseRenamed(let fromKey, let name, let toKey):
                for (id, rest) in openRests where rest.exerciseKey == fromKey {
                    openRests[id]?.exercise = name
                    openRests[id]?.exerciseKey = toKey
                }
            }
        }
    }

    /// The workout's set that a set of `input` is, when it names no exercise during a workout:
    /// the workout as it stands after it, and what the plan says of that set.
    private func workoutSet(_ input: SetInput) -> (workout: ActiveWorkout, completion: WorkoutProgress.Completion)? {
        guard input.exercise == nil, var active = workout, let completion = active.progress.completeSet() else {
            return nil
        }
        return (active, completion)
    }

    /// The exercise a set of `input` names, or the workout's next one; nil when neither does (it
    /// is then the previous set's on its timer).
    func givenExercise(ofSet input: SetInput) -> String? {
        input.exercise ?? workoutSet(input)?.completion.exercise.name
    }

    /// The weight a set of `input` has before the history is read: the one typed, else the
    /// workout plan's; nil means the exercise's previous set's (the caller reads the exercise's
    /// bests at the weight the set will have).
    public func weight(ofSet input: SetInput) -> Double? {
        input.weightKg ?? workoutSet(input)?.completion.exercise.weightKG
    }

    /// Whether a set of `input` is the workout's last: its summary then needs the workout's sets
    /// and rests so far (`HistoryFacts.workoutSoFar`).
    public func setEndsWorkout(_ input: SetInput) -> Bool {
        workoutSet(input)?.completion.finishesWorkout ?? false
    }

    private func planSet(
        _ id: TimerID, _ given: SetInput, timers: TimerBook, facts known: HistoryFacts, now: Instant
    ) throws(TimerError) -> ChangePlan {
        // During a workout, a set without an exercise is the plan's next set, with its reps and
        // weight unless given.
        var input = given
        let workoutSet = workoutSet(given)
        var active = workoutSet?.workout
        let completion = workoutSet?.completion
        if let completion {
            input.exercise = completion.exercise.name
            input.reps = input.reps ?? completion.exercise.reps.flatMap(UInt32.init(exactly:))
            input.weightKg = input.weightKg ?? completion.exercise.weightKG
            active?.touchedAtUSec = now.realtime
        }
        try input.validate(limits: timers.limits)
        let name = try Self.exerciseName(given: input.exercise, previous: known.previousExercise)
        let facts = known.exercises[name.key] ?? ExerciseFacts()
        // Reps and weight not typed (nor planned) are the exercise's previous set's, as in the app
        // restd comes from: `set --failed` after 12 reps of 15 kg is 12 reps of 15 kg, failed.
        input.reps = input.reps ?? facts.previousReps
        input.weightKg = input.weightKg ?? facts.previousWeightKg
        let exercise = facts.firstWritten ?? name.display
        var history: [HistoryChange] = []
        var lastUsed = facts.lastRestUSec
        var endedRest: RestRecord?
        if let open = openRests[id] {
            let ended = open.ended(.completed, at: now.realtime)
            endedRest = ended
            history.append(.restEnded(ended))
            if open.exerciseKey == name.key, open.isRemembered { lastUsed = ended.finalUSec(limits: timers.limits) }
        }
        let configured = settings.exercise(name)
        let rest =
            completion.flatMap {
                RestChoice.fromPlan(
                    $0.block, restAfter: $0.restAfter, given: input.restUSec, failed: input.failed,
                    settings: settings, limits: timers.limits)
            }
            ?? RestChoice.choose(
                given: input.restUSec, failed: input.failed, exercise: configured,
                lastUsedUSec: lastUsed, settings: settings, limits: timers.limits)
        let record = SetRecord(
            id: nextSetID, timerID: id, atUSec: now.realtime, exercise: exercise,
            exerciseKey: name.key, reps: input.reps, weightKg: input.weightKg, failed: input.failed)
        history.append(.setRecorded(record))
        var events: [TimerEvent] = []
        if rest.source != .none {
            var options = TimerOptions(label: exercise)
            options.restSource = rest.sourceText
            options.next = completion?.nextLabel ?? ""
            options.sound = input.sound ?? completion?.block.sound ?? configured?.sound ?? true
            let plan = completion.map { [$0.block.recovery, active?.progress.plan.recovery ?? RecoverySettings()] }
            options.recovery = try settings.recoveryRule(
                exercise: configured, plan: plan ?? [], asked: input.untilRecovered, plannedUSec: rest.usec)
            events = try timers.start(id, durationUSec: rest.usec, options: options, now: now)
            history.append(
                .restOpen(
                    RestRecord(
                        setID: record.id, timerID: id, exercise: exercise, exerciseKey: name.key,
                        startedAtUSec: now.realtime, plannedUSec: rest.usec, source: rest.sourceText)))
        } else if endedRest != nil, timers.timer(id) != nil {
            // The set ends a rest and starts none (inside a superset's round, the workout's last
            // set): the rest's timer goes too, and with it a "Rest over" still on screen.
            events = try timers.cancel(id, now: now)
        }
        var planned = PlannedSet(
            record: record, rest: rest, setsInARow: facts.setsInARow + 1, setsPlanned: configured?.sets)
        planned.records = PersonalRecord.beaten(by: record, bests: facts.bests)
        if let completion, let active {
            planned.workout = active
            if completion.finishesWorkout {
                // The workout is over with its last set: summed up with this set and the rest it ends.
                var soFar = known.workoutSoFar
                soFar.sets.append((record.reps.map(Int.init), record.weightKg))
                if let endedRest { soFar.restsTakenUSec.append(endedRest.takenUSec) }
                let summary = soFar.summary(of: active, endedAtUSec: now.realtime, abandoned: false)
                planned.summary = summary
                history.append(.workoutEnded(summary))
            } else {
                history.append(.workoutSaved(active))
            }
        }
        return ChangePlan(events: events, history: history, set: planned)
    }
}
