import ArgumentParser
import RestClient

extension Restctl {
    struct Cancel: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "cancel", abstract: "Remove a timer.")

        @OptionGroup var timer: TimerSelection

        func run() throws {
            let id = timer.timerID
            try Daemon.withClient { client throws(ClientError) in try client.cancel(id: id) }
        }
    }
}
