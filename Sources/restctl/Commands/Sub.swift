import ArgumentParser
import RestClient

extension Restctl {
    struct Sub: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sub",
            abstract: "Take time off a timer.",
            discussion: "A timer left with no time expires at once.")

        @Argument(help: ArgumentHelp("How much: 10, 10s, 1m, 1:30.", valueName: "duration"))
        var duration: String

        @OptionGroup var timer: TimerSelection
        @OptionGroup var output: OutputFormat

        func validate() throws {
            _ = try durationUSec(duration, as: .taken)
        }

        func run() throws {
            let delta = -Int64(try durationUSec(duration, as: .taken))  // at most 24 h
            let id = try timer.timerID()
            try RestdConnection.act(on: id, output: output) { client throws(ClientError) in
                try client.adjust(id: id, deltaUSec: delta)
            }
        }
    }
}
