import CSQLite

/// A failed SQLite call: its result codes and SQLite's own message.
public struct SQLiteError: Error, CustomStringConvertible {
    /// The primary result code (`SQLITE_BUSY`, `SQLITE_CORRUPT`, …).
    public let code: Int32
    /// The extended result code (`SQLITE_IOERR_SHORT_READ`, …).
    public let extendedCode: Int32
    public let message: String

    public var description: String { message }

    /// What kind of failure it is, for callers that do not speak SQLite's result codes.
    public enum Kind: Sendable {
        /// The file is not a usable database: corrupt, not a database, or empty.
        case damaged
        /// Permission denied by the file system or SQLite's authorizer.
        case denied
        /// The file could not be opened (unreadable, or out of file descriptors).
        case cannotOpen
        /// A read came back short: a truncated file.
        case shortRead
        /// Any other failure.
        case other
    }

    public var kind: Kind {
        switch code {
        case SQLITE_CORRUPT, SQLITE_NOTADB, SQLITE_FORMAT, SQLITE_EMPTY: .damaged
        case SQLITE_PERM, SQLITE_AUTH: .denied
        case SQLITE_CANTOPEN: .cannotOpen
        case SQLITE_IOERR where extendedCode == restd_sqlite_ioerr_short_read: .shortRead
        default: .other
        }
    }

    /// A call on a database or store that is closed.
    public static func closed(_ message: String) -> SQLiteError {
        SQLiteError(code: SQLITE_MISUSE, extendedCode: SQLITE_MISUSE, message: message)
    }

    /// A short reason for a log line: "disk full" rather than SQLite's full error text.
    public var reason: String {
        switch code {
        case SQLITE_FULL: "disk full"
        case SQLITE_BUSY, SQLITE_LOCKED: "the file is locked by another process"
        case SQLITE_READONLY: "the file or its directory is read-only"
        case SQLITE_NOTADB: "not a database"
        case SQLITE_CORRUPT: "the database is corrupt"
        case SQLITE_CANTOPEN: "the file cannot be opened"
        case SQLITE_PERM, SQLITE_AUTH: "permission denied"
        default: message.isEmpty ? "SQLite error \(extendedCode)" : message
        }
    }
}

/// A value read from or bound to a statement.
public enum SQLiteValue: Equatable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    public var integer: Int64? { if case .integer(let value) = self { value } else { nil } }
    public var text: String? { if case .text(let value) = self { value } else { nil } }
}

/// One connection to a database file, used from one thread (the daemon's loop).
///
/// A thin owner of `sqlite3 *`: statements, transactions and errors, nothing else. It starts no
/// thread and schedules nothing, which is why restd uses SQLite's C API directly.
public final class SQLiteDatabase {
    private var handle: OpaquePointer?
    public let path: String

    /// Opens `path` read-write (created if absent, unless `create` is false) or read-only.
    public init(path: String, readOnly: Bool = false, create: Bool = true) throws(SQLiteError) {
        self.path = path
        // NOMUTEX: one thread only. EXRESCODE: extended codes tell a short read from other I/O errors.
        let flags =
            (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0))
            | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        var opened: OpaquePointer?
        let status = sqlite3_open_v2(path, &opened, flags, nil)
        guard status == SQLITE_OK, let opened else {
            let error = Self.error(status, opened)
            sqlite3_close_v2(opened)
            throw error
        }
        handle = opened
        sqlite3_extended_result_codes(opened, 1)
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Closes the connection; statements prepared on it must be gone first.
    public func close() throws(SQLiteError) {
        guard let handle else { return }
        let status = sqlite3_close(handle)
        guard status == SQLITE_OK else { throw Self.error(status, handle) }
        self.handle = nil
    }

    /// Frees the pages the connection caches and no statement is using (SQLite keeps up to its
    /// cache size, 2 MiB by default, of what it last read). Nothing when closed.
    public func releaseCachedPages() {
        guard let handle else { return }
        sqlite3_db_release_memory(handle)
    }

    /// Runs one or more statements that return nothing.
    public func execute(_ sql: String) throws(SQLiteError) {
        let status = sqlite3_exec(try open(), sql, nil, nil, nil)
        guard status == SQLITE_OK else { throw Self.error(status, handle) }
    }

