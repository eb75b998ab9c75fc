import RestCore
import Testing

/// Undo, and a set deleted, edited or an exercise renamed: planned by `Books` from what the
/// history holds (`Session` answers as the store does), then applied.
@Suite struct HistoryFixTests {
    @Test("undo takes back the last set: the set, the rest it started (its timer cancelled), what the next set repeats")
    func undoTakesBackTheLastSet() throws {
        var session = Session()
        _ = try session.set("Squat", reps: 5, weightKg: 100)
        session.clock.advance(120 * second)
        _ = try session.set(reps: 5, weightKg: 1000)
        #expect(session.timers.timer(tid("default")) != nil)
        let plan = try session.run(.fixHistory(.undo))
        let fixed = try #require(plan.fixed)
        #expect(fixed.kind == .deleted && fixed.sets.map(\.id) == [2] && fixed.sets[0].weightKg == 1000)
        #expect(fixed.restsCancelled == [2] && fixed.workoutBackFrom == nil)
        // The timer goes with the rest; no rest is ended or written for it: it is gone with its set.
        #expect(plan.events.count == 1)
        if case .removed(let timer)? = plan.events.first { #expect(timer.id == tid("default")) } else { Issue.record() }
        #expect(plan.history == [.setsDeleted(fixed.sets)])
        #expect(session.training.openRests.isEmpty && session.timers.timer(tid("default")) == nil)
        // The rest before it stays ended as it ended (by the set undone, after 2 min).
        #expect(session.endedRests.map(\.takenUSec) == [120 * second])
        #expect(session.sets.map(\.id) == [1])
        // The next set without numbers repeats the set before the one undone.
        session.clock.advance(10 * second)
        let next = try session.set(reps: nil, weightKg: nil)
        #expect(next.record.reps == 5 && next.record.weightKg == 100 && next.record.id == 3)
    }

    @Test("undo of a set whose rest already ended removes it without touching any timer")
    func undoAfterTheRestEnded() throws {
        var session = Session()
        _ = try session.set("Squat")
        try session.run(.timer(.cancel(tid("default"))))
        let plan = try session.run(.fixHistory(.undo))
        #expect(plan.events.isEmpty && plan.fixed?.restsCancelled == [])
        #expect(session.sets.isEmpty && session.remembered["squat"] == nil)
    }

    @Test("undo with no set, and a delete of an id not in the history, are refused with one sentence")
    func refusals() throws {
        var session = Session()
        #expect(
            thrown { try session.run(.fixHistory(.undo)) }
                == .invalidState("there is no set to undo: the history has none"))
        _ = try session.set("Squat")
        #expect(
            thrown { try session.run(.fixHistory(.delete([1, 42]))) }
                == .invalidArgs("no set 42 in the history; 'restctl history' shows each set's id"))
        #expect(
            thrown { try session.run(.fixHistory(.delete([]))) }
                == .invalidArgs("no set given: name the ids of the sets to delete"))
        #expect(thrown { try session.run(.fixHistory(.delete(Array(1...10_001)))) }?.kind == "limitExceeded")
        #expect(
            thrown { try session.run(.fixHistory(.edit(1, SetEdit()))) }
                == .invalidArgs("nothing to change: give an exercise, reps, a weight or whether the set failed"))
        #expect(
            thrown { try session.run(.fixHistory(.edit(1, SetEdit(weightKg: 1000.5)))) }
                == .invalidArgs("weight 1000.5 kg is out of range: give 0 to 1000 kg"))
        #expect(
            thrown { try session.run(.fixHistory(.rename(from: "Sqaut", to: "Squat"))) }
                == .invalidArgs("no exercise \"Sqaut\" in the history"))
        #expect(
            thrown { try session.run(.fixHistory(.rename(from: "squat", to: "Squat"))) }
                == .invalidArgs("\"squat\" is already written \"Squat\""))
        // Nothing was changed by any of them.
        #expect(session.sets.count == 1 && session.timers.timer(tid("default")) != nil)
    }

    @Test("a set deleted from the middle leaves the rest alone; the open rest of another set stays")
    func deleteOlderSets() throws {
        var session = Session()
        _ = try session.set("Squat")
        session.clock.advance(60 * second)
        _ = try session.set("Bench press")
        session.clock.advance(60 * second)
        _ = try session.set("Squat")
        let plan = try session.run(.fixHistory(.delete([2, 1])))
        #expect(plan.events.isEmpty && plan.fixed?.sets.map(\.id) == [1, 2])
        #expect(session.sets.map(\.id) == [3] && session.training.openRests[tid("default")]?.setID == 3)
        #expect(session.remembered["bench press"] == nil && session.remembered["squat"]?.sets == 1)
    }

    @Test("an edit changes the set's numbers, and moves it, with its open rest, to another exercise")
    func edit() throws {
        var session = Session()
        _ = try session.set("Squat", reps: 5, weightKg: 100)
        session.clock.advance(60 * second)
        let typo = try session.set("Sqaut", reps: 5, weightKg: 1000)
        let plan = try session.run(
            .fixHistory(.edit(2, SetEdit(exercise: "SQUAT", reps: 3, weightKg: 100, failed: true))))
        let edited = try #require(plan.fixed?.sets.first)
        // The exercise as first written, whatever case the edit used.
        #expect(edited.exercise == "Squat" && edited.exerciseKey == "squat")
        #expect(edited.reps == 3 && edited.weightKg == 100 && edited.failed && edited.atUSec == typo.record.atUSec)
        #expect(session.training.openRests[tid("default")]?.exerciseKey == "squat")
        #expect(session.remembered["sqaut"] == nil && session.remembered["squat"]?.sets == 2)
        // Only what is given changes.
        try session.run(.fixHistory(.edit(1, SetEdit(failed: true))))
        #expect(session.sets[0].reps == 5 && session.sets[0].weightKg == 100 && session.sets[0].failed)
    }

    @Test("a rename merges a typo into the right exercise, open rests included; a new name is taken as typed")
    func rename() throws {
        var session = Session()
        _ = try session.set("Squat")
        session.clock.advance(60 * second)
        _ = try session.set("Sqaut")
        session.clock.advance(60 * second)
        _ = try session.set("Sqaut")
        let plan = try session.run(.fixHistory(.rename(from: "sqaut", to: "squat")))
        #expect(plan.history == [.exerciseRenamed(fromKey: "sqaut", to: "Squat", toKey: "squat")])
        #expect(plan.fixed?.sets.map(\.id) == [2, 3] && plan.fixed?.exercise == "Squat")
        #expect(session.sets.allSatisfy { $0.exercise == "Squat" })
        #expect(session.remembered["squat"]?.sets == 3 && session.remembered["sqaut"] == nil)
        #expect(session.training.openRests[tid("default")]?.exercise == "Squat")
        try session.run(.fixHistory(.rename(from: "Squat", to: "Back squat")))
        #expect(session.sets.allSatisfy { $0.exercise == "Back squat" && $0.exerciseKey == "back squat" })
        // A change of case only: the exercise is written anew.
        let cased = try session.run(.fixHistory(.rename(from: "back squat", to: "Back Squat")))
        #expect(cased.history == [.exerciseRenamed(fromKey: "back squat", to: "Back Squat", toKey: "back squat")])
    }

    @Test("undo of a workout's set takes the workout one set back, to be done again; a later move keeps it")
    func undoInAWorkout() throws {
        let plan = WorkoutPlan(
            name: "Legs",
            blocks: [
                .init(exercises: [.init(name: "Squat", sets: 3, reps: 5, weightKG: 100)], restUSec: 180 * second),
                .init(exercises: [.init(name: "Rows", sets: 2)]),
            ])
        var session = Session()
        try session.run(.workout(.start(plan, text: "", source: "")))
        _ = try session.set(reps: nil, weightKg: nil)
        session.clock.advance(60 * second)
        _ = try session.set(reps: nil, weightKg: nil)
        #expect(session.training.workout?.progress.setsDone == 2)
        let undone = try session.run(.fixHistory(.undo))
        #expect(undone.fixed?.workoutBackFrom == 2)
        #expect(session.training.workout?.progress.setsDone == 1 && session.training.workout?.progress.position == 1)
        #expect(session.training.workout?.touchedAtUSec == session.clock.now().realtime)
        // The set again: the plan's second set, with its rest.
        let again = try session.set(reps: nil, weightKg: nil)
        #expect(again.record.exercise == "Squat" && again.workout?.progress.setsDone == 2)
        // After a move of the workout (next), the set undone is no longer its last move.
        session.clock.advance(second)
        try session.move(forward: true)
        let later = try session.run(.fixHistory(.undo))
        #expect(later.fixed?.workoutBackFrom == nil)
    }
}
