import ArgumentParser
import RestClient

extension Restctl {
    struct Skip: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "skip",
            abstract: "End the rest now, on purpose.",
            discussion: """
                The timer is over from now, without "Rest over". A rest started by set is \
                recorded as skipped. Prints the timer's line.
                """)

        @OptionGroup var timer: TimerSelection
        @OptionGroup var output: OutputFormat

        func run() throws {
            let id = try timer.timerID()
            try RestdConnection.act(on: id, output: output) { client throws(ClientError) in try client.skip(id: id) }
        }
    }
}
