import ArgumentParser
import Localization
import RestClient
import RestCore

extension Restctl.History {
    /// `restctl history delete ID…`.
    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: localized("Delete sets by id, each with the rest after it."),
            discussion: localized(
                """
                All or none: an id not in the history is refused and nothing is deleted. A \
                rest still on its timer is cancelled with its set.
                """))

        @Argument(help: ArgumentHelp(localized("The ids of the sets, as restctl history shows them."), valueName: "id"))
        var ids: [String]

        func validate() throws {
            for id in ids { _ = try Restctl.History.setID(id) }
        }

        func run() throws {
            var numbers: [Int64] = []
            for id in ids { numbers.append(try Restctl.History.setID(id)) }
            let (removed, unit) = try RestdConnection.withClient { client throws(ClientError) in
                (try client.deleteSets(numbers), try client.weightUnit())
            }
            for set in removed { print(set.line(unit: unit)) }
        }
    }
}
