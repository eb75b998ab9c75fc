import Localization

/// A caller's fix of sets already recorded: `restctl undo`, `restctl history delete`, `edit` and
/// `rename`. The history's records, stats and report are read from the sets, so a set fixed here
/// is fixed there too; nothing else keeps a copy.
public enum HistoryFix: Sendable, Equatable {
    /// Takes back the last set recorded (the highest id): as `delete` of it.
    case undo
    /// Removes these sets, each with the rest that followed it.
    case delete([Int64])
    /// Changes what a set says.
    case edit(Int64, SetEdit)
    /// Moves every set of one exercise to another (merged into it when it exists).
    case rename(from: String, to: String)

    /// The most sets one delete may name (a caller pages a larger clean-up).
    public static let maxIDs = 10_000
}

/// What an edit changes in a set; nil leaves it as it is.
public struct SetEdit: Sendable, Equatable {
    public var exercise: String?
    public var reps: UInt32?
    public var weightKg: Double?
    public var failed: Bool?

    public init(exercise: String? = nil, reps: UInt32? = nil, weightKg: Double? = nil, failed: Bool? = nil) {
        self.exercise = exercise
        self.reps = reps
        self.weightKg = weightKg
        self.failed = failed
    }

    public var isEmpty: Bool { self == SetEdit() }
}

/// What a fix did, for its reply and its signal (History.SetsChanged).
public struct FixedSets: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case deleted, edited, renamed
    }

    public var kind: Kind
    /// The sets as they are now (edited, renamed), or as they were (deleted).
    public var sets: [SetRecord]
    /// The sets whose rest was still on its timer, which was cancelled with them.
    public var restsCancelled: [Int64] = []
    /// The set removed that was the workout's last move: the workout in progress went one set
    /// back.
    public var workoutBackFrom: Int64?
    /// A rename's exercise as the sets now name it.
    public var exercise: String?

    public init(kind: Kind, sets: [SetRecord]) {
        self.kind = kind
        self.sets = sets
    }
}

extension TrainingBook {
    /// Plans a fix of the history from the sets it names (`HistoryFacts.fixedSets`, read by
    /// the caller) and the exercises' names as first written (`HistoryFacts.exerciseNames`).
    func planFix(
        _ fix: HistoryFix, timers: TimerBook, facts: HistoryFacts, now: Instant
    ) throws(TimerError)
        -> ChangePlan
    {
        switch fix {
        case .undo:
            guard let last = facts.fixedSets.last else {
                throw .invalidState(localized("there is no set to undo: the history has none"))
            }
            return try planDelete([last], timers: timers, now: now)
        case .delete(let ids):
            guard !ids.isEmpty else {
                throw .invalidArgs(localized("no set given: name the ids of the sets to delete"))
            }
            guard ids.count <= HistoryFix.maxIDs else {
                throw .limitExceeded(
                    localized(
                        "%1$d sets is more than one delete may name: give at most %2$d", ids.count, HistoryFix.maxIDs))
            }
            let found = Set(facts.fixedSets.map(\.id))
            if let missing = ids.first(where: { !found.contains($0) }) { throw Self.noSuchSet(missing) }
            return try planDelete(facts.fixedSets, timers: timers, now: now)
        case .edit(let id, let edit):
            guard let set = facts.fixedSets.first(where: { $0.id == id }) else { throw Self.noSuchSet(id) }
            return try planEdit(set, edit, timers: timers, facts: facts)
        case .rename(let from, let to):
            return try planRename(from: from, to: to, facts: facts)
        }
    }

    static func noSuchSet(_ id: Int64) -> TimerError {
        .invalidArgs(localized("no set %1$s in the history; 'restctl history' shows each set's id", id))
    }

    /// Removing sets: each with its rest; a rest still on its timer is cancelled with it (its
    /// notification goes too), and the workout in progress goes one set back when its last
    /// move was the set removed. The rest before a set stays ended as it ended.
    private func planDelete(_ sets: [SetRecord], timers: TimerBook, now: Instant) throws(TimerError) -> ChangePlan {
        var events: [TimerEvent] = []
        var fixed = FixedSets(kind: .deleted, sets: sets)
        for set in sets {
            guard openRests[set.timerID]?.setID == set.id, timers.timer(set.timerID) != nil else { continue }
            events += try timers.cancel(set.timerID, now: now)
            fixed.restsCancelled.append(set.id)
        }
        var history: [HistoryChange] = [.setsDeleted(sets)]
        if var active = workout, let last = sets.first(where: { $0.atUSec == active.touchedAtUSec }),
            active.progress.undoSet()
        {
            active.touchedAtUSec = now.realtime
            history.append(.workoutSaved(active))
            fixed.workoutBackFrom = last.id
        }
        var plan = ChangePlan(events: events, history: history)
        plan.fixed = fixed
        return plan
    }

    private func planEdit(
        _ set: SetRecord, _ edit: SetEdit, timers: TimerBook, facts: HistoryFacts
    ) throws(TimerError) -> ChangePlan {
        guard !edit.isEmpty else {
            throw .invalidArgs(
                localized("nothing to change: give an exercise, reps, a weight or whether the set failed"))
        }
        try SetInput(reps: edit.reps, weightKg: edit.weightKg).validate(limits: timers.limits)
        var edited = set
        if let exercise = edit.exercise {
            let name = try ExerciseName(parsing: exercise)
            edited.exercise = name.key == set.exerciseKey ? set.exercise : facts.exerciseNames[name.key] ?? name.display
            edited.exerciseKey = name.key
        }
        if let reps = edit.reps { edited.reps = reps }
        if let kg = edit.weightKg { edited.weightKg = kg }
        if let failed = edit.failed { edited.failed = failed }
        var plan = ChangePlan(history: [.setEdited(from: set, to: edited)])
        plan.fixed = FixedSets(kind: .edited, sets: [edited])
        return plan
    }

    /// Renaming an exercise: every set of `from` takes the name of `to` as first written (or as
    /// given, when `to` is new), and what restd remembers of `from` merges into `to`. Names that
    /// differ only in case rename the exercise as written.
    private func planRename(from: String, to: String, facts: HistoryFacts) throws(TimerError) -> ChangePlan {
        let old = try ExerciseName(parsing: from)
        let new = try ExerciseName(parsing: to)
        guard facts.exerciseNames[old.key] != nil || !facts.fixedSets.isEmpty else {
            throw .invalidArgs(localized("no exercise %1$s in the history", MessageText.quoted(old.display)))
        }
        let name = old.key == new.key ? new.display : facts.exerciseNames[new.key] ?? new.display
        guard old.key != new.key || facts.exerciseNames[old.key] != name else {
            throw .invalidArgs(
                localized("%1$s is already written %2$s", MessageText.quoted(old.display), MessageText.quoted(name)))
        }
        var plan = ChangePlan(history: [.exerciseRenamed(fromKey: old.key, to: name, toKey: new.key)])
        var fixed = FixedSets(
            kind: .renamed,
            sets: facts.fixedSets.map { set in
                var renamed = set
                renamed.exercise = name
                renamed.exerciseKey = new.key
                return renamed
            })
        fixed.exercise = name
        plan.fixed = fixed
        return plan
    }
}
