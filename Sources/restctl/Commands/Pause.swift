import ArgumentParser
import RestClient

extension Restctl {
    struct Pause: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "pause", abstract: "Pause a running timer.")

        @OptionGroup var timer: TimerSelection
        @OptionGroup var output: OutputFormat

        func run() throws {
            let id = try timer.timerID()
            try RestdConnection.act(on: id, output: output) { client throws(ClientError) in try client.pause(id: id) }
        }
    }
}
