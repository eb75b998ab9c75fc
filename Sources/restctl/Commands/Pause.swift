import ArgumentParser
import RestClient

extension Restctl {
    struct Pause: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "pause", abstract: "Pause a running timer.")

        @OptionGroup var timer: TimerSelection

        func run() throws {
            let id = timer.timerID
            try Daemon.act(on: id) { client throws(ClientError) in try client.pause(id: id) }
        }
    }
}
