import ArgumentParser
import Localization
import RestClient
import RestCore

extension Restctl {
    /// `restctl undo`: the last set taken back.
    struct Undo: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "undo",
            abstract: localized("Take back the last set recorded."),
            discussion: localized(
                """
                Removes the last set restd recorded, with the rest it started (its timer is \
                cancelled when still running), and says what it removed. During a workout, \
                the workout goes one set back, to that set. The rest before the set stays \
                ended when it ended. What a set without --reps or --weight repeats, records, \
                stats and the report are read from the sets left. Any other set: restctl \
                history delete ID.
                """))

        func run() throws {
            let (removed, unit) = try RestdConnection.withClient { client throws(ClientError) in
                (try client.undo(), try client.weightUnit())
            }
            print(removed.line(unit: unit))
        }
    }
}
