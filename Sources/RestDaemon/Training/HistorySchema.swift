import RestCore

/// The history's tables in state.sqlite (schema 3): every set, the rest after each, and what
/// restd remembers per exercise. STRICT, like the timers table: a value of the wrong type is
/// refused, not stored.
enum HistorySchema {
    /// Every set, the rest after each (without the recovery columns: the migration 5 → 6 adds
    /// them), and what restd remembers per exercise.
    static let tables = [setsTable, restsTable, exercisesTable]
    static let setsTable = TableSchema(
        "sets",
        [
            ("id", "INTEGER PRIMARY KEY NOT NULL"),
            ("timer_id", "TEXT NOT NULL"),
            ("at_usec", "INTEGER NOT NULL"),
            ("exercise", "TEXT NOT NULL"),
            ("exercise_key", "TEXT NOT NULL"),
            ("reps", "INTEGER"),
            ("weight_kg", "REAL"),
            ("failed", "INTEGER NOT NULL"),
        ],
        indexes: [
            "CREATE INDEX sets_by_time ON sets (at_usec)",
            "CREATE INDEX sets_by_exercise ON sets (exercise_key, at_usec)",
            "CREATE INDEX sets_by_timer ON sets (timer_id, id)",
        ])
    static let restsTable = TableSchema(
        "rests",
        [
            ("set_id", "INTEGER PRIMARY KEY NOT NULL"),
            ("timer_id", "TEXT NOT NULL"),
            ("exercise", "TEXT NOT NULL"),
            ("exercise_key", "TEXT NOT NULL"),
            ("started_at_usec", "INTEGER NOT NULL"),
            ("planned_usec", "INTEGER NOT NULL"),
            ("source", "TEXT NOT NULL"),
            ("adjust_usec", "INTEGER NOT NULL"),
            ("paused_usec", "INTEGER NOT NULL"),
            ("paused_at_usec", "INTEGER NOT NULL"),
            ("outcome", "TEXT"),
            ("ended_at_usec", "INTEGER NOT NULL"),
            ("taken_usec", "INTEGER NOT NULL"),
            ("rr_ms", "TEXT NOT NULL"),
        ],
        indexes: [
            "CREATE INDEX rests_by_time ON rests (started_at_usec)",
            "CREATE INDEX rests_open ON rests (timer_id) WHERE outcome IS NULL",
        ])
    static let exercisesTable = TableSchema(
        "exercises",
        [
            ("key", "TEXT PRIMARY KEY NOT NULL"),
            ("name", "TEXT NOT NULL"),
            ("last_rest_usec", "INTEGER"),
            ("sets", "INTEGER NOT NULL"),
            ("last_seen_usec", "INTEGER NOT NULL"),
        ])

    /// The columns of each history table, checked when the file is opened: a table that does
    /// not have them makes the file unusable, and it is moved aside like any broken state.
    static let columns: [String: [String]] = tables.columns.merging([
        "rests": restsTable.columnNames + recoveryColumns, "sets": setsTable.columnNames + importColumns,
        "exercises": exercisesTable.columnNames + ["category"],
        deletedImportsTable.name: deletedImportsTable.columnNames,
    ]) { $1 }

    /// The columns a file of schema `version` (3 or later) has: the rests' recovery from 6 on,
    /// the sets' warm-up and import key from 10 on, the exercises' category and the deleted
    /// imports from 11 on.
    static func columns(version: Int64) -> [String: [String]] {
        var older = columns
        if version < 6 { older["rests"]?.removeAll { recoveryColumns.contains($0) } }
        if version < 10 { older["sets"]?.removeAll { importColumns.contains($0) } }
        if version < 11 {
            older["exercises"]?.removeAll { $0 == "category" }
            older[deletedImportsTable.name] = nil
        }
        return older
    }

    /// The import keys of imported sets deleted since (`history delete`), with the time the set
    /// was done (pruned with the sets, after `keep_days`): the same file imported again does not
    /// bring them back.
    static let deletedImportsTable = TableSchema(
        "deleted_imports",
        [("import_key", "TEXT PRIMARY KEY NOT NULL"), ("at_usec", "INTEGER NOT NULL")],
        indexes: ["CREATE INDEX deleted_imports_by_time ON deleted_imports (at_usec)"])
    /// The migration 10 → 11: an exercise's category as an import gave it (NULL: none; the
    /// category in config.toml comes first), and the deleted imports.
    static let addCategoriesAndDeletedImports =
        "ALTER TABLE exercises ADD COLUMN category TEXT;\n" + deletedImportsTable.create

