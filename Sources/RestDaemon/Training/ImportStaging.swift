import DBusKit
import EventLoop
import Glibc
import Localization
import RestCore
import RestProtocol

/// Imports of another app's history in progress (the Manager's BeginImport, AddImportRows,
/// CommitImport): restctl reads the file and sends its sets in batches, which wait here, checked
/// row by row, until the import is committed. Then they go through the one door as one
/// `Command.importHistory`, planned and written in one transaction. So the loop never blocks on
/// a whole file, and an import that is not committed adds nothing: it is dropped when its
/// client leaves the bus, or `idleUSec` after its last call. Nothing here is state.
final class ImportStaging {
    /// Imports staged at once: the parts of one large file (`HistoryImport.maxParts`).
    static let maxImports = HistoryImport.maxParts
    /// Rows one AddImportRows may carry: a call stays far below the bus's message size.
    static let maxRowsPerCall = 5_000
    /// An import untouched this long is dropped.
    static let idleUSec: UInt64 = 10 * 60 * 1_000_000
    /// The longest workout start, workout name or category kept, in UTF-8 bytes.
    static let maxTextBytes = 128

    private struct Staged {
        let owner: String
        let source: String
        var rows: [ImportRow] = []
        var touchedUSec: UInt64
    }

    private var staged: [String: Staged] = [:]
    private var nextHandle = 1
    private let service: StateService
    private let now: () -> UInt64
    private var idleTimer: (any ScheduledTimer)!

    init(service: StateService, connection: Connection, loop: some TimerScheduling) throws {
        self.service = service
        now = { [unowned loop] in loop.now(CLOCK_MONOTONIC) }
        idleTimer = try loop.addTimer(clock: CLOCK_MONOTONIC, at: 0, accuracyUSec: 1_000_000, priority: .idle) {
            [unowned self] _ in self.dropIdle()
        }
        idleTimer.isEnabled = false
        try connection.addMatch(MessageBus.nameOwnerChangedRule(leavingOnly: true))
        _ = connection.addSignalFilter { [unowned self] message in
            if let change = message.nameOwnerChange, change.newOwner.isEmpty { drop(owner: change.name) }
            return false  // others watch names too
        }
    }

    /// How many imports are staged (the tests see that one was dropped).
    var count: Int { staged.count }

    /// BeginImport: a new import of `source`'s sets for `owner`; its handle.
    func begin(source: String, owner: String) throws(DBusError) -> String {
        guard HistoryImport.sources.contains(source) else {
            throw DBusError(
                .invalidArgs,
                localized(
                    "source %1$s is none of the apps restd imports from: %2$s", MessageText.quoted(source),
                    HistoryImport.sources.joined(separator: ", ")))
        }
        guard staged.count < Self.maxImports else {
            throw DBusError(
                name: RestErrorName.limitExceeded,
                message: localizedPlural(
                    "%1$d import is staged already, the most at once; commit it, or wait until its client leaves the bus",
                    "%1$d imports are staged already, the most at once; commit one, or wait until its client leaves the bus",
                    count: Self.maxImports, Self.maxImports))
        }
        let handle = String(nextHandle)
        nextHandle += 1
        staged[handle] = Staged(owner: owner, source: source, touchedUSec: now())
        rearm()
        return handle
    }

    /// AddImportRows: `rows` (`ImportRowSignature`) checked and added to the import `handle`.
    /// A call with a bad row adds none of its rows.
    func add(handle: String, rows: DBusValue, owner: String) throws(DBusError) {
        var import_ = try take(handle, owner: owner)
        defer { staged[handle] = import_ }
        guard case .array(_, let values) = rows else {
            throw DBusError(.invalidArgs, "rows must be an array of \(ImportRowSignature.signature)")
        }
        guard values.count <= Self.maxRowsPerCall else {
            throw DBusError(
                name: RestErrorName.limitExceeded,
                message: localized(
                    "%1$d rows in one call; send at most %2$d a call", values.count, Self.maxRowsPerCall))
        }
        guard import_.rows.count + values.count <= HistoryImport.maxRows else {
            throw DBusError(
                name: RestErrorName.limitExceeded,
                message: localized(
                    "an import holds at most %1$d sets; send a larger file as several imports", HistoryImport.maxRows))
        }
        var read: [ImportRow] = []
        read.reserveCapacity(values.count)
        for (index, value) in values.enumerated() {
            do throws(DBusError) {
                read.append(try Self.row(value, source: import_.source))
            } catch {
                throw DBusError(
                    name: error.name, message: localized("row %1$d of this call: %2$s", index + 1, error.message))
            }
        }
        import_.rows += read
        import_.touchedUSec = now()
        rearm()
    }

