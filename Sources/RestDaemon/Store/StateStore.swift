import Glibc
import Localization
import RestCore
import RestProtocol
import SQLiteKit

/// A failure of the state file, as a sentence for the log and the caller.
struct StoreError: Error, CustomStringConvertible {
    let description: String
    /// Set when another restd holds the state directory: restd then exits with a status of its own.
    var inUse: StateLock.InUse?

    init(description: String) {
        self.description = description
    }

    init(_ inUse: StateLock.InUse) {
        description = inUse.description
        self.inUse = inUse
    }
}

/// The state on disk, timers, training history and workout: one SQLite database in WAL mode, written
/// synchronously (the history's reads and writes are in HistoryStore.swift).
///
/// Every mutation is one transaction with `synchronous = FULL`, so once `commit` returns the
/// change survives kill -9 and power loss. All calls block the calling thread and deliver
/// nothing asynchronously: the daemon calls them from its sd-event loop. SQLite's C API is used
/// directly (no GRDB, no libdispatch): nothing here starts a thread or a timer.
final class StateStore {
    /// The schema this code writes; `PRAGMA user_version` of a current file. Files of an older
    /// version are migrated when opened (1 → 2 added `warn_usec` and `warned`; 2 → 3 the
    /// training history, `HistorySchema`, and the timers' `rest_source`; 3 → 4 the workouts,
    /// `WorkoutSchema`; 4 → 5 the timers' `end_reason`; 5 → 6 the rests' recovery,
    /// `HistorySchema.recoveryColumns`; 6 → 7 the followed rests' heart rate, `HeartRateSchema`;
    /// 7 → 8 the indexes records are read from, `HistorySchema.recordIndexes`; 8 → 9 the timers'
    /// `sound` and `rings_until_usec`; 9 → 10 the sets' `warmup` and `import_key`,
    /// `HistorySchema.importColumns`; 10 → 11 the exercises' imported `category` and the
    /// deleted imports, `HistorySchema.deletedImportsTable`).
    static let schemaVersion = 11
    /// The file name inside the state directory.
    static let fileName = "state.sqlite"

    /// Path of the database file.
    let path: String
    /// Why the previous state file was moved aside at open, nil when it was not.
    let movedAsideReason: String?

    /// Why changes cannot be saved (the state directory is read-only), nil when they can.
    let readOnlyReason: String?

    let database: SQLiteDatabase
    /// The statements every batch uses, prepared once for the life of the connection; nil once closed.
    private var statements: Statements?
    /// The private directory holding the copy a read-only state directory is served from:
    /// removed when the store is closed.
    private let scratchDirectory: String?
    /// This restd's claim on the state directory, let go when the store is closed; nil for a
    /// read-only state directory, which restd never writes.
    private let lock: StateLock?

    struct Statements {
        let upsert: SQLiteStatement
        let delete: SQLiteStatement
        let selectAll: SQLiteStatement
        let history: HistoryStatements

        init(_ database: SQLiteDatabase) throws(SQLiteError) {
            upsert = try database.prepare(StateStore.upsertTimer)
            delete = try database.prepare("DELETE FROM timers WHERE id = ?")
            selectAll = try database.prepare("SELECT \(Column.list) FROM timers")
            history = try HistoryStatements(database)
        }
    }

    private init(
        path: String, database: SQLiteDatabase, movedAsideReason: String?, lock: StateLock?,
        readOnlyReason: String? = nil, scratchDirectory: String? = nil
    ) throws(StoreError) {
        self.path = path
        self.database = database
        self.movedAsideReason = movedAsideReason
        self.lock = lock
        self.readOnlyReason = readOnlyReason
        self.scratchDirectory = scratchDirectory
        do {
            statements = try Statements(database)
        } catch {
            throw StoreError(description: localized("could not open the state file %1$s: %2$s", path, error.reason))
        }
    }

    // MARK: - Opening