    /// A statement kept for repeated use; finalized when released.
    public func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let handle = try open()
        let status = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard status == SQLITE_OK, let statement else { throw Self.error(status, handle) }
        return SQLiteStatement(statement, database: self)
    }

    /// Every row of a one-off query, each as its columns.
    public func rows(_ sql: String) throws(SQLiteError) -> [[SQLiteValue]] {
        let statement = try prepare(sql)
        var rows: [[SQLiteValue]] = []
        while try statement.step() { rows.append(statement.columns()) }
        return rows
    }

    /// The first column of every row of a one-off query, as text (NULL as "").
    public func strings(_ sql: String) throws(SQLiteError) -> [String] {
        try rows(sql).map { $0.first?.text ?? "" }
    }

    /// The first column of the first row, as an integer.
    public func integer(_ sql: String) throws(SQLiteError) -> Int64? {
        try rows(sql).first?.first?.integer
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    public func transaction(_ body: () throws(SQLiteError) -> Void) throws(SQLiteError) {
        try execute("BEGIN IMMEDIATE")
        do {
            try body()
            try execute("COMMIT")
        } catch {
            // A failed COMMIT (disk full) may leave the transaction open: end it, keep nothing.
            if sqlite3_get_autocommit(handle) == 0 { try? execute("ROLLBACK") }
            throw error
        }
    }

    fileprivate func open() throws(SQLiteError) -> OpaquePointer {
        guard let handle else {
            throw SQLiteError.closed("the database is closed")
        }
        return handle
    }

    fileprivate static func error(_ status: Int32, _ handle: OpaquePointer?) -> SQLiteError {
        let extended = handle.map { sqlite3_extended_errcode($0) } ?? status
        let message =
            handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(status))
        return SQLiteError(
            code: status & 0xFF, extendedCode: extended == SQLITE_OK ? status : extended,
            message: message)
    }
}

/// A prepared statement: bind, step through its rows, reset for the next use.
public final class SQLiteStatement {
    private let statement: OpaquePointer
    // Keeps the connection open for as long as the statement exists.
    private let database: SQLiteDatabase

    fileprivate init(_ statement: OpaquePointer, database: SQLiteDatabase) {
        self.statement = statement
        self.database = database
    }

    deinit {
        sqlite3_finalize(statement)
    }

    /// Resets the statement and binds `values` to its parameters, in order.
    public func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .null: status = sqlite3_bind_null(statement, index)
            case .integer(let int): status = sqlite3_bind_int64(statement, index, int)
            case .real(let double): status = sqlite3_bind_double(statement, index, double)
            case .text(let text): status = sqlite3_bind_text(statement, index, text, -1, restd_sqlite_transient())
            case .blob(let bytes):
                status = bytes.withUnsafeBytes {
                    sqlite3_bind_blob64(statement, index, $0.baseAddress, UInt64($0.count), restd_sqlite_transient())
                }
            }
            guard status == SQLITE_OK else { throw SQLiteDatabase.error(status, sqlite3_db_handle(statement)) }
        }
    }

    /// Advances to the next row: true when there is one, false when done.
    public func step() throws(SQLiteError) -> Bool {
        switch sqlite3_step(statement) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let status:
            let error = SQLiteDatabase.error(status, sqlite3_db_handle(statement))
            sqlite3_reset(statement)
            throw error
        }
    }

    /// Runs a statement that returns no rows, with `values` bound.
    public func run(_ values: [SQLiteValue]) throws(SQLiteError) {
        try bind(values)
        while try step() {}
        sqlite3_reset(statement)
    }

    /// The current row's columns.
    public func columns() -> [SQLiteValue] {
        (0..<sqlite3_column_count(statement)).map(column)
    }

    /// Ends a read before its last row: a statement left on a row keeps its read transaction
    /// open, which in WAL mode stops checkpoints from reusing the log.
    public func reset() {
        sqlite3_reset(statement)
    }

    /// Whether the statement is on a row (read, not yet stepped to its end or reset).
    public var isBusy: Bool { sqlite3_stmt_busy(statement) != 0 }

    /// How many columns a row of this statement has.
    public var columnCount: Int { Int(sqlite3_column_count(statement)) }

    /// The current row's column at `index` (0-based).
    public func column(_ index: Int32) -> SQLiteValue {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, index))
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(statement, index))
            guard let bytes = sqlite3_column_text(statement, index) else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, index))
            guard let bytes = sqlite3_column_blob(statement, index) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default: return .null
        }
    }
}
