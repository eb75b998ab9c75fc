import RestCore
import SQLiteKit

extension StateStore {
    /// What the history says to `questions` (`Books.questions`), and nothing more: the one read
    /// before a message is planned.
    func answer(_ questions: HistoryQuestions) throws(StoreError) -> HistoryFacts {
        var facts = HistoryFacts()
        if let id = questions.previousExerciseOf { facts.previousExercise = try lastExercise(timer: id) }
        if let name = questions.exercise(previous: facts.previousExercise) {
            facts.exercises[name.key] = try self.facts(
                name, dayStartUSec: questions.dayStartUSec, weightKg: questions.weightKg)
        }
        if let since = questions.workoutSinceUSec {
            facts.workoutSoFar = try workoutSoFar(since: since, until: questions.workoutUntilUSec)
        }
        if let since = questions.importSinceUSec {
            facts.imported = try importFacts(since: since, until: questions.importUntilUSec)
        }
        if questions.lastSet || !questions.setIDs.isEmpty || questions.setsOfExercise != nil {
            facts.fixedSets = try fixedSets(questions)
        }
        for key in questions.exerciseNames {
            if let name = try exerciseName(key: key) { facts.exerciseNames[key] = name }
        }
        return facts
    }

    /// The sets a fix of the history names: by id (those not found left out), the last one, or
    /// every set of an exercise; oldest first.
    private func fixedSets(_ questions: HistoryQuestions) throws(StoreError) -> [SetRecord] {
        try reading { statements throws(SQLiteError) in
            var sets: [SetRecord] = []
            func read(_ statement: SQLiteStatement, _ values: [SQLiteValue]) throws(SQLiteError) {
                try statement.bind(values)
                defer { statement.reset() }
                while try statement.step() {
                    if let set = HistoryStatements.set(from: statement) { sets.append(set) }
                }
            }
            if questions.lastSet { try read(statements.lastSet, []) }
            for id in Set(questions.setIDs) { try read(statements.setByID, [.integer(id)]) }
            if let key = questions.setsOfExercise { try read(statements.setsOfExercise, [.text(key)]) }
            return sets.sorted { ($0.atUSec, $0.id) < ($1.atUSec, $1.id) }
        }
    }

    /// The name exercise `key` was first written with, nil for one restd does not remember.
    private func exerciseName(key: String) throws(StoreError) -> String? {
        try reading { statements throws(SQLiteError) in
            try Self.all(statements.exercise, [.text(key)]).first?.first?.text
        }
    }
}
