import Foundation
import ProcessHarness

/// restd's state file in a test's state directory, edited while no restd runs on it. The one way
/// the integration tests change what restd stored: Python's sqlite3 (`/usr/bin/python3`, there
/// for python-dbusmock), since the test bundle does not link SQLite itself.
struct StateFile {
    /// One value bound to a `?` of a statement.
    enum Value: CustomStringConvertible {
        case integer(Int64)
        case text(String)

        /// How it travels on the script's command line: a type letter, a colon, the value.
        var description: String {
            switch self {
            case .integer(let value): "i:\(value)"
            case .text(let value): "t:\(value)"
            }
        }
    }

    let path: String

    /// The state file of the restd whose XDG_STATE_HOME is `state`.
    init(in state: TempDirectory) {
        path = state.path("restd/state.sqlite")
    }

    /// Runs one statement with `values` bound to its `?`s and returns the number of rows it changed.
    @discardableResult
    func execute(_ statement: String, _ values: Value...) throws -> Int {
        let script = """
            import sqlite3, sys
            def value(text):
                kind, _, rest = text.partition(":")
                return int(rest) if kind == "i" else rest
            db = sqlite3.connect(sys.argv[1])
            db.execute(sys.argv[2], [value(v) for v in sys.argv[3:]])
            db.commit()
            print(db.total_changes)
            """
        return try run(script, [statement] + values.map(\.description))
    }

    /// Runs `script`, several statements separated by semicolons, in one transaction: what a test
    /// writes of its own into the file (a seeded history). Returns the number of rows it changed.
    @discardableResult
    func executeScript(_ script: String) throws -> Int {
        let python = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.executescript("BEGIN;\\n" + sys.argv[2] + ";\\nCOMMIT;")
            print(db.total_changes)
            """
        return try run(python, [script])
    }

    /// `text` as an SQL string literal.
    static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// Puts a copy of a stored fixture (`Tests/RestDaemonTests/Fixtures/NAME`) in `state`, with every
    /// stored time (each non-zero `*_at_usec` of every table) moved so that the file reads as if
    /// written `age` µs before `now`, its times keeping their offsets from the moment it was written
    /// (its latest `updated_at_usec`). A fixture so never ages: the test decides how old it is.
    @discardableResult
    static func fixture(
        _ name: String, in state: TempDirectory, writtenAgo age: UInt64, now: UInt64 = RunningDaemon.realtimeNow()
    ) throws -> StateFile {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("RestDaemonTests/Fixtures/\(name)").path
        let file = StateFile(in: state)
        try state.subdirectory("restd")
        try FileManager.default.copyItem(atPath: fixture, toPath: file.path)
        try file.shiftTimes(toWrittenAt: now - age)
        return file
    }

    /// Moves every non-zero `*_at_usec` of every table by the same amount, so that the last change
    /// restd stored (the latest `updated_at_usec`; deadlines lie after it) becomes `writtenAt`.
    func shiftTimes(toWrittenAt writtenAt: UInt64) throws {
        let script = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            columns = [(table, column)
                       for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
                       for (column,) in db.execute("SELECT name FROM pragma_table_info(?)", (table,))
                       if column.endswith("_at_usec")]
            latest = max(db.execute(f'SELECT max("{c}") FROM "{t}"').fetchone()[0] or 0
                         for t, c in columns if c == "updated_at_usec")
            shift = int(sys.argv[2]) - latest
            for table, column in columns:
                db.execute(f'UPDATE "{table}" SET "{column}" = "{column}" + ? WHERE "{column}" != 0', (shift,))
            db.commit()
            print(len(columns))
            """
        let shifted = try run(script, [String(writtenAt)])
        guard shifted > 0 else { throw HarnessError.failed("\(path) holds no stored times to shift") }
    }

    /// Runs a Python script on the file; its last line of output is a count.
    private func run(_ script: String, _ arguments: [String]) throws -> Int {
        let result = Command.run([NotificationServer.python, "-c", script, path] + arguments)
        guard result.succeeded, let count = Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw HarnessError.failed("could not edit \(path): \(result)")
        }
        return count
    }
}
