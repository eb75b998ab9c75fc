import Foundation
import GRDB
import RestCore

/// A failure of the state file, as a sentence for the log and the caller.
struct StoreError: Error, CustomStringConvertible {
    let description: String
}

/// The timers on disk: one SQLite database in WAL mode, written synchronously.
///
/// Every mutation is one transaction with `synchronous = FULL`, so once `apply` returns the
/// change survives kill -9 and power loss. All calls block the calling thread and deliver
/// nothing asynchronously: the daemon calls them from its sd-event loop, where the main
/// dispatch queue never runs.
final class TimerStore: Sendable {
    /// The schema this code writes; `PRAGMA user_version` of a current file. Files of an older
    /// version are migrated when opened (1 → 2 added `warn_usec` and `warned`).
    static let schemaVersion = 2
    /// The file name inside the state directory.
    static let fileName = "state.sqlite"

    /// Path of the database file.
    let path: String
    /// Why the previous state file was moved aside at open, nil when it was not.
    let movedAsideReason: String?

    /// Why changes cannot be saved (the state directory is read-only), nil when they can.
    let readOnlyReason: String?

    private let queue: DatabaseQueue
    /// The private directory holding the copy a read-only state directory is served from:
    /// removed when the store is closed.
    private let scratchDirectory: String?

    private init(path: String, queue: DatabaseQueue, movedAsideReason: String?, readOnlyReason: String? = nil,
                 scratchDirectory: String? = nil) {
        self.path = path
        self.queue = queue
        self.movedAsideReason = movedAsideReason
        self.readOnlyReason = readOnlyReason
        self.scratchDirectory = scratchDirectory
    }

    // MARK: - Opening

    /// Opens `<directory>/state.sqlite`, creating the directory (mode 0700) and the file
    /// (mode 0600) as needed.
    ///
    /// A file that cannot be read as a current state file is renamed, with its -wal and -shm
    /// companions, to `state.sqlite.broken-<UTC time>` and a fresh store is created; the new
    /// names are returned in `movedAside`. Data that could not be read is never deleted or
    /// overwritten. Errors that say nothing about the file itself (disk full, locked, I/O)
    /// are thrown instead, so a healthy file is never set aside by accident.
    static func open(directory: String, now: USec) throws -> (store: TimerStore, movedAside: [String]) {
        if StoreFiles.isReadOnlyDirectory(directory) {
            return (try openReadOnlyCopy(directory: directory, now: now), [])
        }
        try StoreFiles.makePrivateDirectory(directory)
        let path = directory + "/" + fileName

        var movedAside: [String] = []
        var reason: String?
        if let problem = try diagnose(path) {
            movedAside = try StoreFiles.moveAside(path, companions: ["-wal", "-shm"], now: now)
            reason = problem
        }
        let queue = try openWritable(path)
        return (TimerStore(path: path, queue: queue, movedAsideReason: reason), movedAside)
    }