    /// Opens `<directory>/state.sqlite`, creating the directory (mode 0700) and the file
    /// (mode 0600) as needed, once `holder` (this process) holds the directory's lock: a
    /// directory another restd holds is refused (`StoreError.inUse`) before anything in it is read.
    ///
    /// A file that cannot be read as a current state file is renamed, with its -wal and -shm
    /// companions, to `state.sqlite.broken-<UTC time>` and a fresh store is created; the new
    /// names are returned in `movedAside`. Data that could not be read is never deleted or
    /// overwritten. Errors that say nothing about the file itself (disk full, locked, I/O)
    /// are thrown instead, so a healthy file is never set aside by accident.
    static func open(
        directory: String, now: USec, holder: StateDirectory.Holder = .init(pid: getpid(), bus: "")
    ) throws(StoreError) -> (store: StateStore, movedAside: [String]) {
        if StoreFiles.isReadOnlyDirectory(directory) {
            return (try openReadOnlyCopy(directory: directory, now: now), [])
        }
        try StoreFiles.makePrivateDirectory(directory)
        let lock: StateLock
        switch try StateLock.acquire(directory: directory, holder: holder) {
        case .success(let acquired): lock = acquired
        case .failure(let inUse): throw StoreError(inUse)
        }
        let path = directory + "/" + fileName

        var movedAside: [String] = []
        var reason: String?
        if let problem = try diagnose(path) {
            movedAside = try StoreFiles.moveAside(path, companions: ["-wal", "-shm"], now: now)
            reason = problem
        }
        let database = try openWritable(path)
        return (try StateStore(path: path, database: database, movedAsideReason: reason, lock: lock), movedAside)
    }

    /// A state directory that cannot be written (a read-only mount): the state is copied, with
    /// its -wal, into a private scratch directory and read from there, so that the timers are
    /// served and keep expiring while every change is refused. The originals are not touched;
    /// a copy that cannot be read, or whose check fails, is set aside and restd starts empty.
    /// No lock is taken: none can be created or written there, and the lock guards the state
    /// file against two writers, while this restd writes nothing but its private copy.
    private static func openReadOnlyCopy(directory: String, now: USec) throws(StoreError) -> StateStore {
        let path = directory + "/" + fileName
        let scratch = try StoreFiles.makeScratchDirectory()
        let copy = scratch + "/" + fileName
        let readOnlyReason = localized("the state directory %1$s is read-only", directory)
        do {
            for suffix in ["", "-wal"] where access(path + suffix, R_OK) == 0 {
                try StoreFiles.copyFile(path + suffix, to: copy + suffix)
            }
            // Unreadable, not a state file, or not even checkable: serve nothing rather than guess.
            let problem: String?
            do {
                problem = try diagnose(copy)
            } catch {
                problem = error.description
            }
            if problem != nil {
                for suffix in ["", "-wal", "-shm"] { unlink(copy + suffix) }
            }
            let database = try openWritable(copy)
            return try StateStore(
                path: path, database: database, movedAsideReason: problem, lock: nil,
                readOnlyReason: readOnlyReason, scratchDirectory: scratch)
        } catch {
            StoreFiles.removeScratchDirectory(scratch)
            throw error
        }
    }

    /// Lets go of the pages SQLite cached while reading (all timers at start-up, a year of sets
    /// for stats): the next read takes them from the kernel's page cache again.
    func releaseCachedPages() {
        database.releaseCachedPages()
    }

    /// Closes the database, removes the scratch copy of a read-only state and lets the state
    /// directory go; later calls fail.
    func close() throws(StoreError) {
        statements = nil
        do {
            try database.close()
        } catch {
            throw StoreError(description: localized("could not close the state file %1$s: %2$s", path, error.reason))
        }
        if let scratchDirectory { StoreFiles.removeScratchDirectory(scratchDirectory) }
        lock?.release()
    }

