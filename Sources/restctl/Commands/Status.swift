import ArgumentParser
import RestClient

extension Restctl {
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "status", abstract: "Show one timer.")

        @OptionGroup var timer: TimerSelection
        @OptionGroup var output: OutputFormat

        func run() throws {
            let id = timer.timerID
            let snapshot = try Daemon.withClient { client throws(ClientError) in try client.timer(id: id) }
            let now = WallClock.nowUSec()
            print(output.json ? TimerJSON.object(snapshot, now: now) : TimerLine.format(snapshot, now: now))
        }
    }
}
