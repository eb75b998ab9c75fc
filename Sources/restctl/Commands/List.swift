import ArgumentParser
import RestClient

extension Restctl {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "Show every timer, one line each.",
            discussion: "Prints nothing (or [] with --json) when there are no timers.")

        @OptionGroup var output: OutputFormat

        func run() throws {
            let timers = try Daemon.withClient { client throws(ClientError) in try client.timers() }
            let now = WallClock.nowUSec()
            if output.json {
                print(TimerJSON.array(timers, now: now))
            } else {
                for line in TimerLine.lines(timers, now: now) { print(line) }
            }
        }
    }
}