    /// A state directory that cannot be written (a read-only mount): the state is copied, with
    /// its -wal, into a private scratch directory and read from there, so that the timers are
    /// served and keep expiring while every change is refused. The originals are not touched;
    /// a copy that cannot be read is ignored and restd starts empty.
    private static func openReadOnlyCopy(directory: String, now: USec) throws -> TimerStore {
        let path = directory + "/" + fileName
        let scratch = try StoreFiles.makeScratchDirectory()
        let copy = scratch + "/" + fileName
        for suffix in ["", "-wal"] where FileManager.default.isReadableFile(atPath: path + suffix) {
            try? FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix)
        }
        if (try? diagnose(copy)) != nil {
            // Unreadable (or not readable as a state file): serve nothing rather than guess.
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: copy + suffix) }
        }
        let queue: DatabaseQueue
        do {
            queue = try openWritable(copy)
        } catch {
            try? FileManager.default.removeItem(atPath: scratch)
            throw error
        }
        return TimerStore(path: path, queue: queue, movedAsideReason: nil,
                          readOnlyReason: "the state directory \(directory) is read-only", scratchDirectory: scratch)
    }

    /// Closes the database, and removes the scratch copy of a read-only state; later calls fail.
    func close() throws {
        do {
            try queue.close()
        } catch {
            throw StoreError(description: "could not close the state file \(path): \(Self.reason(error))")
        }
        if let scratchDirectory { try? FileManager.default.removeItem(atPath: scratchDirectory) }
    }

    /// Returns nil when `path` is absent or a readable current state file, otherwise a
    /// sentence saying why it cannot be used. Throws for errors that are not the file's fault.
    private static func diagnose(_ path: String) throws -> String? {
        switch StoreFiles.kind(of: path) {
        case .absent:
            return nil
        case .other(let kind):
            return "\(path) is \(kind), not a database file"
        case .regularFile:
            break
        }
        // Read-only, so that examining a broken file cannot alter its bytes (a read-write
        // open would, for one, rewrite the header to switch it to WAL).
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "restd.state.check"
        do {
            let checker = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? checker.close() }
            return try checker.read { db in try schemaProblem(db, path: path) }
        } catch let error as DatabaseError where isFileProblem(error, path: path) {
            return "\(path) cannot be read: \(reason(error))"
        } catch {
            throw StoreError(description: "could not read the state file \(path): \(reason(error))")
        }
    }

    /// Checks version, integrity and table shape; nil when the file is usable.
    private static func schemaProblem(_ db: Database, path: String) throws -> String? {
        let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        if version > schemaVersion {
            return "\(path) has schema version \(version), newer than this restd understands (\(schemaVersion))"
        }
        let check = try String.fetchAll(db, sql: "PRAGMA quick_check")
        if check != ["ok"] {
            // Skip the "*** in database main ***" banner; two findings are enough for a log line.
            let findings = check.filter { !$0.hasPrefix("*** ") }.prefix(2)
            return "\(path) fails the integrity check: \(findings.joined(separator: "; "))"
        }
        let tables = try String.fetchAll(
            db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        switch version {
        case 0 where tables.isEmpty:
            return nil
        case 0:
            return "\(path) has no schema version but holds tables (\(tables.joined(separator: ", ")))"
        case 1...schemaVersion:
            guard tables.contains("timers") else {
                return "\(path) has schema version \(version) but no timers table"
            }
            let columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info('timers')")
            guard Set(columns) == Set(Column.all(version: version)) else {
                return "\(path) has a timers table with unexpected columns (\(columns.joined(separator: ", ")))"
            }
            return nil
        default:
            return "\(path) has an invalid schema version \(version)"
        }
    }

    /// Errors that mean the file itself is unusable, as opposed to the system being in trouble.
    private static func isFileProblem(_ error: DatabaseError, path: String) -> Bool {
        switch error.resultCode {
        case .SQLITE_CORRUPT, .SQLITE_NOTADB, .SQLITE_PERM, .SQLITE_AUTH, .SQLITE_FORMAT, .SQLITE_EMPTY:
            true
        case .SQLITE_CANTOPEN:
            // Unreadable file, or only out of file descriptors? Only the first is the file's fault.
            access(path, R_OK | W_OK) != 0 && (errno == EACCES || errno == EPERM)
        case .SQLITE_IOERR:
            // A short read means a truncated file; other I/O errors may be passing.
            error.extendedResultCode == .SQLITE_IOERR_SHORT_READ
        default:
            false
        }
    }

    /// Opens (creating if needed) a usable or absent state file and brings its schema up to date.
    private static func openWritable(_ path: String) throws -> DatabaseQueue {
        do {
            // Created here with 0600 so SQLite, which gives -wal and -shm the mode of the
            // main file, never creates anything readable by others.
            try StoreFiles.makePrivateFile(path)
            var configuration = Configuration()
            configuration.label = "restd.state"
            configuration.prepareDatabase { db in
                guard try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") == "wal" else {
                    throw DatabaseError(message: "could not switch to WAL journal mode")
                }
                // WAL's usual NORMAL may lose the last commits on power loss; FULL does not.
                try db.execute(sql: "PRAGMA synchronous = FULL")
            }
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            // One transaction: a failed migration leaves the file as it was.
            try queue.write { db in
                let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
                if version == 0 {
                    try db.execute(sql: createTimersTable)
                } else {
                    for step in migrations where step.from >= version {
                        try db.execute(sql: step.sql)
                    }
                }
                if version != schemaVersion {
                    try db.execute(sql: "PRAGMA user_version = \(schemaVersion)")
                }
            }
            for suffix in ["-wal", "-shm"] {
                try StoreFiles.restrict(path + suffix, mode: 0o600, ignoringAbsence: true)
            }
            return queue
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(description: "could not open the state file \(path): \(reason(error))")
        }
    }

    // MARK: - Reading and writing

    /// Reads every stored timer, in id order; `deadlineBoottime` is 0 on all of them.
    ///
    /// Rows that do not make a valid timer (an id that is not a valid TimerID, an unknown
    /// state, a negative time, a text with control characters) are skipped and described
    /// through `skipped`, not deleted: they are left for a human to inspect, and a later
    /// Start of the same (valid) id simply replaces such a row.
    func loadAll(skipped: (String) -> Void = { _ in }) throws -> [RestTimer] {
        let rows: [Row]
        do {
            rows = try queue.read { db in
                try Row.fetchAll(db, sql: "SELECT \(Column.list) FROM timers ORDER BY id")
            }
        } catch {
            throw StoreError(description: "could not read the state file \(path): \(Self.reason(error))")
        }
        var timers: [RestTimer] = []
        for row in rows {
            do {
                timers.append(try Self.timer(from: row))
            } catch {
                skipped("skipped a stored timer: \(error.description)")
            }
        }
        return timers
    }

    /// Persists planned events in one transaction: added and changed timers are upserted,
    /// removed ones deleted. An empty list touches nothing.
    func apply(_ events: [TimerEvent]) throws {
        guard !events.isEmpty else { return }
        if let readOnlyReason { throw StoreError(description: "cannot save changes: \(readOnlyReason)") }
        do {
            try queue.write { db in
                for event in events {
                    switch event {
                    case .added(let timer), .changed(from: _, to: let timer):
                        try db.cachedStatement(sql: Self.upsertTimer).execute(arguments: Self.arguments(for: timer))
                    case .removed(let timer):
                        try db.cachedStatement(sql: "DELETE FROM timers WHERE id = ?")
                            .execute(arguments: [timer.id.rawValue])
                    case .expired, .warning:
                        break
                    }
                }
            }
        } catch {
            throw StoreError(description: "could not write the state file \(path): \(Self.reason(error))")
        }
    }

    /// The value of a read-only PRAGMA on the store's own connection ("synchronous",
    /// "journal_mode"): per-connection settings cannot be seen from any other connection.
    func pragma(_ name: String) throws -> String? {
        precondition(name.allSatisfy { $0.isLetter || $0 == "_" }, "not a pragma name: \(name)")
        do {
            return try queue.read { db in try String.fetchOne(db, sql: "PRAGMA \(name)") }
        } catch {
            throw StoreError(description: "could not read the state file \(path): \(Self.reason(error))")
        }
    }

    // MARK: - Rows

    private enum Column {
        /// The columns of schema version 1.
        static let version1 = [
            "id", "label", "next", "notify", "base_duration_usec", "state", "duration_usec",
            "started_at_usec", "ends_at_usec", "remaining_usec", "expired_at_usec", "updated_at_usec",
        ]
        /// The columns of the current schema.
        static let all = version1 + ["warn_usec", "warned"]
        static let list = all.joined(separator: ", ")
        /// Where each column is in a row of `SELECT \(list)`. Rows are read by position: GRDB's
        /// lookup by name compares lower-cased names, which made reading 10,000 timers at
        /// start-up cost more than everything else restd does to start.
        static let position = Dictionary(uniqueKeysWithValues: all.enumerated().map { ($1, $0) })

        /// The columns a file of schema `version` has.
        static func all(version: Int) -> [String] {
            version == 1 ? version1 : all
        }
    }

    /// The steps from each older schema version to the next; `from` is the version they start at.
    /// A column added here gets a default, so that rows written by an older restd stay valid.
    private static let migrations: [(from: Int, sql: String)] = [
        (1, """
            ALTER TABLE timers ADD COLUMN warn_usec INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE timers ADD COLUMN warned INTEGER NOT NULL DEFAULT 0
            """),
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
            warned INTEGER NOT NULL DEFAULT 0
        ) STRICT
        """

    private static let upsertTimer = """
        INSERT INTO timers (\(Column.list)) VALUES (\(Column.all.map { _ in "?" }.joined(separator: ", ")))
        ON CONFLICT(id) DO UPDATE SET
        \(Column.all.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
        """

    private static func arguments(for timer: RestTimer) throws -> StatementArguments {
        func integer(_ value: USec, _ name: String) throws -> Int64 {
            // SQLite integers are signed; realistic µs times are far below Int64.max.
            guard let int = Int64(exactly: value) else {
                throw StoreError(
                    description: "timer \(MessageText.quoted(timer.id.rawValue)) has \(name) \(value), out of range")
            }
            return int
        }
        return [
            timer.id.rawValue, timer.label, timer.next, timer.notify ? 1 : 0,
            try integer(timer.baseDurationUSec, "base_duration_usec"), timer.state.rawValue,
            try integer(timer.durationUSec, "duration_usec"), try integer(timer.startedAtUSec, "started_at_usec"),
            try integer(timer.endsAtUSec, "ends_at_usec"), try integer(timer.remainingUSec, "remaining_usec"),
            try integer(timer.expiredAtUSec, "expired_at_usec"), try integer(timer.updatedAtUSec, "updated_at_usec"),
            try integer(timer.warnUSec, "warn_usec"), timer.warned ? 1 : 0,
        ]
    }

    /// Decodes one row without trusting it: GRDB's typed subscripts trap on a mismatch.
    /// A timer from a row of `SELECT \(Column.list)`.
    private static func timer(from row: Row) throws(StoreError) -> RestTimer {
        func column(_ name: String) -> DatabaseValue {
            guard let index = Column.position[name] else { preconditionFailure("no column \(name)") }
            return row[index]
        }
        let rawID = String.fromDatabaseValue(column("id")) ?? "?"
        func invalid(_ what: String) -> StoreError {
            StoreError(description: "row \(MessageText.quoted(rawID)) \(what)")
        }
        func text(_ name: String) throws(StoreError) -> String {
            // Control characters would end up in notifications and the journal.
            guard let value = String.fromDatabaseValue(column(name)),
                !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            else { throw invalid("has a \(name) that is missing or contains a control character") }
            return value
        }
        func usec(_ name: String) throws(StoreError) -> USec {
            guard let value = Int64.fromDatabaseValue(column(name)), let usec = USec(exactly: value) else {
                throw invalid("has an invalid \(name)")
            }
            return usec
        }

        let id: TimerID
        do {
            id = try TimerID(parsing: rawID)
        } catch {
            throw invalid("has an invalid id: \(error.message)")
        }
        let stateText = String.fromDatabaseValue(column("state"))
        guard let state = stateText.flatMap(TimerState.init(rawValue:)) else {
            throw invalid("has an unknown state \(MessageText.quoted(stateText ?? "?"))")
        }
        func flag(_ name: String) throws(StoreError) -> Bool {
            guard let value = Int64.fromDatabaseValue(column(name)), value == 0 || value == 1 else {
                throw invalid("has a \(name) value that is neither 0 nor 1")
            }
            return value == 1
        }
        return RestTimer(
            id: id, label: try text("label"), next: try text("next"), notify: try flag("notify"),
            baseDurationUSec: try usec("base_duration_usec"), state: state,
            durationUSec: try usec("duration_usec"), startedAtUSec: try usec("started_at_usec"),
            endsAtUSec: try usec("ends_at_usec"), remainingUSec: try usec("remaining_usec"),
            expiredAtUSec: try usec("expired_at_usec"), updatedAtUSec: try usec("updated_at_usec"),
            deadlineBoottime: 0, warnUSec: try usec("warn_usec"), warned: try flag("warned"))
    }

    // MARK: - Error sentences

    /// A short reason for a log line: "disk full" rather than SQLite's full error dump.
    static func reason(_ error: any Error) -> String {
        if let error = error as? StoreError { return error.description }
        guard let error = error as? DatabaseError else { return "\(error)" }
        switch error.resultCode {
        case .SQLITE_FULL: return "disk full"
        case .SQLITE_BUSY, .SQLITE_LOCKED: return "the file is locked by another process"
        case .SQLITE_READONLY: return "the file or its directory is read-only"
        case .SQLITE_NOTADB: return "not a database"
        case .SQLITE_CORRUPT: return "the database is corrupt"
        case .SQLITE_CANTOPEN: return "the file cannot be opened"
        case .SQLITE_PERM, .SQLITE_AUTH: return "permission denied"
        default: return error.message ?? "SQLite error \(error.extendedResultCode.rawValue)"
        }
    }
}
