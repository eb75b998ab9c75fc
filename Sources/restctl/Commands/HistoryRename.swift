import ArgumentParser
import Localization
import RestClient
import RestCore

extension Restctl.History {
    /// `restctl history rename OLD NEW`.
    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rename",
            abstract: localized("Rename an exercise across the history, merging it into another."),
            discussion: localized(
                """
                Every set of OLD becomes a set of NEW; when restd knows NEW already, the two \
                merge (a typo fixed: restctl history rename Sqaut Squat), and NEW keeps its \
                name as first written. Names differing only in case write the exercise anew.
                """))

        @Argument(help: ArgumentHelp(localized("The exercise as restd knows it."), valueName: "old"))
        var old: String

        @Argument(help: ArgumentHelp(localized("Its new name."), valueName: "new"))
        var new: String

        func validate() throws {
            _ = try ExerciseName(option: old)
            _ = try ExerciseName(option: new)
        }

        func run() throws {
            let (name, count) = try RestdConnection.withClient { client throws(ClientError) in
                try client.renameExercise(from: old, to: new)
            }
            print(HistoryFormat.renamed(sets: count, to: name))
        }
    }
}