    /// Returns nil when `path` is absent or a readable current state file, otherwise a
    /// sentence saying why it cannot be used. Throws for errors that are not the file's fault.
    private static func diagnose(_ path: String) throws(StoreError) -> String? {
        switch StoreFiles.kind(of: path) {
        case .absent:
            return nil
        case .other(let kind):
            return switch kind {
            case .directory: localized("%1$s is a directory, not a database file", path)
            case .symbolicLink: localized("%1$s is a symbolic link, not a database file", path)
            case .fifo: localized("%1$s is a FIFO, not a database file", path)
            case .socket: localized("%1$s is a socket, not a database file", path)
            case .deviceNode: localized("%1$s is a device node, not a database file", path)
            case .inaccessible(let reason): localized("%1$s is inaccessible (%2$s), not a database file", path, reason)
            }
        case .regularFile:
            break
        }
        // Read-only, so that examining a broken file cannot alter its bytes (a read-write
        // open would, for one, rewrite the header to switch it to WAL).
        do {
            let checker = try SQLiteDatabase(path: path, readOnly: true)
            // One read transaction, as every check must see the same snapshot.
            try checker.execute("BEGIN")
            defer { try? checker.execute("COMMIT") }
            return try schemaProblem(checker, path: path)
        } catch  where isFileProblem(error, path: path) {
            return localized("%1$s cannot be read: %2$s", path, error.reason)
        } catch {
            throw StoreError(description: localized("could not read the state file %1$s: %2$s", path, error.reason))
        }
    }