    /// CommitImport: the import `handle`, planned and written in one transaction through the
    /// one door (or, dry, only planned); it is no longer staged, whatever the answer.
    func commit(handle: String, dryRun: Bool, owner: String) throws(DBusError) -> ImportOutcome {
        let import_ = try take(handle, owner: owner)
        staged[handle] = nil
        rearm()
        let committed = try service.perform(.importHistory(HistoryImport(rows: import_.rows, dryRun: dryRun)))
        guard let outcome = committed.imported else {
            throw DBusError(.failed, localized("restd planned the import without counting it: a defect in restd"))
        }
        return outcome
    }

    /// The import `handle`, when `owner` began it.
    private func take(_ handle: String, owner: String) throws(DBusError) -> Staged {
        guard let found = staged[handle], found.owner == owner else {
            throw DBusError(
                .invalidArgs,
                localizedPlural(
                    "no import %1$s is staged for this caller; begin one with BeginImport (an import is dropped when its client leaves the bus, or after %2$d minute untouched)",
                    "no import %1$s is staged for this caller; begin one with BeginImport (an import is dropped when its client leaves the bus, or after %2$d minutes untouched)",
                    count: Int(Self.idleUSec / 60_000_000), MessageText.quoted(handle), Self.idleUSec / 60_000_000))
        }
        return found
    }

    private func drop(owner: String) {
        let before = staged.count
        staged = staged.filter { $0.value.owner != owner }
        if staged.count != before { rearm() }
    }

    private func dropIdle() {
        let cutoff = now().subtractingSaturated(Self.idleUSec)
        staged = staged.filter { $0.value.touchedUSec > cutoff }
        rearm()
    }

    /// Armed for the oldest import's idle end; off when none is staged (no wake-up while idle).
    private func rearm() {
        guard let oldest = staged.values.map(\.touchedUSec).min() else {
            idleTimer.isEnabled = false
            return
        }
        idleTimer.schedule(at: oldest + Self.idleUSec)
    }

    /// One row, checked as a set is: an exercise name, reps and a weight a set may have.
    private static func row(_ value: DBusValue, source: String) throws(DBusError) -> ImportRow {
        guard case .structure(let fields) = value, fields.count == 10,
            case .string(let start) = fields[0], case .string(let workoutName) = fields[1],
            case .string(let exercise) = fields[2], case .uint32(let order) = fields[3],
            case .uint64(let atUSec) = fields[4], case .uint32(let reps) = fields[5],
            case .double(let weight) = fields[6], case .boolean(let warmup) = fields[7],
            case .boolean(let failed) = fields[8], case .string(let category) = fields[9]
        else { throw DBusError(.invalidArgs, "a row must be \(ImportRowSignature.signature)") }
        for (name, text) in [("workout_start", start), ("workout_name", workoutName), ("category", category)] {
            guard text.utf8.count <= maxTextBytes, !text.unicodeScalars.contains(where: \.isControlCharacter) else {
                throw DBusError(
                    .invalidArgs,
                    localized(
                        "%1$s must be at most %2$d bytes of text without control characters", name, maxTextBytes))
            }
        }
        guard !start.isEmpty else { throw DBusError(.invalidArgs, localized("workout_start is empty")) }
        guard order >= 1 else { throw DBusError(.invalidArgs, localized("order 0: a set's order starts at 1")) }
        guard atUSec > 0, Int64(exactly: atUSec) != nil else {
            throw DBusError(.invalidArgs, localized("at_usec %1$d is no time a set was done", atUSec))
        }
        let name: ExerciseName
        do {
            name = try ExerciseName(parsing: exercise)
        } catch {
            throw error.dbusError
        }
        let row = ImportRow(
            source: source, workoutStart: start, workoutName: workoutName, exercise: name, order: order,
            atUSec: atUSec, reps: reps == SetRow.noReps ? nil : reps, weightKg: weight.isNaN ? nil : weight,
            warmup: warmup, failed: failed, category: category.isEmpty ? nil : category)
        do {
            try SetInput(reps: row.reps, weightKg: row.weightKg).validate(limits: .standard)
        } catch {
            throw error.dbusError
        }
        return row
    }
}
