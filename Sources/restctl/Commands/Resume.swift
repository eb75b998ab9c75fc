import ArgumentParser
import RestClient

extension Restctl {
    struct Resume: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "resume", abstract: "Resume a paused timer.")

        @OptionGroup var timer: TimerSelection
        @OptionGroup var output: OutputFormat

        func run() throws {
            let id = try timer.timerID()
            try RestdConnection.act(on: id, output: output) { client throws(ClientError) in try client.resume(id: id) }
        }
    }
}
