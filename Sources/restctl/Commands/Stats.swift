import ArgumentParser
import RestClient
import RestCore

extension Restctl {
    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stats",
            abstract: "Show whether the rests taken match those planned.",
            discussion: """
                Per exercise: sets, rests (ended by the next set or a skip), the median rest \
                planned (after add and sub), the median rest taken, the median overrun (taken \
                minus planned: positive when rests run long), and how many rests were skipped. \
                Default: the last 30 days.
                """)

        @OptionGroup var selection: HistorySelection
        @OptionGroup var output: OutputFormat

        func run() throws {
            let (since, until) = try selection.window(defaultSince: "30d", now: WallClock.nowUSec())
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
