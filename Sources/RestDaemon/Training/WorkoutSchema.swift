import Localization
import RestCore

/// The workouts' tables in state.sqlite (schema 4): the one workout in progress (a single row,
/// with the plan's text copied into it) and the summary of every workout that ended.
enum WorkoutSchema {
    /// The one workout in progress, with its plan's text, and the summary of every workout that ended.
    static let tables = [
        TableSchema(
            "workout",
            [
                ("id", "INTEGER PRIMARY KEY NOT NULL CHECK (id = 1)"),
                ("name", "TEXT NOT NULL"),
                ("plan_text", "TEXT NOT NULL"),
                ("plan_source", "TEXT NOT NULL"),
                ("position", "INTEGER NOT NULL"),
                ("sets_done", "INTEGER NOT NULL"),
                ("started_at_usec", "INTEGER NOT NULL"),
                ("touched_at_usec", "INTEGER NOT NULL"),
            ]),
        TableSchema(
            "workouts",
            [
                ("id", "INTEGER PRIMARY KEY NOT NULL"),
                ("name", "TEXT NOT NULL"),
                ("started_at_usec", "INTEGER NOT NULL"),
                ("ended_at_usec", "INTEGER NOT NULL"),
                ("sets_done", "INTEGER NOT NULL"),
                ("sets_planned", "INTEGER NOT NULL"),
                ("volume_kg", "REAL NOT NULL"),
                ("total_rest_usec", "INTEGER NOT NULL"),
                ("median_rest_usec", "INTEGER NOT NULL"),
                ("abandoned", "INTEGER NOT NULL"),
            ],
            indexes: ["CREATE INDEX workouts_by_time ON workouts (ended_at_usec)"]),
    ]

    /// The columns of each table, checked when a file of schema 4 or later is opened.
    static let columns = tables.columns
    /// Creates the tables (part of a new file, and of the migration 3 → 4).
    static let create = tables.create

    static let saveWorkout = """
        INSERT INTO workout (\(columns["workout"]!.joined(separator: ", ")))
        VALUES (1, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT(id) DO UPDATE SET
        \(columns["workout"]!.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
        """
    static let clearWorkout = "DELETE FROM workout"
    static let insertSummary = """
        INSERT INTO workouts (\(columns["workouts"]!.dropFirst().joined(separator: ", ")))
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        """
    static let loadWorkout = """
        SELECT name, plan_text, plan_source, position, sets_done, started_at_usec, touched_at_usec FROM workout
        """
    /// Summaries ended in [?1, ?2), newest last, at most ?3.
    static let summaries = """
        SELECT name, started_at_usec, ended_at_usec, sets_done, sets_planned, volume_kg, total_rest_usec,
               median_rest_usec, abandoned
        FROM workouts WHERE ended_at_usec >= ?1 AND ended_at_usec < ?2 ORDER BY ended_at_usec, id LIMIT ?3
        """
    /// The workout that ended last, in the columns of `summaries`.
    static let lastSummary = """
        SELECT name, started_at_usec, ended_at_usec, sets_done, sets_planned, volume_kg, total_rest_usec,
               median_rest_usec, abandoned
        FROM workouts ORDER BY ended_at_usec DESC, id DESC LIMIT 1
        """
}

/// The workout in progress as stored, before its plan is parsed again (by the daemon, which
/// owns the plan file parser).
struct StoredWorkout: Equatable {
    var name: String
    var planText: String
    var planSource: String
    var position: Int
    var setsDone: Int
    var startedAtUSec: USec
    var touchedAtUSec: USec
}

extension StoredWorkout {
    /// The workout in progress again, its plan parsed from the copy taken at the start.
    func restored() throws(ConfigError) -> ActiveWorkout {
        // TRANSLATORS: in place of a plan's file name, before ":line: problem".
        let file = planSource.isEmpty ? localized("the stored plan") : planSource
        let plan = try WorkoutPlanFile.parse(planText, file: file)
        return ActiveWorkout(
            progress: WorkoutProgress(plan: plan, startedAtUSec: startedAtUSec, position: position, setsDone: setsDone),
            planText: planText, planSource: planSource, touchedAtUSec: touchedAtUSec)
    }
}