    /// A set's warm-up mark and, for a set imported from another app, its key (`ImportRow.key`):
    /// schema 10. NULL `import_key` marks restd's own sets.
    static let importColumns = ["warmup", "import_key"]
    /// The migration 9 → 10: the import columns; the key unique, so that no set is imported
    /// twice; the sets of a timer found in time order (imported sets are older than their ids
    /// say); the record indexes again, without warm-ups. IF NOT EXISTS: a file that has them
    /// already (from a later restd) migrates all the same.
    static let addImportColumns =
        [
            "ALTER TABLE sets ADD COLUMN warmup INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE sets ADD COLUMN import_key TEXT",
            "CREATE UNIQUE INDEX IF NOT EXISTS sets_by_import_key ON sets (import_key) WHERE import_key IS NOT NULL",
            "DROP INDEX IF EXISTS sets_by_timer",
            "CREATE INDEX IF NOT EXISTS sets_by_timer_time ON sets (timer_id, at_usec, id)",
            "DROP INDEX IF EXISTS sets_by_weight",
            "DROP INDEX IF EXISTS sets_by_estimate",
        ].joined(separator: ";\n") + ";\n" + recordIndexes.joined(separator: ";\n")

    /// A rest's recovery (schema 6), NULL where `RecoveryMetrics` has nil; `rmssd_beats` is NULL
    /// exactly when the rest was not followed for recovery at all.
    static let recoveryColumns = [
        "hr_set_end", "hr_peak", "hr_peak_after_usec", "hr_30s", "hr_60s", "hr_120s", "hrr60", "time_to_target_usec",
        "hr_min",
        "hr_coverage", "rmssd_ms", "rmssd_beats", "rmssd_rejected",
    ]
    static let recoveryColumnTypes = [
        "REAL", "REAL", "INTEGER", "REAL", "REAL", "REAL", "REAL", "INTEGER", "REAL", "REAL", "REAL", "INTEGER",
        "REAL",
    ]
    /// The migration 5 → 6: the recovery columns, NULL in every rest already stored.
    static let addRecoveryColumns = zip(recoveryColumns, recoveryColumnTypes).map {
        "ALTER TABLE rests ADD COLUMN \($0) \($1)"
    }.joined(separator: ";\n")

    /// Creates the tables and their indexes (part of a new file, and of the migration 2 → 3,
    /// which the migration 5 → 6 then completes with the recovery columns).
    static let create = tables.create

    static let insertSet = """
        INSERT INTO sets (\(columns["sets"]!.joined(separator: ", ")))
        VALUES (\(columns["sets"]!.map { _ in "?" }.joined(separator: ", ")))
        """
    /// A set counts for its exercise; the first set of a new exercise names it. An imported set
    /// may be older than the exercise's last.
    static let countSet = """
        INSERT INTO exercises (key, name, last_rest_usec, sets, last_seen_usec) VALUES (?, ?, NULL, 1, ?)
        ON CONFLICT(key) DO UPDATE SET sets = sets + 1, last_seen_usec = max(last_seen_usec, excluded.last_seen_usec)
        """
    static let upsertRest = """
        INSERT INTO rests (\(columns["rests"]!.joined(separator: ", ")))
        VALUES (\(columns["rests"]!.map { _ in "?" }.joined(separator: ", ")))
        ON CONFLICT(set_id) DO UPDATE SET
        \(columns["rests"]!.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
        """
    static let rememberRest = "UPDATE exercises SET last_rest_usec = ? WHERE key = ?"
    static let pruneSets = "DELETE FROM sets WHERE at_usec < ?"
    static let pruneRests = "DELETE FROM rests WHERE started_at_usec < ? AND outcome IS NOT NULL"

