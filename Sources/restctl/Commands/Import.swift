import ArgumentParser
import Localization
import RestClient
import RestCore

extension Restctl {
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: localized("Import a Strong, Hevy or FitNotes export."),
            discussion: localized(
                """
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
                """))

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
            var upload = ImportParts()
            do {
                try ImportFile.read(file, into: &reader) { batch in
                    for problem in batch.problems { StandardError.write(problem.text(file: file) + "\n") }
                    problems += batch.problems.count
                    try upload.add(batch.sets, file: file)
                }
            } catch let failure as ImportFailure {
                throw RestctlError(.usage, failure.message(file: file))
            } catch let unreadable as ImportFile.Unreadable {
                throw RestctlError(.usage, unreadable.message)
            }
            try upload.finish()
            guard let format = reader.format else {
                throw RestctlError(.usage, ImportFailure.empty.message(file: file))
            }
            print(ImportText.format(format, file: file, asked: from != nil))
            print(ImportText.read(reader.summary))
            if problems > 0 && !skipBadLines {
                throw RestctlError(.usage, ImportText.unreadLines(problems, file: file))
            }
            guard !upload.parts.isEmpty else {
                for line in ImportText.nothing(dryRun: dryRun) { print(line) }
                return
            }
            let outcome = try upload.commit(dryRun: dryRun)
            if upload.parts.count > 1 {
                print(
                    localized(
                        "sent as %1$s imports of whole workouts, each added in one transaction, the oldest first",
                        upload.parts.count))
            }
            for line in ImportText.outcome(outcome) { print(line) }
        }
    }
}

/// A file's sets on their way to restd: as they are read, a batch of at most
/// `RestdClient.importBatchSize` a call, in imports of at most `HistoryImport.maxRows` sets
/// of whole workouts (restd commits each in one transaction, which must stay short). Every
/// part is staged before the first is committed, so that a file with a bad line adds nothing;
/// restd drops them all if restctl leaves first.
struct ImportParts {
    struct Part {
        var handle: String
        var sets = 0
        var earliestUSec = USec.max
    }

    private(set) var parts: [Part] = []
    private var client: RestdClient?
    /// The sets of the last part not sent yet.
    private var pending: [ImportedSet] = []

    /// `sets` (whole workouts, as `ImportFile.read` gives them) added to the last part, or to a
    /// new one when a workout would make it too large.
    mutating func add(_ sets: [ImportedSet], file: String) throws {
        var start = sets.startIndex
        while start < sets.endIndex {
            // One workout: the sets that follow with its app, start and name.
            let first = sets[start]
            let end =
                sets[start...].firstIndex {
                    $0.workoutStart != first.workoutStart || $0.workoutName != first.workoutName
                } ?? sets.endIndex
            let workout = sets[start..<end]
            if parts.isEmpty
                || (parts[parts.count - 1].sets > 0
                    && parts[parts.count - 1].sets + workout.count > HistoryImport.maxRows)
            {
                try flush()
                guard parts.count < HistoryImport.maxParts else {
                    throw RestctlError(
                        .usage,
                        localized(
                            "%1$s holds more than %2$s sets, more than restctl imports at once; export your history a part at a time (each year, say), or split the file",
                            file, parts.reduce(0) { $0 + $1.sets }))
                }
                do throws(ClientError) {
                    if client == nil { client = try RestdClient() }
                    parts.append(Part(handle: try client!.beginImport(source: first.source)))
                } catch {
                    throw RestctlError(error)
                }
            }
            for set in workout {
                parts[parts.count - 1].sets += 1
                parts[parts.count - 1].earliestUSec = min(parts[parts.count - 1].earliestUSec, set.atUSec)
            }
            pending += workout
            while pending.count >= RestdClient.importBatchSize {
                try send(Array(pending.prefix(RestdClient.importBatchSize)))
                pending.removeFirst(RestdClient.importBatchSize)
            }
            start = end
        }
    }

    /// Sends what is left of the last part.
    mutating func finish() throws { try flush() }

    /// Commits every part (or, dry, counts what each would add), the oldest first: a file that
    /// reaches further back than keep_days is refused before anything is added.
    func commit(dryRun: Bool) throws -> ImportOutcome {
        guard let client else { return ImportOutcome() }
        var total = ImportOutcome()
        total.dryRun = dryRun
        var committed = 0
        for part in parts.sorted(by: { $0.earliestUSec < $1.earliestUSec }) {
            do throws(ClientError) {
                total.add(try client.commitImport(part.handle, dryRun: dryRun))
                committed += 1
            } catch {
                var failure = RestctlError(error)
                if committed > 0 && !dryRun {
                    failure = RestctlError(
                        failure.kind,
                        localized(
                            "%1$s; the %2$s parts before it added %3$s sets: run the same import again to add the rest (nothing is added twice)",
                            failure.message, committed, total.setsAdded))
                }
                throw failure
            }
        }
        return total
    }

    private mutating func flush() throws {
        try send(pending)
        pending = []
    }

    private func send(_ sets: [ImportedSet]) throws {
        guard !sets.isEmpty, let client, let part = parts.last else { return }
        do throws(ClientError) {
            try client.addImportRows(part.handle, sets)
        } catch {
            throw RestctlError(error)
        }
    }
}

extension ImportFormat: ExpressibleByArgument {}
extension WeightUnit: ExpressibleByArgument {}
