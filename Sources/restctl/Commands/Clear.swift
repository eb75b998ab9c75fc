import ArgumentParser
import Localization
import RestClient

extension Restctl {
    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "clear",
            abstract: localized("Remove the timers that are over."),
            discussion: localized(
                """
                Expired timers otherwise stay listed (with their overtime) until restd removes \
                them, an hour after they ended (expired_retention). Prints nothing.
                """))

        func run() throws {
            _ = try RestdConnection.withClient { client throws(ClientError) in
                try client.cancelTimers { $0.state == "expired" }
            }
        }
    }
}