    /// A set's own columns, for the fixes of the history (undo, delete, edit, rename).
    static let setColumns = "id, timer_id, at_usec, exercise, reps, weight_kg, failed"
    static let setByID = "SELECT \(setColumns) FROM sets WHERE id = ?"
    /// The last set restd recorded (undo): an imported set, whose id is later than its time, is
    /// not one.
    static let lastSet = "SELECT \(setColumns) FROM sets WHERE import_key IS NULL ORDER BY id DESC LIMIT 1"
    static let setsOfExercise = "SELECT \(setColumns) FROM sets WHERE exercise_key = ? ORDER BY at_usec, id"
    static let deleteSet = "DELETE FROM sets WHERE id = ?"
    /// An imported set about to be deleted leaves its key (`deletedImportsTable`).
    static let rememberDeletedImport = """
        INSERT OR IGNORE INTO deleted_imports (import_key, at_usec)
        SELECT import_key, at_usec FROM sets WHERE id = ? AND import_key IS NOT NULL
        """
    static let pruneDeletedImports = "DELETE FROM deleted_imports WHERE at_usec < ?"
    /// The category an import gives exercise `?1`, kept only when it has none.
    static let categorize = "UPDATE exercises SET category = ?2 WHERE key = ?1 AND category IS NULL"
    static let deleteRest = "DELETE FROM rests WHERE set_id = ?"
    /// A set gone from exercise `?1` (deleted, or edited into another): one set fewer, last seen
    /// at its latest set left; an exercise left without sets is forgotten (`forgetUncounted`).
    static let uncountSet = """
        UPDATE exercises SET sets = sets - 1,
          last_seen_usec = coalesce((SELECT max(at_usec) FROM sets WHERE exercise_key = ?1), last_seen_usec)
        WHERE key = ?1
        """
    static let forgetUncounted = "DELETE FROM exercises WHERE key = ? AND sets <= 0"
    /// A set edited into exercise `?1` (named `?2` when new), done at `?3`.
    static let countMovedSet = """
        INSERT INTO exercises (key, name, last_rest_usec, sets, last_seen_usec) VALUES (?1, ?2, NULL, 1, ?3)
        ON CONFLICT(key) DO UPDATE SET sets = sets + 1, last_seen_usec = max(last_seen_usec, excluded.last_seen_usec)
        """
    static let editSet = """
        UPDATE sets SET exercise = ?2, exercise_key = ?3, reps = ?4, weight_kg = ?5, failed = ?6 WHERE id = ?1
        """
    static let moveRest = "UPDATE rests SET exercise = ?2, exercise_key = ?3 WHERE set_id = ?1"
    /// A rename: the sets and rests of exercise `?1` become of `?3`, written `?2`.
    static let renameSets = "UPDATE sets SET exercise = ?2, exercise_key = ?3 WHERE exercise_key = ?1"
    static let renameRests = "UPDATE rests SET exercise = ?2, exercise_key = ?3 WHERE exercise_key = ?1"
    /// What restd remembers of exercise `?1` merged into `?3` (written `?2` when new): its sets
    /// counted there, the later last seen, the rest last used and the category there kept when
    /// it has them. Then
    /// `?1` is forgotten (`forgetExercise`), unless it is `?3` (a rename that only changes case).
    static let mergeExercise = """
        INSERT INTO exercises (key, name, last_rest_usec, sets, last_seen_usec, category)
        SELECT ?3, ?2, last_rest_usec, sets, last_seen_usec, category FROM exercises WHERE key = ?1 AND ?1 != ?3
        ON CONFLICT(key) DO UPDATE SET sets = sets + excluded.sets,
          last_seen_usec = max(last_seen_usec, excluded.last_seen_usec),
          last_rest_usec = coalesce(last_rest_usec, excluded.last_rest_usec),
          category = coalesce(category, excluded.category)
        """
    static let forgetExercise = "DELETE FROM exercises WHERE key = ?1 AND ?1 != ?2"
    static let renameExercise = "UPDATE exercises SET name = ?2 WHERE key = ?1"

