import ArgumentParser
import Clocks
import Localization
import RestClient
import RestCore

extension Restctl {
    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stats",
            abstract: localized("Show whether the rests taken match those planned."),
            discussion: localized(
                """
                Per exercise, figures that add up: sets = rests + skipped + other, where rests \
                are the rests taken to their end (by the next set), skipped those ended with \
                restctl skip, and other the sets no rest was taken or skipped after (the last \
                set, a rest cancelled, replaced or still running); over the rests: the median \
                rest planned (after add and sub), the median rest taken, and the overrun, taken \
                minus planned as shown (positive when rests run long). Default: the last 30 days.
                """))

        @OptionGroup var selection: HistorySelection
        @OptionGroup var output: OutputFormat

        func run() throws {
            let (since, until) = try selection.window(defaultSince: "30d", now: KernelClock.realtimeUSec)
            let name = try selection.exerciseName()
            let stats = try RestdConnection.withClient { client throws(ClientError) in
                try client.historyStats(sinceUSec: since, untilUSec: until, exercise: name?.display)
            }
            if output.json {
                print(StatsFormat.json(stats))
            } else {
                for line in StatsFormat.lines(stats) { print(line) }
            }
        }
    }
}
