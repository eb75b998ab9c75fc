import Foundation
import SQLiteKit

/// Writes a year of training history straight into a state file restd left (restd stopped):
/// `count` sets spread evenly over the last `days` days, each with its ended rest, as restd
/// would have recorded them — far faster than `count` CompleteSet calls.
enum HistoryFill {
    static func fill(stateDirectory: String, count: Int, days: Int, nowUSec: UInt64) throws {
        let path = stateDirectory + "/state.sqlite"
        let database: SQLiteDatabase
        do {
            database = try SQLiteDatabase(path: path, create: false)
        } catch {
            throw BenchError("cannot open \(path): \(error.reason)")
        }
        let span = UInt64(days) * 86_400_000_000
        let step = span / UInt64(max(count, 1))
        let start = nowUSec - span
        // Ten exercises; rests of 60–180 s, taken within ±40 s, one in twenty skipped.
        let sql = """
            BEGIN;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count))
            INSERT INTO sets (id, timer_id, at_usec, exercise, exercise_key, reps, weight_kg, failed)
            SELECT 1000000 + i, 'default', \(start) + i * \(step), 'Exercise ' || (i % 10), 'exercise ' || (i % 10),
                   5 + i % 8, 20.0 + i % 80, (i % 17 = 0) FROM n;
            INSERT INTO rests (set_id, timer_id, exercise, exercise_key, started_at_usec, planned_usec, source, adjust_usec,
                               paused_usec, paused_at_usec, outcome, ended_at_usec, taken_usec, rr_ms)
            SELECT id, timer_id, exercise, exercise_key, at_usec, 60000000 + (id % 5) * 30000000, 'last_used', 0, 0, 0,
                   CASE WHEN id % 20 = 0 THEN 'skipped' ELSE 'completed' END,
                   at_usec + 60000000 + (id % 81) * 1000000, 60000000 + (id % 81) * 1000000, ''
            FROM sets WHERE id > 1000000;
            INSERT OR IGNORE INTO exercises (key, name, last_rest_usec, sets, last_seen_usec)
            SELECT exercise_key, exercise, 90000000, count(*), max(at_usec) FROM sets WHERE id > 1000000 GROUP BY exercise_key;
            COMMIT;
            """
        do {
            try database.execute(sql)
        } catch {
            throw BenchError("could not fill the history: \(error)")
        }
    }
}
