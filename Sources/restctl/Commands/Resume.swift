import ArgumentParser
import RestClient

extension Restctl {
    struct Resume: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "resume", abstract: "Resume a paused timer.")

        @OptionGroup var timer: TimerSelection

        func run() throws {
            let id = timer.timerID
            try Daemon.act(on: id) { client throws(ClientError) in try client.resume(id: id) }
        }
    }
}
