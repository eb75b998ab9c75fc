import ArgumentParser
import Clocks
import Localization
import RestClient
import RestCore

extension Restctl {
    struct Report: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "report",
            abstract: localized("Write a training report: one HTML page of charts."),
            discussion: localized(
                """
                Volume per week (stacked by category from config.toml or a FitNotes import, else \
                by exercise), each \
                exercise's top set and estimated one-rep max, rests planned against taken with \
                the rule that chose them, recovery by week when rests were followed with a \
                strap, the heart rate of each followed rest of one day, and each workout with \
                its sets. The page is one file with everything in \
                it (no script, nothing loaded from the network), light or dark as the system \
                prefers. Default: the last 90 days, written to restd-report.html; where it was \
                written is said on standard error.
                """))

        @OptionGroup var selection: HistorySelection

        @Option(
            name: [.short, .long],
            help: ArgumentHelp(
                localized("Where to write the page (replaced whole, never half-written); - for standard output."),
                valueName: "file"))
        var output = "restd-report.html"

        @Flag(help: ArgumentHelp(localized("Open the page in the desktop's browser (xdg-open) once written.")))
        var open = false

        @Option(
            help: ArgumentHelp(
                localized(
                    "The day whose followed rests get a heart-rate curve each (same forms as --since, within the report's time); default: the last day of the report that has one."
                ), valueName: "when"))
        var day: String?

        func validate() throws {
            if output.isEmpty {
                throw ValidationError(localized("--output is empty; give a file name, or - for standard output"))
            }
            if open && output == "-" {
                throw ValidationError(localized("--open needs a file; give --output a file name"))
            }
            _ = try curveDay(now: KernelClock.realtimeUSec)
        }

        /// An instant of the day `--day` names, nil without it.
        func curveDay(now: UInt64) throws(RestctlError) -> UInt64? {
            do {
                return try day.map { text throws(InputError) in
                    try HistoryWindow.instant(text, as: .day, now: now)
                }
            } catch {
                throw RestctlError(.usage, error.message)
            }
        }

        func run() throws {
            let now = KernelClock.realtimeUSec
            let (since, until) = try selection.window(defaultSince: "90d", now: now)
            let name = try selection.exerciseName()
            let curveDay = try curveDay(now: now)
            if let curveDay, curveDay < LocalCalendar.startOfDay(containing: since) || (until != 0 && curveDay >= until)
            {
                throw RestctlError(
                    .usage,
                    localized(
                        "--day %1$s is outside the report's time; give a day between --since and --until, or widen them",
                        MessageText.quoted(day ?? "")))
            }
            // The heart rates of the day asked for (which may lie outside the window), else the window's.
            let traceWindow =
                curveDay.map { day in
                    let start = LocalCalendar.startOfDay(containing: day)
                    return (start, LocalCalendar.startOfDay(containing: start + 30 * 3_600_000_000))
                } ?? (since, until)
            let (sets, earlier, workouts, exercises, traces, unit) = try RestdConnection.withClient {
                client throws(ClientError) in
                (
                    try client.historySets(sinceUSec: since, untilUSec: until, exercise: name?.display),
                    // What the window's records are measured against.
                    since > 0 ? try client.historySets(sinceUSec: 0, untilUSec: since, exercise: name?.display) : [],
                    try client.workoutSummaries(sinceUSec: since, untilUSec: until), try client.exercises(),
                    try client.heartRateTraces(sinceUSec: traceWindow.0, untilUSec: traceWindow.1),
                    try client.weightUnit()
                )
            }
            var categories: [String: String] = [:]
            for exercise in exercises { categories[exercise.key] = exercise.category }
            let input = ReportInput(
                sinceUSec: since, untilUSec: until, nowUSec: now, exercise: name?.display,
                sets: sets, earlierSets: earlier,
                workouts: workouts, categories: categories, heartRates: traces, curveDayUSec: curveDay,
                weightUnit: unit)
            let page = TrainingReport.html(input)
            if output == "-" {
                if let error = StandardOutput.write(page) {
                    throw RestctlError(
                        .failed, localized("could not write the report to standard output: %1$s", errorText(error)))
                }
                return
            }
            let path = try FileOutput.replace(output, with: page)
            // On stderr, as `--output -` keeps stdout for the page itself.
            StandardError.write("restctl: " + localized("wrote the report to %1$s", path) + "\n")
            if open { try Browser.open(path) }
        }
    }
}
