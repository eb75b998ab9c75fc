import ArgumentParser
import RestClient

extension Restctl {
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Show one timer.",
            discussion: """
                With --json and no such timer, prints null (and the sentence on stderr, exit \
                status 1), so that a pipeline into jq reads a value either way.
                """)

        @OptionGroup var timer: TimerSelection
        @OptionGroup var output: OutputFormat

        func run() throws {
            try Self.show(id: try timer.timerID(), json: output.json)
        }

        /// Prints the timer `id` (a valid id); `FastPath` calls this too.
        static func show(id: String, json: Bool) throws(RestctlError) {
            let result = Result { () throws(RestctlError) -> TimerSnapshot in
                try RestdConnection.withClient { client throws(ClientError) in try client.timer(id: id) }
            }
            switch result {
            case .success(let snapshot):
                print(OutputFormat.text(snapshot, now: WallClock.nowUSec(), json: json))
            case .failure(let failure):
                if json && failure.isNoSuchTimer { print("null") }
                throw failure
            }
        }
    }
}