    static let openRests = "SELECT \(columns["rests"]!.joined(separator: ", ")) FROM rests WHERE outcome IS NULL"
    static let lastSetID =
        "SELECT max((SELECT coalesce(max(id), 0) FROM sets), (SELECT coalesce(max(set_id), 0) FROM rests))"
    static let lastExercise =
        "SELECT exercise FROM sets WHERE timer_id = ? ORDER BY at_usec DESC, id DESC LIMIT 1"
    static let exercise = "SELECT name, last_rest_usec FROM exercises WHERE key = ?"
    /// The reps and weight of the exercise's latest set (`sets_by_exercise` finds it).
    static let previousSet = """
        SELECT reps, weight_kg FROM sets WHERE exercise_key = ? ORDER BY at_usec DESC, id DESC LIMIT 1
        """
    /// Epley's estimate of a set's one-rep max in SQL, as `OneRepMax.estimateKg` computes it
    /// (NULL without weight).
    static let estimate =
        "CASE WHEN weight_kg <= 0 THEN NULL WHEN reps = 1 THEN weight_kg ELSE weight_kg * (1 + reps / 30.0) END"
    /// The sets records count: neither failed nor warm-ups.
    static let counted = "failed = 0 AND warmup = 0"
    /// The sets an estimate is made from: counted, 1 to 10 reps (`OneRepMax.maxReps`). Nothing
    /// here on the weight, or SQLite prefers `sets_by_weight` and reads every set of the exercise.
    static let estimated = "\(counted) AND reps BETWEEN 1 AND \(OneRepMax.maxReps)"
    /// What records are read from, each found in an index rather than by reading the
    /// exercise's sets: its heaviest weight, its highest estimate, its most reps at the weight `?2`.
    static let recordIndexes = [
        "CREATE INDEX sets_by_weight ON sets (exercise_key, weight_kg, reps) WHERE \(counted)",
        "CREATE INDEX sets_by_estimate ON sets (exercise_key, \(estimate)) WHERE \(estimated)",
    ]
    /// The record indexes of schema 8 and 9 (before warm-ups), as the migration 7 → 8 made them.
    /// IF NOT EXISTS: a file that has them already (from a later restd) migrates all the same.
    static let createRecordIndexesOfSchema8 = [
        "CREATE INDEX IF NOT EXISTS sets_by_weight ON sets (exercise_key, weight_kg, reps) WHERE failed = 0",
        "CREATE INDEX IF NOT EXISTS sets_by_estimate ON sets (exercise_key, \(estimate)) "
            + "WHERE failed = 0 AND reps BETWEEN 1 AND \(OneRepMax.maxReps)",
    ].joined(separator: ";\n")
    /// An exercise `?1`'s bests before a new set of weight `?2` (NULL: without weight).
    static let bests = """
        SELECT (SELECT max(weight_kg) FROM sets WHERE exercise_key = ?1 AND \(counted) AND weight_kg > 0),
               (SELECT max(\(estimate)) FROM sets WHERE exercise_key = ?1 AND \(estimated)),
               (SELECT max(reps) FROM sets WHERE exercise_key = ?1 AND \(counted) AND weight_kg IS ?2)
        """
    /// The sets of exercise `?1` since `?2` done after the last set of another exercise: the
    /// count the live activity's progress shows, which starts again when the exercise changes.
    /// In time order (an imported set's id is later than its time).
    static let setsInARow = """
        WITH other AS (
          SELECT at_usec, id FROM sets WHERE exercise_key != ?1 AND at_usec >= ?2 ORDER BY at_usec DESC, id DESC LIMIT 1)
        SELECT count(*) FROM sets WHERE exercise_key = ?1 AND at_usec >= ?2
          AND (NOT EXISTS (SELECT 1 FROM other) OR (at_usec, id) > (SELECT at_usec, id FROM other))
        """
    /// The keys of the sets imported in [?1, ?2), deleted since or not.
    static let importedKeys = """
        SELECT import_key FROM sets WHERE import_key IS NOT NULL AND at_usec >= ?1 AND at_usec < ?2
        UNION ALL SELECT import_key FROM deleted_imports WHERE at_usec >= ?1 AND at_usec < ?2
        """
    /// restd's own sets in [?1, ?2), as an import compares its sets with them.
    static let ownSets = """
        SELECT exercise_key, at_usec, reps, weight_kg FROM sets
        WHERE import_key IS NULL AND at_usec >= ?1 AND at_usec < ?2
        """

    /// A set with the rest that followed it; `?3` is an exercise key or '' for all; `?4` a LIMIT.
    static let setsBetween = """
        SELECT s.id, s.timer_id, s.at_usec, s.exercise, s.reps, s.weight_kg, s.failed,
               r.planned_usec, r.adjust_usec, r.paused_usec, r.source, r.outcome, r.taken_usec, r.ended_at_usec,
               \(recoveryColumns.map { "r." + $0 }.joined(separator: ", ")), s.warmup
        FROM sets s LEFT JOIN rests r ON r.set_id = s.id
        WHERE s.at_usec >= ?1 AND s.at_usec < ?2 AND (?3 = '' OR s.exercise_key = ?3)
        ORDER BY s.at_usec, s.id LIMIT ?4
        """
    static let restsBetween = """
        SELECT \(columns["rests"]!.joined(separator: ", ")) FROM rests
        WHERE started_at_usec >= ?1 AND started_at_usec < ?2 AND (?3 = '' OR exercise_key = ?3)
        ORDER BY started_at_usec, set_id LIMIT ?4
        """
    static let exercises =
        "SELECT key, name, last_rest_usec, sets, last_seen_usec, category FROM exercises ORDER BY key"
    static let statsRows = """
        SELECT s.exercise_key, s.exercise, r.planned_usec, r.adjust_usec, r.taken_usec, r.outcome,
               s.at_usec, r.time_to_target_usec, r.hrr60, r.rmssd_beats
        FROM sets s LEFT JOIN rests r ON r.set_id = s.id
        WHERE s.at_usec >= ?1 AND s.at_usec < ?2 AND (?3 = '' OR s.exercise_key = ?3)
        """
}
