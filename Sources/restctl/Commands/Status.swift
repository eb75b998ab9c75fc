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
            let id = try timer.timerID()
            let result = Result { () throws(RestctlError) -> TimerSnapshot in
                try RestdConnection.withClient { client throws(ClientError) in try client.timer(id: id) }
            }
            switch result {
            case .success(let snapshot):
                print(output.text(snapshot, now: WallClock.nowUSec()))
            case .failure(let failure):
                if output.json && failure.isNoSuchTimer { print("null") }
                throw failure
            }
        }
    }
}
