import RestCore

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
        return facts
    }
}