    /// Checks version, integrity and table shape; nil when the file is usable.
    private static func schemaProblem(_ database: SQLiteDatabase, path: String) throws(SQLiteError) -> String? {
        let version = try database.integer("PRAGMA user_version") ?? 0
        if version > schemaVersion {
            return localized(
                "%1$s has schema version %2$d, newer than this restd understands (%3$d)", path, version, schemaVersion)
        }
        let tables = try database.strings(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        // The whole file, except the two tables that grow with the history (sets and rests: a
        // year of sets is 20 MB, whose check would add tens of milliseconds to every start);
        // their pages are read only by history queries and the commits of sets, which fail
        // (StorageFailed) rather than return a damaged page.
        let history = version >= 3 && tables.contains("timers")
        for table in history ? ["timers", "exercises"].filter(tables.contains) : [""] {
            let check = try database.strings(table.isEmpty ? "PRAGMA quick_check" : "PRAGMA quick_check('\(table)')")
            if check != ["ok"] {
                // Skip the "*** in database main ***" banner; two findings are enough for a log line.
                let findings = check.filter { !$0.hasPrefix("*** ") }.prefix(2)
                return localized("%1$s fails the integrity check: %2$s", path, findings.joined(separator: "; "))
            }
        }
        switch version {
        case 0 where tables.isEmpty:
            return nil
        case 0:
            return localized("%1$s has no schema version but holds tables (%2$s)", path, tables.joined(separator: ", "))
        case 1...Int64(schemaVersion):
            guard tables.contains("timers") else {
                return localized("%1$s has schema version %2$d but no timers table", path, version)
            }
            let columns = try database.strings("SELECT name FROM pragma_table_info('timers')")
            guard Set(columns) == Set(Column.all(version: Int(version))) else {
                return localized(
                    "%1$s has a timers table with unexpected columns (%2$s)", path, columns.joined(separator: ", "))
            }
            guard version >= 3 else { return nil }
            let expectedTables = HistorySchema.columns(version: version).merging(
                version >= 4 ? WorkoutSchema.columns : [:]
            ) { $1 }.merging(version >= 7 ? HeartRateSchema.columns : [:]) { $1 }
            for (table, expected) in expectedTables.sorted(by: { $0.key < $1.key }) {
                guard tables.contains(table) else {
                    return localized("%1$s has schema version %2$d but no %3$s table", path, version, table)
                }
                let columns = try database.strings("SELECT name FROM pragma_table_info('\(table)')")
                guard Set(columns) == Set(expected) else {
                    return localized(
                        "%1$s has a %2$s table with unexpected columns (%3$s)", path, table,
                        columns.joined(separator: ", "))
                }
            }
            return nil
        default:
            return localized("%1$s has an invalid schema version %2$d", path, version)
        }
    }

    /// Errors that mean the file itself is unusable, as opposed to the system being in trouble.
    private static func isFileProblem(_ error: SQLiteError, path: String) -> Bool {
        switch error.kind {
        case .damaged, .denied:
            true
        case .cannotOpen:
            // Unreadable file, or only out of file descriptors? Only the first is the file's fault.
            access(path, R_OK | W_OK) != 0 && (errno == EACCES || errno == EPERM)
        case .shortRead:
            // A truncated file; other I/O errors may be passing.
            true
        case .other:
            false
        }
    }

    /// Opens (creating if needed) a usable or absent state file and brings its schema up to date.
    private static func openWritable(_ path: String) throws(StoreError) -> SQLiteDatabase {
        // Created here with 0600 so SQLite, which gives -wal and -shm the mode of the
        // main file, never creates anything readable by others.
        try StoreFiles.makePrivateFile(path)
        do {
            let database = try SQLiteDatabase(path: path)
            guard try database.strings("PRAGMA journal_mode = WAL") == ["wal"] else {
                throw StoreError(
                    description: localized(
                        "could not open the state file %1$s: could not switch to WAL journal mode", path))
            }
            // WAL's usual NORMAL may lose the last commits on power loss; FULL does not.
            try database.execute("PRAGMA synchronous = FULL")
            // One transaction: a failed migration leaves the file as it was.
            try database.transaction { () throws(SQLiteError) in
                let version = try database.integer("PRAGMA user_version") ?? 0
                if version == 0 {
                    try database.execute(createTimersTable)
                    try database.execute(HistorySchema.create)
                    try database.execute(HistorySchema.addRecoveryColumns)
                    try database.execute(WorkoutSchema.create)
                    try database.execute(HeartRateSchema.create)
                    try database.execute(HistorySchema.createRecordIndexesOfSchema8)
                    try database.execute(HistorySchema.addImportColumns)
                    try database.execute(HistorySchema.addCategoriesAndDeletedImports)
                } else {
                    for step in migrations where step.from >= version {
                        try database.execute(step.sql)
                    }
                }
                if version != schemaVersion {
                    try database.execute("PRAGMA user_version = \(schemaVersion)")
                }
            }
            for suffix in ["-wal", "-shm"] {
                try StoreFiles.restrict(path + suffix, mode: 0o600, ignoringAbsence: true)
            }
            return database
        } catch let error as StoreError {
            throw error
        } catch let error as SQLiteError {
            throw StoreError(description: localized("could not open the state file %1$s: %2$s", path, error.reason))
        } catch {
            throw StoreError(
                description: localized("could not open the state file %1$s: %2$s", path, String(describing: error)))
        }
    }

    // MARK: - Reading and writing

    /// Reads every stored timer, in the order of the table (id order would cost an index lookup
    /// per row; the rows skipped are described in that order too); `deadlineBoottime` is 0 on
    /// all of them.
    ///
    /// Rows that do not make a valid timer (an id that is not a valid TimerID, an unknown
    /// state, a negative time, a text with control characters) are skipped and described
    /// through `skipped`, not deleted: they are left for a human to inspect, and a later
    /// Start of the same (valid) id simply replaces such a row.
    func loadAll(skipped: (String) -> Void = { _ in }) throws(StoreError) -> [RestTimer] {
        // Each row made a timer as it is read, its columns read straight from the statement:
        // 10,000 rows are never all held as values at once. The array is sized once: growing it
        // would copy every timer read so far at each doubling.
        var timers: [RestTimer] = []
        do {
            timers.reserveCapacity(Int(try database.integer("SELECT count(*) FROM timers") ?? 0))
            let select = try openStatements().selectAll
            try select.bind([])
            while try select.step() {
                do {
                    timers.append(try Self.timer(from: select))
                } catch {
                    skipped(error.description)
                }
            }
        } catch {
            throw StoreError(description: localized("could not read the state file %1$s: %2$s", path, error.reason))
        }
        return timers
    }

    /// Persists timer events and history changes in one transaction (the store's one write):
    /// added and changed timers are upserted, removed ones deleted; an empty change touches
    /// nothing. With
    /// `pruneBeforeUSec`, history older than that goes in the same transaction (pruning rides
    /// on commits, so that it never needs a wake-up of its own).
    func commit(_ events: [TimerEvent], history: [HistoryChange], pruneBeforeUSec: USec? = nil) throws(StoreError) {
        if events.isEmpty && history.isEmpty {
            // Only pruning: nothing to refuse on a read-only state.
            guard pruneBeforeUSec != nil, readOnlyReason == nil else { return }
        }
        if let readOnlyReason { throw StoreError(description: localized("cannot save changes: %1$s", readOnlyReason)) }
        func failure(_ reason: String) -> StoreError {
            StoreError(description: localized("could not write the state file %1$s: %2$s", path, reason))
        }
        // Rows are made before the transaction, so that a timer that cannot be stored fails the
        // whole batch without touching the file.
        enum Write { case upsert([SQLiteValue]), delete(String) }
        var writes: [Write] = []
        for event in events {
            switch event {
            case .added(let timer), .changed(from: _, to: let timer):
                do {
                    writes.append(.upsert(try Self.values(for: timer)))
                } catch {
                    throw failure(error.description)
                }
            case .removed(let timer):
                writes.append(.delete(timer.id.rawValue))
            case .expired, .warning:
                break
            }
        }
        var historyWrites: [HistoryStatements.Write] = []
        for change in history {
            do {
                historyWrites += try HistoryStatements.writes(for: change)
            } catch {
                throw failure(error.description)
            }
        }
        do {
            let statements = try openStatements()
            try database.transaction { () throws(SQLiteError) in
                for write in writes {
                    switch write {
                    case .upsert(let values): try statements.upsert.run(values)
                    case .delete(let id): try statements.delete.run([.text(id)])
                    }
                }
                try statements.history.run(historyWrites, pruneBeforeUSec: pruneBeforeUSec)
            }
        } catch {
            throw failure(error.reason)
        }
    }

    /// The value of a read-only PRAGMA on the store's own connection ("synchronous",
    /// "journal_mode"): per-connection settings cannot be seen from any other connection.
    func pragma(_ name: String) throws(StoreError) -> String? {
        precondition(name.allSatisfy { $0.isLetter || $0 == "_" }, "not a pragma name: \(name)")
        do {
            return switch try database.rows("PRAGMA \(name)").first?.first {
            case .integer(let value): String(value)
            case .text(let value): value
            default: nil
            }
        } catch {
            throw StoreError(description: localized("could not read the state file %1$s: %2$s", path, error.reason))
        }
    }

    func openStatements() throws(SQLiteError) -> Statements {
        guard let statements else {
            throw SQLiteError.closed(localized("the state file is closed"))
        }
        return statements
    }

    // MARK: - Rows

    /// The columns of the current schema, in the order of `SELECT \(Column.list)`: rows are read
    /// by position (hashing each name for each row was most of the cost of loading 10,000 timers).
    private enum Column: Int, CaseIterable {
        case id, label, next, notify, base_duration_usec, state, duration_usec, started_at_usec, ends_at_usec,
            remaining_usec, expired_at_usec, updated_at_usec
        // Schema 2.
        case warn_usec, warned
        // Schema 3.
        case rest_source
        // Schema 5.
        case end_reason
        // Schema 9.
        case sound, rings_until_usec

        var name: String { String(describing: self) }

        static let all = allCases.map(\.name)
        static let list = all.joined(separator: ", ")

        /// The columns a file of schema `version` has.
        static func all(version: Int) -> [String] {
            switch version {
            case 1: Array(all[...Column.updated_at_usec.rawValue])
            case 2: Array(all[...Column.warned.rawValue])
            case 3, 4: Array(all[...Column.rest_source.rawValue])
            case 5, 6, 7, 8: Array(all[...Column.end_reason.rawValue])
            default: all
            }
        }
    }

    /// The steps from each older schema version to the next; `from` is the version they start at.
    /// A column added here gets a default, so that rows written by an older restd stay valid.
    private static let migrations: [(from: Int64, sql: String)] = [
        (
            1,
            """
            ALTER TABLE timers ADD COLUMN warn_usec INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE timers ADD COLUMN warned INTEGER NOT NULL DEFAULT 0
            """
        ),
        (2, "ALTER TABLE timers ADD COLUMN rest_source TEXT NOT NULL DEFAULT '';\n" + HistorySchema.create),
        (3, WorkoutSchema.create),
        (4, "ALTER TABLE timers ADD COLUMN end_reason TEXT NOT NULL DEFAULT ''"),
        (5, HistorySchema.addRecoveryColumns),
        (6, HeartRateSchema.create),
        (7, HistorySchema.createRecordIndexesOfSchema8),
        (
            8,
            """
            ALTER TABLE timers ADD COLUMN sound INTEGER NOT NULL DEFAULT 1;
            ALTER TABLE timers ADD COLUMN rings_until_usec INTEGER NOT NULL DEFAULT 0
            """
        ),
        (9, HistorySchema.addImportColumns),
        (10, HistorySchema.addCategoriesAndDeletedImports),
    ]

    // STRICT makes SQLite refuse a value of the wrong type instead of storing it.
    private static let createTimersTable = """
        CREATE TABLE timers (
            id TEXT PRIMARY KEY NOT NULL,
            label TEXT NOT NULL,
            next TEXT NOT NULL,
            notify INTEGER NOT NULL,
            base_duration_usec INTEGER NOT NULL,
            state TEXT NOT NULL,
            duration_usec INTEGER NOT NULL,
            started_at_usec INTEGER NOT NULL,
            ends_at_usec INTEGER NOT NULL,
            remaining_usec INTEGER NOT NULL,
            expired_at_usec INTEGER NOT NULL,
            updated_at_usec INTEGER NOT NULL,
            warn_usec INTEGER NOT NULL DEFAULT 0,
            warned INTEGER NOT NULL DEFAULT 0,
            rest_source TEXT NOT NULL DEFAULT '',
            end_reason TEXT NOT NULL DEFAULT '',
            sound INTEGER NOT NULL DEFAULT 1,
            rings_until_usec INTEGER NOT NULL DEFAULT 0
        ) STRICT
        """

    fileprivate static let upsertTimer = """
        INSERT INTO timers (\(Column.list)) VALUES (\(Column.all.map { _ in "?" }.joined(separator: ", ")))
        ON CONFLICT(id) DO UPDATE SET
        \(Column.all.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
        """

    private static func values(for timer: RestTimer) throws(StoreError) -> [SQLiteValue] {
        func integer(_ value: USec, _ name: String) throws(StoreError) -> SQLiteValue {
            // SQLite integers are signed; realistic µs times are far below Int64.max.
            guard let int = Int64(exactly: value) else {
                throw StoreError(
                    description: localized(
                        "timer %1$s has %2$s %3$d, out of range", MessageText.quoted(timer.id.rawValue), name, value))
            }
            return .integer(int)
        }
        return [
            .text(timer.id.rawValue), .text(timer.label), .text(timer.next), .integer(timer.notify ? 1 : 0),
            try integer(timer.baseDurationUSec, "base_duration_usec"), .text(timer.state.rawValue),
            try integer(timer.durationUSec, "duration_usec"), try integer(timer.startedAtUSec, "started_at_usec"),
            try integer(timer.endsAtUSec, "ends_at_usec"), try integer(timer.remainingUSec, "remaining_usec"),
            try integer(timer.expiredAtUSec, "expired_at_usec"), try integer(timer.updatedAtUSec, "updated_at_usec"),
            try integer(timer.warnUSec, "warn_usec"), .integer(timer.warned ? 1 : 0), .text(timer.restSource),
            .text(timer.endReason?.rawValue ?? ""), .integer(timer.sound ? 1 : 0),
            try integer(timer.ringsUntilUSec, "rings_until_usec"),
        ]
    }

    /// A timer from the current row of `SELECT \(Column.list)`, each column read once, decoded
    /// without trusting it.
    private static func timer(from row: SQLiteStatement) throws(StoreError) -> RestTimer {
        func column(_ column: Column) -> SQLiteValue { row.column(Int32(column.rawValue)) }
        let rawID = column(.id).text ?? "?"
        let row = MessageText.quoted(rawID)
        func text(_ name: Column) throws(StoreError) -> String {
            // Control characters would end up in notifications and the journal.
            guard let value = column(name).text,
                !value.unicodeScalars.contains(where: \.isControlCharacter)
            else {
                throw StoreError(
                    description: localized(
                        "skipped a stored timer: row %1$s has a %2$s that is missing or contains a control character",
                        row, name.name))
            }
            return value
        }
        func usec(_ name: Column) throws(StoreError) -> USec {
            guard let value = column(name).integer, let usec = USec(exactly: value) else {
                throw StoreError(
                    description: localized("skipped a stored timer: row %1$s has an invalid %2$s", row, name.name))
            }
            return usec
        }
        func flag(_ name: Column) throws(StoreError) -> Bool {
            guard let value = column(name).integer, value == 0 || value == 1 else {
                throw StoreError(
                    description: localized(
                        "skipped a stored timer: row %1$s has a %2$s value that is neither 0 nor 1", row, name.name))
            }
            return value == 1
        }

        let id: TimerID
        do {
            id = try TimerID(parsing: rawID)
        } catch {
            throw StoreError(
                description: localized("skipped a stored timer: row %1$s has an invalid id: %2$s", row, error.message))
        }
        let stateText = column(.state).text
        guard let state = stateText.flatMap(TimerState.init(rawValue:)) else {
            throw StoreError(
                description: localized(
                    "skipped a stored timer: row %1$s has an unknown state %2$s", row,
                    MessageText.quoted(stateText ?? "?")))
        }
        let reasonText = try text(.end_reason)
        let endReason = EndReason(rawValue: reasonText)
        guard reasonText.isEmpty || endReason != nil else {
            throw StoreError(
                description: localized(
                    "skipped a stored timer: row %1$s has an unknown end_reason %2$s", row,
                    MessageText.quoted(reasonText)))
        }
        return RestTimer(
            id: id, label: try text(.label), next: try text(.next), notify: try flag(.notify),
            sound: try flag(.sound), ringsUntilUSec: try usec(.rings_until_usec),
            baseDurationUSec: try usec(.base_duration_usec), state: state,
            durationUSec: try usec(.duration_usec), startedAtUSec: try usec(.started_at_usec),
            endsAtUSec: try usec(.ends_at_usec), remainingUSec: try usec(.remaining_usec),
            expiredAtUSec: try usec(.expired_at_usec), updatedAtUSec: try usec(.updated_at_usec),
            deadlineBoottime: 0, warnUSec: try usec(.warn_usec), warned: try flag(.warned),
            restSource: try text(.rest_source), endReason: endReason)
    }
}
