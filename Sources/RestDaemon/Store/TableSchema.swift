/// One STRICT table of state.sqlite: its columns with their types and constraints, and the
/// indexes made with it. The column names the store checks when it opens a file, the CREATE
/// statement and the statements that list every column all come from this one list, so that
/// they cannot disagree.
struct TableSchema {
    let name: String
    /// Each column's name and what follows it in CREATE TABLE ("INTEGER NOT NULL").
    let columns: [(name: String, definition: String)]
    /// The CREATE INDEX statements made with the table.
    let indexes: [String]

    init(_ name: String, _ columns: [(name: String, definition: String)], indexes: [String] = []) {
        self.name = name
        self.columns = columns
        self.indexes = indexes
    }

    var columnNames: [String] { columns.map(\.name) }

    /// The table and its indexes, one statement after the other. The text is what state.sqlite
    /// keeps in sqlite_master, so a file made by any restd since the table came reads the same.
    var create: String {
        let body = columns.map { "    \($0.name) \($0.definition)" }.joined(separator: ",\n")
        return (["CREATE TABLE \(name) (\n\(body)\n) STRICT"] + indexes).joined(separator: ";\n")
    }

    /// `INSERT INTO` the table with a value for every column (`OR REPLACE` when `replacing`).
    func insert(replacing: Bool = false) -> String {
        """
        INSERT \(replacing ? "OR REPLACE " : "")INTO \(name) (\(columnNames.joined(separator: ", ")))
        VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))
        """
    }

    /// `SELECT` every column, in order, `FROM` the table.
    var selectAll: String { "SELECT \(columnNames.joined(separator: ", ")) FROM \(name)" }
}

/// The tables of a part of state.sqlite made together (by one migration, and in a new file).
extension [TableSchema] {
    /// The column names of each table, as the store checks them.
    var columns: [String: [String]] {
        Dictionary(uniqueKeysWithValues: map { ($0.name, $0.columnNames) })
    }

    /// Every table with its indexes.
    var create: String { map(\.create).joined(separator: ";\n") }
}
