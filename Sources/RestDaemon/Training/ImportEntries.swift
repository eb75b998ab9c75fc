import DBusKit
import RestCore
import RestProtocol

/// The Manager's import calls on the bus: a row's type (`ImportRowSignature`), CommitImport's
/// options and its reply (keys in `ImportKey`).
enum ImportEntries {
    /// workout_start, workout_name, exercise, order, at_usec, reps, weight_kg, warmup, failed,
    /// category.
    static let rowType = DBusType.structure([
        .string, .string, .string, .uint32, .uint64, .uint32, .double, .boolean, .boolean, .string,
    ])

    /// CommitImport's options: `dry_run` alone.
    static func dryRun(_ options: DBusValue) throws(DBusError) -> Bool {
        var dryRun = false
        for (key, value) in try BusArguments.options(options) {
            guard key == ImportKey.dryRun else { throw BusArguments.unknownOption(key, known: [ImportKey.dryRun]) }
            dryRun = try BusArguments.boolean(value, option: key)
        }
        return dryRun
    }

    /// CommitImport's reply.
    static func outcome(_ outcome: ImportOutcome) -> DBusValue {
        var entries: [String: DBusValue] = [
            ImportKey.dryRun: .boolean(outcome.dryRun),
            ImportKey.setsAdded: .uint32(UInt32(clamping: outcome.setsAdded)),
            ImportKey.warmupsAdded: .uint32(UInt32(clamping: outcome.warmupsAdded)),
            ImportKey.workoutsAdded: .uint32(UInt32(clamping: outcome.workoutsAdded)),
            ImportKey.alreadyImported: .uint32(UInt32(clamping: outcome.alreadyImported)),
            ImportKey.alreadyRecorded: .uint32(UInt32(clamping: outcome.alreadyRecorded)),
            ImportKey.newExercises: .strings(outcome.newExercises),
            ImportKey.matchedExercises: .strings(outcome.matchedExercises),
        ]
        if let earliest = outcome.earliestUSec { entries[ImportKey.earliestUSec] = .uint64(earliest) }
        if let latest = outcome.latestUSec { entries[ImportKey.latestUSec] = .uint64(latest) }
        return .vardict(entries)
    }
}
