import ArgumentParser
import Localization
import RestClient
import RestCore

extension Restctl {
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: localized("Import a Strong, Hevy or FitNotes export."),
            discussion: """
                Reads FILE, says which app's export it is (from its header, unless --from \
                says), and adds its sets to restd's history at their own dates, on the timer \
                'import', with each workout. Warm-ups are kept and marked (never failed sets \
                or records); cardio rows (distance or time, no reps) and Strong's rest timer \
                rows are skipped and counted; no rest is made up. Importing the same file again \
                adds nothing, and a set restd recorded itself (the same exercise, reps and \
                weight that day) is not added twice. A line that cannot be read is reported as \
                FILE:LINE: why, every one of them, and nothing is imported unless \
                --skip-bad-lines. Sets older than [history] keep_days are refused. IMPORT in \
                man restctl says which columns are read.
                """)

        @Argument(help: ArgumentHelp(localized("The CSV file the app exported."), valueName: "file"))
        var file: String

        @Option(
            help: ArgumentHelp(
                localized("The app that exported it (found by its header when not given)."), valueName: "app"))
        var from: ImportFormat?

        @Option(
            help: ArgumentHelp(
                localized("The unit of the file's weights, for an export that does not say (Strong's)."),
                valueName: "kg|lb"))
        var unit: WeightUnit?

        @Flag(help: ArgumentHelp(localized("Say what would be added, and write nothing.")))
        var dryRun = false

        @Flag(
            help: ArgumentHelp(
                localized("Import the lines that can be read, and skip the others (each still reported).")))
        var skipBadLines = false

        func run() throws {
            var reader = ImportReader(format: from, unit: unit)
            var problems = 0
            var pending: [ImportedSet] = []
            var client: RestdClient?
            var handle: String?
            // Sets go to restd as they are read, a batch at a time; restd adds none of them
            // before the commit, and drops them if restctl leaves first.
            func send(_ sets: [ImportedSet]) throws {
                guard !sets.isEmpty else { return }
                do throws(ClientError) {
                    if client == nil { client = try RestdClient() }
                    // The sets say their app: the reader is not to be read while it reads.
                    if handle == nil { handle = try client!.beginImport(source: sets[0].source) }
                    try client!.addImportRows(handle!, sets)
                } catch {
                    throw RestctlError(error)
                }
            }
            do {
                try ImportFile.read(file, into: &reader) { batch in
                    for problem in batch.problems { StandardError.write(problem.text(file: file) + "\n") }
                    problems += batch.problems.count
                    pending += batch.sets
                    while pending.count >= RestdClient.importBatchSize {
                        try send(Array(pending.prefix(RestdClient.importBatchSize)))
                        pending.removeFirst(RestdClient.importBatchSize)
                    }
                }
            } catch let failure as ImportFailure {
                throw RestctlError(.usage, failure.message(file: file))
            } catch let unreadable as ImportFile.Unreadable {
                throw RestctlError(.usage, unreadable.message)
            }
            try send(pending)
            guard let format = reader.format else {
                throw RestctlError(.usage, ImportFailure.empty.message(file: file))
            }
            print(ImportText.format(format, file: file, asked: from != nil))
            print(ImportText.read(reader.summary))
            if problems > 0 && !skipBadLines {
                throw RestctlError(.usage, ImportText.unreadLines(problems, file: file))
            }
            guard let client, let handle else {
                for line in ImportText.nothing(dryRun: dryRun) { print(line) }
                return
            }
            let outcome: ImportOutcome
            do {
                outcome = try client.commitImport(handle, dryRun: dryRun)
            } catch {
                throw RestctlError(error)
            }
            for line in ImportText.outcome(outcome) { print(line) }
        }
    }
}

extension ImportFormat: ExpressibleByArgument {}
extension WeightUnit: ExpressibleByArgument {}
