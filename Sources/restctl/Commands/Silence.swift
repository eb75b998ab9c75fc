import ArgumentParser
import Localization
import RestClient

extension Restctl {
    struct Silence: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "silence",
            abstract: localized("Stop the alarm of a rest that is over."),
            discussion: localized(
                """
                Without --id, every ringing timer falls quiet. The alarm also stops by itself \
                after ring_for (1 min), with any other command on that timer, and when "Rest \
                over" is dismissed; toggle on a ringing timer only silences it. Prints nothing.
                """))

        @Option(name: .long, help: ArgumentHelp(localized("Only this timer's alarm."), valueName: "id"))
        var id: String?

        func validate() throws {
            _ = try timerID()
        }

        /// The id to send: "" for every ringing timer.
        func timerID() throws(RestctlError) -> String {
            guard let id else { return "" }
            do {
                return try TimerIDParser.parse(id)
            } catch {
                throw RestctlError(.usage, error.message)
            }
        }

        func run() throws {
            let id = try timerID()
            try RestdConnection.withClient { client throws(ClientError) in try client.silence(id: id) }
        }
    }
}
