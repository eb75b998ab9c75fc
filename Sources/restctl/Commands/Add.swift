import ArgumentParser
import RestClient

extension Restctl {
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add time to a timer.",
            discussion: "An expired timer starts a new run of that length.")

        @Argument(help: ArgumentHelp("How much: 30, 30s, 1m, 1:30.", valueName: "duration"))
        var duration: String

        @OptionGroup var timer: TimerSelection
        @OptionGroup var output: OutputFormat

        func validate() throws {
            _ = try durationUSec(duration, as: .added)
        }

        func run() throws {
            let delta = Int64(try durationUSec(duration, as: .added))  // at most 24 h
            let id = try timer.timerID()
            try RestdConnection.act(on: id, output: output) { client throws(ClientError) in
                try client.adjust(id: id, deltaUSec: delta)
            }
        }
    }
}
