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

        func validate() throws {
            _ = try durationUSec(duration)
        }

        func run() throws {
            let delta = Int64(try durationUSec(duration))  // at most Int64.max by contract
            let id = timer.timerID
            try Daemon.act(on: id) { client throws(ClientError) in try client.adjust(id: id, deltaUSec: delta) }
        }
    }
}
