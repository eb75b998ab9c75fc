import ArgumentParser
import RestClient
import RestCore

extension Restctl {
    struct Report: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "report",
            abstract: "Write a training report: one HTML page of charts and tables.",
            discussion: """
                Volume per week (stacked by category from config.toml, else by exercise), each \
                exercise's top set and estimated one-rep max, rests planned against taken with \
                the rule that chose them, recovery by week when rests were followed with a \
                strap, and each workout with its sets. The page is one file with everything in \
                it (no script, nothing loaded from the network), light or dark as the system \
                prefers. Default: the last 90 days, written to restd-report.html.
                """)

        @OptionGroup var selection: HistorySelection

        @Option(
            name: [.short, .long],
            help: ArgumentHelp(
                "Where to write the page (replaced whole, never half-written); - for standard output.",
                valueName: "file"))
        var output = "restd-report.html"

        @Flag(help: "Open the page in the desktop's browser (xdg-open) once written.")
        var open = false

        func validate() throws {
            if output.isEmpty { throw ValidationError("--output is empty; give a file name, or - for standard output") }
            if open && output == "-" { throw ValidationError("--open needs a file; give --output a file name") }
        }

        func run() throws {
            let now = WallClock.nowUSec()
            let (since, until) = try selection.window(defaultSince: "90d", now: now)
            let name = try selection.exerciseName()
            let (sets, workouts, exercises) = try RestdConnection.withClient { client throws(ClientError) in
                (
                    try client.historySets(sinceUSec: since, untilUSec: until),
                    try client.workoutSummaries(sinceUSec: since, untilUSec: until), try client.exercises()
                )
            }
            var categories: [String: String] = [:]
            for exercise in exercises { categories[exercise.key] = exercise.category }
            let input = ReportInput(
                sinceUSec: since, untilUSec: until, nowUSec: now, exercise: name?.display,
                sets: name.map { name in sets.filter { $0.exercise.lowercased() == name.key } } ?? sets,
                workouts: workouts, categories: categories)
            let page = TrainingReport.html(input)
            if output == "-" {
                if let error = StandardOutput.write(page) {
                    throw RestctlError(.failed, "could not write the report to standard output: \(errorText(error))")
                }
                return
            }
            let path = try FileOutput.replace(output, with: page)
            if open { try Browser.open(path) }
        }
    }
}
