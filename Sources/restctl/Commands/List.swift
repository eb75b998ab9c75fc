import ArgumentParser
import Clocks
import Localization
import RestClient

extension Restctl {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: localized("Show every timer, one line each."),
            discussion: localized("Prints nothing (or [] with --json) when there are no timers."))

        @OptionGroup var output: OutputFormat

        @Flag(help: ArgumentHelp(localized("Only the timers that are over (those 'restctl clear' removes).")))
        var expired = false

        func run() throws {
            let all = try RestdConnection.withClient { client throws(ClientError) in try client.timers() }
            let timers = expired ? all.filter { $0.state == "expired" } : all
            let now = KernelClock.realtimeUSec
            if output.json {
                print(TimerJSON.array(timers, now: now))
            } else {
                for line in TimerLine.lines(timers, now: now) { print(line) }
            }
        }
    }
}
