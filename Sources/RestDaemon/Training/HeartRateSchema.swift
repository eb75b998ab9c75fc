import Localization
import RestCore
import SQLiteKit

/// The heart rate of followed rests in state.sqlite (schema 7): one row per rest, its smoothed
/// heart rate once a second as a blob of bytes (bpm, 0 where unknown), with the rule it was
/// followed by and how following it ended (`HeartRateTrace`). A table of its own, keyed by the
/// set the rest followed, kept for `[history] heart_rate_keep_days`.
enum HeartRateSchema {
    static let table = TableSchema(
        "rest_heart_rates",
        [
            ("set_id", "INTEGER PRIMARY KEY NOT NULL"),
            ("started_at_usec", "INTEGER NOT NULL"),
            ("bpm", "BLOB NOT NULL"),
            ("target_bpm", "REAL"),
            ("minimum_usec", "INTEGER NOT NULL"),
            ("hold_usec", "INTEGER NOT NULL"),
            ("ended_after_usec", "INTEGER NOT NULL"),
            ("ending", "TEXT NOT NULL"),
        ],
        indexes: ["CREATE INDEX rest_heart_rates_by_time ON rest_heart_rates (started_at_usec)"])

    static let columns = [table].columns
    /// Creates the table (part of a new file, and the migration 6 → 7).
    static let create = table.create
    /// A rest followed again under the same set (a restart) keeps its last trace.
    static let insert = table.insert(replacing: true)
    static let prune = "DELETE FROM rest_heart_rates WHERE started_at_usec < ?"
    /// The trace of the rest after set `?`, when that set is deleted.
    static let delete = "DELETE FROM rest_heart_rates WHERE set_id = ?"
    /// The traces of rests that began in [?1, ?2), oldest first, at most ?3.
    static let between = """
        \(table.selectAll)
        WHERE started_at_usec >= ?1 AND started_at_usec < ?2 ORDER BY started_at_usec, set_id LIMIT ?3
        """

    /// The row of `trace`.
    static func values(_ trace: HeartRateTrace) throws(StoreError) -> [SQLiteValue] {
        func integer(_ usec: USec) throws(StoreError) -> SQLiteValue {
            guard let value = Int64(exactly: usec) else {
                throw StoreError(description: localized("time %1$d is out of range", usec))
            }
            return .integer(value)
        }
        return [
            .integer(trace.setID), try integer(trace.startedAtUSec), .blob(trace.bpm),
            trace.targetBPM.flatMap { $0.isFinite ? .real($0) : nil } ?? .null, try integer(trace.minimumUSec),
            try integer(trace.holdUSec), try integer(trace.endedAfterUSec), .text(trace.ending.rawValue),
        ]
    }

    /// A trace from a row of `between`, decoded without trusting it; nil for one that does not
    /// make a trace.
    static func trace(_ row: [SQLiteValue]) -> HeartRateTrace? {
        func usec(_ index: Int) -> USec? { row[index].integer.flatMap(USec.init(exactly:)) }
        guard row.count == 8, let setID = row[0].integer, let started = usec(1), case .blob(let bpm) = row[2],
            bpm.count <= HeartRateTrace.maxSeconds, let minimum = usec(4), let hold = usec(5), let ended = usec(6),
            let ending = row[7].text.flatMap(HeartRateTrace.Ending.init(rawValue:))
        else { return nil }
        let target: Double? =
            switch row[3] {
            case .real(let value): value
            case .integer(let value): Double(value)
            default: nil
            }
        return HeartRateTrace(
            setID: setID, startedAtUSec: started, bpm: bpm, targetBPM: target, minimumUSec: minimum, holdUSec: hold,
            endedAfterUSec: ended, ending: ending)
    }
}

extension StateStore {
    /// The heart-rate traces of the rests that began in [since, until), oldest first, at most
    /// `limit`, and whether more match.
    func heartRateTraces(
        since: USec, until: USec, limit: Int
    ) throws(StoreError) -> (
        rows: [HeartRateTrace], more: Bool
    ) {
        try reading { statements throws(SQLiteError) in
            let rows = try Self.all(
                statements.heartRatesBetween,
                [.integer(Int64(clamping: since)), .integer(Int64(clamping: until)), .integer(Int64(limit) + 1)])
            return (rows.prefix(limit).compactMap(HeartRateSchema.trace), rows.count > limit)
        }
    }
}
