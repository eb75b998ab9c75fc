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

        func validate() throws {
            _ = try durationUSec(duration)
        }

        func run() throws {
            let delta = -Int64(try durationUSec(duration))  // at most Int64.max by contract
            let id = timer.timerID
            try Daemon.act(on: id) { client throws(ClientError) in try client.adjust(id: id, deltaUSec: delta) }
        }
    }
}
