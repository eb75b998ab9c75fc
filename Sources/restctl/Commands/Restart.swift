import ArgumentParser
import RestClient

extension Restctl {
    struct Restart: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "restart",
            abstract: "Run a timer again for its original duration.")

        @OptionGroup var timer: TimerSelection
        @OptionGroup var output: OutputFormat

        func run() throws {
            let id = try timer.timerID()
            try RestdConnection.act(on: id, output: output) { client throws(ClientError) in try client.restart(id: id) }
        }
    }
}
