import ArgumentParser
import RestClient

extension Restctl {
    struct Restart: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "restart",
            abstract: "Run a timer again for its original duration.")

        @OptionGroup var timer: TimerSelection

        func run() throws {
            let id = timer.timerID
            try Daemon.act(on: id) { client throws(ClientError) in try client.restart(id: id) }
        }
    }
}
