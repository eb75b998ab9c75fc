import Foundation
import ProcessHarness
import RestCore
import RestProtocol
import SQLiteKit
import SeededRandom
import Testing

@testable import RestDaemon

/// A fixed "now" for file names: 2023-11-14 22:13:20 UTC.
private let now: USec = 1_700_000_000_000_000
private let stamp = "20231114T221320Z"

/// A fresh directory (ProcessHarness's), with the names the store tests use.
private struct TemporaryDirectory {
    private let directory: TempDirectory
    var path: String { directory.path }

    init() throws { directory = try TempDirectory(prefix: "restd-store") }

    /// The state directory inside it; not created, so that `open` has to create it.
    var state: String { path + "/state" }
    var database: String { state + "/state.sqlite" }
}

/// A state file written by an earlier restd through GRDB, kept in Fixtures/ (see its README).
/// What a file of schema 11 loses to be one of schema 9: the deleted imports, the exercises'
/// category, the sets' import columns, the indexes on them, and the timer's sets in time order.
private let schema10Undone =
    "DROP TABLE deleted_imports; ALTER TABLE exercises DROP COLUMN category; "
    + "DROP INDEX sets_by_import_key; DROP INDEX sets_by_weight; DROP INDEX sets_by_estimate; "
    + "DROP INDEX sets_by_timer_time; CREATE INDEX sets_by_timer ON sets (timer_id, id); "
    + "ALTER TABLE sets DROP COLUMN warmup; ALTER TABLE sets DROP COLUMN import_key; "

private func fixture(_ name: String) -> String {
    let here = #filePath
    return String(here[..<here.lastIndex(of: "/")!]) + "/Fixtures/" + name
}

private func timer(_ id: String, label: String = "Tea", state: TimerState = .running) throws -> RestTimer {
    RestTimer(
        id: try TimerID(parsing: id), label: label, next: "write report", notify: true,
        baseDurationUSec: 300_000_000, state: state, durationUSec: 330_000_000,
        startedAtUSec: now, endsAtUSec: state == .running ? now + 330_000_000 : 0,
        remainingUSec: state == .expired ? 0 : 120_000_000, expiredAtUSec: state == .expired ? now : 0,
        updatedAtUSec: now + 5, deadlineBoottime: 0)
}

private func mode(_ path: String) -> mode_t {
    var info = stat()
    return stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
}

private func write(_ data: Data, to path: String) throws {
    try data.write(to: URL(fileURLWithPath: path))
}

private func bytes(_ path: String) -> Data? {
    FileManager.default.contents(atPath: path)
}

/// Runs SQL on a database file directly, to build the files a test needs.
private func withDatabase(_ path: String, _ body: (SQLiteDatabase) throws -> Void) throws {
    let database = try SQLiteDatabase(path: path)
    try body(database)
    try database.close()
}

@Suite struct StateStoreTests {
    @Test func roundTripsTimers() throws {
        let dir = try TemporaryDirectory()
        let (store, moved) = try StateStore.open(directory: dir.state, now: now)
        #expect(moved.isEmpty)
        #expect(store.movedAsideReason == nil)
        #expect(try store.loadAll().isEmpty)

        var running = try timer("tea")
        running.deadlineBoottime = 12_345  // not persisted
        let paused = try timer("nap", label: "Ünïcödé 🍵", state: .paused)
        let expired = try timer("coffee", state: .expired)
        try store.commit([.added(running), .added(paused), .added(expired)], history: [])

        var expected = running
        expected.deadlineBoottime = 0
        #expect(try store.loadAll().sorted { $0.id < $1.id } == [expired, paused, expected])
    }

    @Test func upsertsThenDeletes() throws {
        let dir = try TemporaryDirectory()
        let store = try StateStore.open(directory: dir.state, now: now).store
        let original = try timer("tea")
        var changed = original
        changed.label = "Green tea"
        changed.state = .paused
        try store.commit([.added(original)], history: [])
        try store.commit([.changed(from: original, to: changed)], history: [])
        #expect(try store.loadAll() == [changed])
        // Start on an existing id arrives as .changed; an .added for a present id also upserts.
        try store.commit([.added(original)], history: [])
        #expect(try store.loadAll() == [original])
        try store.commit([.expired(id: original.id, deadlineUSec: 1, firedUSec: 2)], history: [])
        #expect(try store.loadAll() == [original])
        try store.commit([.removed(original)], history: [])
        #expect(try store.loadAll().isEmpty)
    }

    @Test func appliesAllEventsInOneTransaction() throws {
        let dir = try TemporaryDirectory()
        let store = try StateStore.open(directory: dir.state, now: now).store
        var tooLate = try timer("b")
        tooLate.endsAtUSec = .max  // does not fit an SQLite integer
        let error = try #require(throws: StoreError.self) {
            try store.commit([.added(try timer("a")), .added(tooLate)], history: [])
        }
        #expect(
            error.description == "could not write the state file \(dir.database): "
                + "timer \"b\" has ends_at_usec 18446744073709551615, out of range")
        #expect(try store.loadAll().isEmpty)
    }

    @Test func anEmptyListTouchesNothing() throws {
        let dir = try TemporaryDirectory()
        let store = try StateStore.open(directory: dir.state, now: now).store
        try store.close()
        // A closed store fails any transaction; an empty list must not even start one.
        try store.commit([], history: [])
        let error = try #require(throws: StoreError.self) { try store.commit([.added(try timer("tea"))], history: []) }
        #expect(error.description.hasPrefix("could not write the state file \(dir.database): "))
    }

    @Test func createsPrivateDirectoryAndFiles() throws {
        let dir = try TemporaryDirectory()
        let nested = dir.state + "/deeper"
        let store = try StateStore.open(directory: nested, now: now).store
        try store.commit([.added(try timer("tea"))], history: [])
        #expect(mode(dir.state) == 0o700)
        #expect(mode(nested) == 0o700)
        for suffix in ["", "-wal", "-shm"] {
            #expect(FileManager.default.fileExists(atPath: nested + "/state.sqlite" + suffix))
            #expect(mode(nested + "/state.sqlite" + suffix) == 0o600, "mode of state.sqlite\(suffix)")
        }
    }

    @Test func tightensAnExistingDirectoryAndFile() throws {
        let dir = try TemporaryDirectory()
        try FileManager.default.createDirectory(
            atPath: dir.state, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        try StateStore.open(directory: dir.state, now: now).store.close()
        chmod(dir.database, 0o644)
        let reopened = try StateStore.open(directory: dir.state, now: now)
        #expect(reopened.movedAside.isEmpty)
        #expect(mode(dir.state) == 0o700)
        #expect(mode(dir.database) == 0o600)
    }

    @Test func refusesAStateDirectoryThatIsAFile() throws {
        let dir = try TemporaryDirectory()
        try write(Data("x".utf8), to: dir.state)
        let error = try #require(throws: StoreError.self) { _ = try StateStore.open(directory: dir.state, now: now) }
        #expect(error.description == "could not use the state directory \(dir.state): it is not a directory")
        #expect(bytes(dir.state) == Data("x".utf8))
    }

    @Test func aStateDirectoryInUseIsRefusedBeforeAnythingInItIsRead() throws {
        let dir = try TemporaryDirectory()
        let holder = StateDirectory.Holder(pid: 4242, bus: "unix:path=/run/user/1000/bus")
        let store = try StateStore.open(directory: dir.state, now: now, holder: holder).store
        try store.commit([.added(try timer("tea"))], history: [])
        #expect(
            String(decoding: bytes(dir.state + "/restd.lock") ?? Data(), as: UTF8.self)
                == "pid=4242\nbus=unix:path=/run/user/1000/bus\n")

        // A second opening of the same directory while the first is open: another restd, for
        // flock (a lock belongs to its open file, not to the process).
        let error = try #require(throws: StoreError.self) { _ = try StateStore.open(directory: dir.state, now: now) }
        #expect(error.inUse?.holder == holder)
        #expect(
            error.description
                == "the state in \(dir.state) is in use by restd (pid 4242) on bus unix:path=/run/user/1000/bus; "
                + "stop that restd first, or use it there: export DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1000/bus"
        )

        // Closed, it is free again, and what was stored is there.
        try store.close()
        let reopened = try StateStore.open(directory: dir.state, now: now).store
        #expect(try reopened.loadAll().map(\.id.rawValue) == ["tea"])
    }

    @Test func reopeningSeesCommittedData() throws {
        let dir = try TemporaryDirectory()
        let store = try StateStore.open(directory: dir.state, now: now).store
        let tea = try timer("tea")
        try store.commit([.added(tea), .added(try timer("nap")), .removed(try timer("nap"))], history: [])
        try store.close()

        let reopened = try StateStore.open(directory: dir.state, now: now)
        #expect(reopened.movedAside.isEmpty)
        #expect(try reopened.store.loadAll() == [tea])
    }

    @Test func committedDataSurvivesAProcessThatNeverClosed() throws {
        // What kill -9 leaves behind: the files as they are on disk, -wal unmerged.
        let dir = try TemporaryDirectory()
        let store = try StateStore.open(directory: dir.state, now: now).store
        let tea = try timer("tea")
        try store.commit([.added(tea)], history: [])
        let crashed = dir.path + "/crashed"
        try FileManager.default.createDirectory(atPath: crashed, withIntermediateDirectories: false)
        for suffix in ["", "-wal", "-shm"] {
            try FileManager.default.copyItem(atPath: dir.database + suffix, toPath: crashed + "/state.sqlite" + suffix)
        }
        #expect(bytes(crashed + "/state.sqlite-wal")?.isEmpty == false)

        let recovered = try StateStore.open(directory: crashed, now: now)
        #expect(recovered.movedAside.isEmpty)
        #expect(try recovered.store.loadAll() == [tea])
    }

    @Test func usesWALWithFullSynchronous() throws {
        let dir = try TemporaryDirectory()
        let store = try StateStore.open(directory: dir.state, now: now).store
        #expect(try store.pragma("journal_mode") == "wal")
        #expect(try store.pragma("synchronous") == "2")  // FULL
        try store.close()
        try withDatabase(dir.database) { db throws in
            #expect(try db.strings("PRAGMA journal_mode") == ["wal"])
            #expect(try db.integer("PRAGMA user_version") == Int64(StateStore.schemaVersion))
        }
    }

    @Test func keepsThePreAlertAndItsFlag() throws {
        let dir = try TemporaryDirectory()
        let store = try StateStore.open(directory: dir.state, now: now).store
        var tea = try timer("tea")
        tea.warnUSec = 10_000_000
        var warned = tea
        warned.warned = true
        try store.commit([.added(tea)], history: [])
        #expect(try store.loadAll() == [tea])
        try store.commit(
            [
                .changed(from: tea, to: warned),
                .warning(id: tea.id, remainingUSec: 10_000_000, deadlineUSec: tea.endsAtUSec),
            ], history: [])
        try store.close()
        #expect(try StateStore.open(directory: dir.state, now: now).store.loadAll() == [warned])
    }

    /// A state file as restd 0.1.0 (schema version 1) wrote it.
    private func writeVersion1File(_ dir: TemporaryDirectory) throws {
        try StoreFiles.makePrivateDirectory(dir.state)
        try withDatabase(dir.database) { db throws in
            try db.execute(
                """
                CREATE TABLE timers (
                    id TEXT PRIMARY KEY NOT NULL, label TEXT NOT NULL, next TEXT NOT NULL,
                    notify INTEGER NOT NULL, base_duration_usec INTEGER NOT NULL, state TEXT NOT NULL,
                    duration_usec INTEGER NOT NULL, started_at_usec INTEGER NOT NULL,
                    ends_at_usec INTEGER NOT NULL, remaining_usec INTEGER NOT NULL,
                    expired_at_usec INTEGER NOT NULL, updated_at_usec INTEGER NOT NULL
                ) STRICT;
                INSERT INTO timers VALUES ('tea', 'Tea', 'write report', 1, 300000000, 'running', 330000000,
                    \(now), \(now + 330_000_000), 120000000, 0, \(now + 5));
                INSERT INTO timers VALUES ('nap', 'Ünïcödé 🍵', 'write report', 0, 300000000, 'paused', 330000000,
                    \(now), 0, 120000000, 0, \(now + 5));
                PRAGMA user_version = 1;
                """)
        }
    }

    @Test func migratesAVersion1FileInPlace() throws {
        let dir = try TemporaryDirectory()
        try writeVersion1File(dir)
        let (store, moved) = try StateStore.open(directory: dir.state, now: now)
        #expect(moved.isEmpty)
        #expect(store.movedAsideReason == nil)
        var nap = try timer("nap", label: "Ünïcödé 🍵", state: .paused)
        nap.notify = false
        let tea = try timer("tea")
        // Old rows come back unchanged, without a pre-alert.
        #expect(try store.loadAll().sorted { $0.id < $1.id } == [nap, tea])
        #expect(tea.warnUSec == 0 && !tea.warned)

        var warnedTea = tea
        warnedTea.warnUSec = 30_000_000
        warnedTea.warned = true
        try store.commit([.changed(from: tea, to: warnedTea)], history: [])
        try store.close()

        try withDatabase(dir.database) { db throws in
            #expect(try db.integer("PRAGMA user_version") == Int64(StateStore.schemaVersion))
            #expect(
                try db.strings("SELECT name FROM pragma_table_info('timers')").suffix(6)
                    == ["warn_usec", "warned", "rest_source", "end_reason", "sound", "rings_until_usec"])
            #expect(
                Set(try db.strings("SELECT name FROM sqlite_master WHERE type = 'table'"))
                    .isSuperset(of: ["sets", "rests", "exercises"]))
        }
        let reopened = try StateStore.open(directory: dir.state, now: now)
        #expect(reopened.movedAside.isEmpty)
        #expect(try reopened.store.loadAll().sorted { $0.id < $1.id } == [nap, warnedTea])
    }

    @Test func aVersion1FileWithTheWrongColumnsIsNotMigrated() throws {
        let dir = try TemporaryDirectory()
        try StoreFiles.makePrivateDirectory(dir.state)
        try withDatabase(dir.database) { db throws in
            // Already has the new columns but claims version 1: not a file restd wrote.
            try db.execute("CREATE TABLE timers (id TEXT PRIMARY KEY, warn_usec INTEGER); PRAGMA user_version = 1")
        }
        let (store, moved) = try StateStore.open(directory: dir.state, now: now)
        #expect(moved.count == 1)
        #expect(store.movedAsideReason?.contains("unexpected columns (id, warn_usec)") == true)
        #expect(try store.loadAll().isEmpty)
    }

    @Test func rejectsRowsWithAnInvalidWarnedFlag() throws {
        let dir = try TemporaryDirectory()
        let store = try StateStore.open(directory: dir.state, now: now).store
        try store.commit([.added(try timer("tea"))], history: [])
        try store.close()
        try withDatabase(dir.database) { try $0.execute("UPDATE timers SET warned = 7") }
        var skipped: [String] = []
        #expect(try StateStore.open(directory: dir.state, now: now).store.loadAll { skipped.append($0) }.isEmpty)
        #expect(skipped == [#"skipped a stored timer: row "tea" has a warned value that is neither 0 nor 1"#])
    }

    @Test func skipsAndReportsInvalidRows() throws {
        let dir = try TemporaryDirectory()
        let store = try StateStore.open(directory: dir.state, now: now).store
        let tea = try timer("tea")
        try store.commit([.added(tea)], history: [])
        try store.close()
        try withDatabase(dir.database) { db throws in
            let columns =
                "id, label, next, notify, base_duration_usec, state, duration_usec, started_at_usec, "
                + "ends_at_usec, remaining_usec, expired_at_usec, updated_at_usec"
            for values in [
                "'a.b', '', '', 1, 1, 'running', 1, 1, 1, 1, 0, 1",
                "'nap', '', '', 1, 1, 'sleeping', 1, 1, 1, 1, 0, 1",
                "'old', '', '', 1, 1, 'paused', 1, -5, 0, 1, 0, 1",
                "'bell', char(7), '', 1, 1, 'paused', 1, 1, 0, 1, 0, 1",
            ] {
                try db.execute("INSERT INTO timers (\(columns)) VALUES (\(values))")
            }
        }
        let reopened = try StateStore.open(directory: dir.state, now: now)
        #expect(reopened.movedAside.isEmpty)
        var skipped: [String] = []
        #expect(try reopened.store.loadAll { skipped.append($0) } == [tea])
        // In the table's order; sorted, they are in id order.
        #expect(
            skipped.sorted() == [
                #"skipped a stored timer: row "a.b" has an invalid id: "#
                    + #"timer id "a.b" is invalid: use 1 to 64 characters of A-Z, a-z, 0-9, _ and -"#,
                #"skipped a stored timer: row "bell" has a label that is missing or contains a control character"#,
                #"skipped a stored timer: row "nap" has an unknown state "sleeping""#,
                #"skipped a stored timer: row "old" has an invalid started_at_usec"#,
            ])
    }

    /// Files written by restd through GRDB (schema 1 by commit 0da3ab6^, schema 2 by 3524613),
    /// each holding a running, a paused and an expired timer: they open and migrate.
    @Test(arguments: ["schema1-restd-0da3ab6.sqlite", "schema2-restd-3524613.sqlite"])
    func opensFilesWrittenThroughGRDB(_ name: String) throws {
        let dir = try TemporaryDirectory()
        try StoreFiles.makePrivateDirectory(dir.state)
        try StoreFiles.copyFile(fixture(name), to: dir.database)
        let (store, moved) = try StateStore.open(directory: dir.state, now: now)
        #expect(moved.isEmpty)
        #expect(store.movedAsideReason == nil)
        let timers = try store.loadAll { Issue.record("skipped: \($0)") }
        let byID = Dictionary(uniqueKeysWithValues: timers.map { ($0.id.rawValue, $0) })
        #expect(byID["run"]?.state == .running)
        #expect(byID["run"]?.label == "Squat" && byID["run"]?.next == "Bench press")
        #expect(byID["held"]?.state == .paused && byID["held"]?.label == "Ünïcödé 🍵" && byID["held"]?.notify == false)
        #expect(byID["over"]?.state == .expired)
        if name.hasPrefix("schema2") { #expect(byID["run"]?.warnUSec == 10_000_000) }
        // Migrated in place, and writable.
        var held = try #require(byID["held"])
        held.label = "Green tea"
        try store.commit([.changed(from: byID["held"]!, to: held)], history: [])
        try store.close()
        try withDatabase(dir.database) { db throws in
            #expect(try db.integer("PRAGMA user_version") == Int64(StateStore.schemaVersion))
        }
        // The history tables came with the migration, and take a set.
        let set = SetRecord(
            id: 1, timerID: try TimerID(parsing: "run"), atUSec: now, exercise: "Squat", exerciseKey: "squat",
            reps: 5, weightKg: 100, failed: false)
        let migrated = try StateStore.open(directory: dir.state, now: now).store
        try migrated.commit([], history: [.setRecorded(set)])
        #expect(try migrated.sets(since: 0, until: .max / 2, exerciseKey: "", limit: 10).rows.map(\.set) == [set])
        try migrated.close()
        let reopened = try StateStore.open(directory: dir.state, now: now).store.loadAll()
        #expect(reopened.first { $0.id.rawValue == "held" }?.label == "Green tea")
    }

    @Test func formatsUTCStamps() {
        #expect(DateText.basicISO8601(usec: 0) == "19700101T000000Z")
        #expect(DateText.basicISO8601(usec: now) == stamp)
        #expect(DateText.basicISO8601(usec: 951_782_400_999_999) == "20000229T000000Z")
    }

    @Test func anEmptyFileIsAFreshDatabase() throws {
        let dir = try TemporaryDirectory()
        try StoreFiles.makePrivateDirectory(dir.state)
        try write(Data(), to: dir.database)
        let (store, moved) = try StateStore.open(directory: dir.state, now: now)
        #expect(moved.isEmpty)
        try store.commit([.added(try timer("tea"))], history: [])
        #expect(try store.loadAll().count == 1)
    }
}

/// Every way a state file can be unusable: moved aside intact, and a fresh store results.
@Suite struct StateStoreRecoveryTests {
    enum Damage: String, CaseIterable, CustomTestStringConvertible {
        case randomBytes, textFile, truncatedHeader, truncatedPages, corruptPage, directory, symlink
        case futureVersion, invalidVersion, missingTable, oddTable, unversionedTables, missingHistoryTable,
            oddHistoryTable

        var testDescription: String { rawValue }

        /// What the sentence in `movedAsideReason` says.
        var reasonPhrase: String {
            switch self {
            case .randomBytes, .textFile: "cannot be read: not a database"
            case .truncatedHeader, .truncatedPages: "cannot be read: "
            case .corruptPage: "fails the integrity check: "
            case .directory: "is a directory, not a database file"
            case .symlink: "is a symbolic link, not a database file"
            case .futureVersion:
                "has schema version \(StateStore.schemaVersion + 1), newer than this restd understands "
                    + "(\(StateStore.schemaVersion))"
            case .missingHistoryTable: "has schema version \(StateStore.schemaVersion) but no rests table"
            case .oddHistoryTable: "has a sets table with unexpected columns (id, when_usec)"
            case .invalidVersion: "has an invalid schema version -1"
            case .missingTable: "has schema version 1 but no timers table"
            case .oddTable: "has a timers table with unexpected columns (id, seconds)"
            case .unversionedTables: "has no schema version but holds tables (photos)"
            }
        }
    }

    /// Fills the state directory with a damaged state file.
    private func damage(_ kind: Damage, in dir: TemporaryDirectory) throws {
        let path = dir.database
        try StoreFiles.makePrivateDirectory(dir.state)
        switch kind {
        case .randomBytes:
            var generator = SplitMix64(state: 42)
            let data = Data((0..<8192).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
            try write(data, to: path)
        case .textFile:
            try write(Data("restd state\n".utf8), to: path)
        case .truncatedHeader, .truncatedPages, .corruptPage:
            try fillStore(dir)
            let handle = try #require(FileHandle(forUpdatingAtPath: path))
            defer { try? handle.close() }
            switch kind {
            case .truncatedHeader:
                try handle.truncate(atOffset: 60)
            case .truncatedPages:
                try handle.truncate(atOffset: 4096 + 1000)
            default:
                // Garbage in the middle of a b-tree page of timers (the last pages), header left intact.
                let pages = try handle.seekToEnd() / 4096
                try handle.seek(toOffset: (pages - 2) * 4096 + 8)
                handle.write(Data(repeating: 0xA5, count: 2000))
            }
        case .directory:
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            try write(Data("keep".utf8), to: path + "/inside")
        case .symlink:
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: dir.path + "/elsewhere")
        case .futureVersion:
            try withDatabase(path) { db in
                try db.execute(
                    "CREATE TABLE timers (id TEXT PRIMARY KEY, shiny TEXT); "
                        + "PRAGMA user_version = \(StateStore.schemaVersion + 1)")
            }
        case .missingHistoryTable, .oddHistoryTable:
            try fillStore(dir)
            try withDatabase(path) { db in
                if kind == .missingHistoryTable {
                    try db.execute("DROP TABLE rests")
                } else {
                    try db.execute("DROP TABLE sets; CREATE TABLE sets (id INTEGER PRIMARY KEY, when_usec INTEGER)")
                }
            }
        case .invalidVersion:
            try withDatabase(path) { try $0.execute("PRAGMA user_version = -1") }
        case .missingTable:
            try withDatabase(path) { try $0.execute("PRAGMA user_version = 1") }
        case .oddTable:
            try withDatabase(path) { db in
                try db.execute("CREATE TABLE timers (id TEXT PRIMARY KEY, seconds INTEGER); PRAGMA user_version = 1")
            }
        case .unversionedTables:
            try withDatabase(path) { try $0.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, data BLOB)") }
        }
    }

    /// A real state file with several pages of timers.
    private func fillStore(_ dir: TemporaryDirectory) throws {
        let store = try StateStore.open(directory: dir.state, now: now).store
        try store.commit(
            (0..<60).map { .added(try timer("t\($0)", label: String(repeating: "x", count: 200))) }, history: [])
        try store.close()
    }

    @Test(arguments: Damage.allCases)
    func movesAsideAndStartsFresh(_ kind: Damage) throws {
        let dir = try TemporaryDirectory()
        try damage(kind, in: dir)
        let original = bytes(dir.database)

        let (store, moved) = try StateStore.open(directory: dir.state, now: now)
        let brokenPath = dir.database + ".broken-" + stamp
        // Checking a WAL-mode file may leave -wal and -shm beside it; they move along.
        #expect(moved.first == brokenPath)
        #expect(Set(moved).isSubset(of: [brokenPath, brokenPath + "-wal", brokenPath + "-shm"]))
        let reason = try #require(store.movedAsideReason)
        #expect(reason.hasPrefix(dir.database + " ") && reason.contains(kind.reasonPhrase), "\(reason)")
        #expect(bytes(brokenPath) == original, "the moved file keeps its bytes")
        switch kind {
        case .directory: #expect(bytes(brokenPath + "/inside") == Data("keep".utf8))
        case .symlink: #expect(StoreFiles.kind(of: brokenPath) == .other(.symbolicLink))
        default: #expect(StoreFiles.kind(of: brokenPath) != .absent)
        }
        #expect(try store.loadAll().isEmpty)
        let tea = try timer("tea")
        try store.commit([.added(tea)], history: [])
        #expect(try store.loadAll() == [tea])
        #expect(mode(dir.database) == 0o600)
    }

    @Test func explainsWhy() throws {
        let dir = try TemporaryDirectory()
        try damage(.futureVersion, in: dir)
        let store = try StateStore.open(directory: dir.state, now: now).store
        #expect(
            store.movedAsideReason
                == "\(dir.database) has schema version \(StateStore.schemaVersion + 1), newer than this restd "
                + "understands (\(StateStore.schemaVersion))")

        let other = try TemporaryDirectory()
        try damage(.directory, in: other)
        #expect(
            try StateStore.open(directory: other.state, now: now).store.movedAsideReason
                == "\(other.database) is a directory, not a database file")
    }

    @Test func movesCompanionsAlongAndKeepsTheirBytes() throws {
        let dir = try TemporaryDirectory()
        try damage(.textFile, in: dir)
        try write(Data("wal bytes".utf8), to: dir.database + "-wal")
        try write(Data("shm bytes".utf8), to: dir.database + "-shm")

        let (store, moved) = try StateStore.open(directory: dir.state, now: now)
        let base = dir.database + ".broken-" + stamp
        #expect(moved == [base, base + "-shm", base + "-wal"])
        #expect(try store.loadAll().isEmpty)
        #expect(bytes(base + "-wal") == Data("wal bytes".utf8))
        // The -shm is SQLite's rebuildable index: the read-only check may rewrite it.
        #expect(StoreFiles.kind(of: base + "-shm") != .absent)

    }

    @Test func addsACounterWhenTheNameIsTaken() throws {
        let dir = try TemporaryDirectory()
        try damage(.textFile, in: dir)
        let base = dir.database + ".broken-" + stamp
        try write(Data("first".utf8), to: base)
        try write(Data("second".utf8), to: base + "-2-wal")

        let moved = try StateStore.open(directory: dir.state, now: now).movedAside

        #expect(moved == [base + "-3"])
        #expect(bytes(base) == Data("first".utf8))
        #expect(bytes(base + "-2-wal") == Data("second".utf8))
        #expect(bytes(base + "-3") == Data("restd state\n".utf8))
    }

    @Test func aLockedFileIsAnErrorNotMovedAside() throws {
        let dir = try TemporaryDirectory()
        try fillStore(dir)
        let holder = try SQLiteDatabase(path: dir.database)
        try holder.execute("PRAGMA locking_mode = EXCLUSIVE")
        try holder.execute("UPDATE timers SET label = 'held' WHERE id = 't0'")

        let error = try #require(throws: StoreError.self) { _ = try StateStore.open(directory: dir.state, now: now) }

        #expect(
            error.description == "could not read the state file \(dir.database): the file is locked by another process")
        #expect(StoreFiles.kind(of: dir.database + ".broken-" + stamp) == .absent)
        try holder.close()
        #expect(try StateStore.open(directory: dir.state, now: now).store.loadAll().count == 60)
    }

    @Test func leavesAHealthyFileInPlace() throws {
        let dir = try TemporaryDirectory()
        try fillStore(dir)
        let (store, moved) = try StateStore.open(directory: dir.state, now: now)
        #expect(moved.isEmpty)
        #expect(try store.loadAll().count == 60)
    }
}

/// The training history in the same file: written with the timers in one transaction, read
/// back, pruned.
@Suite struct HistoryStoreTests {
    private let squat = try! ExerciseName(parsing: "Squat")

    private func set(_ id: Int64, at: USec, exercise: String = "Squat") throws -> SetRecord {
        SetRecord(
            id: id, timerID: try TimerID(parsing: "default"), atUSec: at, exercise: exercise,
            exerciseKey: exercise.lowercased(), reps: 5, weightKg: 102.5, failed: false)
    }

    private func rest(after set: SetRecord, planned: USec = 150_000_000) -> RestRecord {
        RestRecord(
            setID: set.id, timerID: set.timerID, exercise: set.exercise, exerciseKey: set.exerciseKey,
            startedAtUSec: set.atUSec, plannedUSec: planned, source: "default")
    }

    @Test func aSetItsRestAndTheTimerAreOneTransaction() throws {
        let dir = try TemporaryDirectory()
        let store = try StateStore.open(directory: dir.state, now: now).store
        let first = try set(1, at: now)
        let tea = try timer("default")
        // A value that cannot be stored fails the whole batch: neither the timer nor the set is written.
        var broken = rest(after: first)
        broken.startedAtUSec = .max
        #expect(throws: StoreError.self) {
            try store.commit([.added(tea)], history: [.setRecorded(first), .restOpen(broken)])
        }
        #expect(try store.loadAll().isEmpty)
        #expect(try store.sets(since: 0, until: .max / 2, exerciseKey: "", limit: 10).rows.isEmpty)

        try store.commit([.added(tea)], history: [.setRecorded(first), .restOpen(rest(after: first))])
        #expect(try store.loadAll() == [tea])
        let training = try store.loadTraining()
        #expect(training.openRests == [rest(after: first)] && training.lastSetID == 1)
        #expect(try store.lastExercise(timer: first.timerID) == "Squat")
        #expect(
            try store.facts(squat, dayStartUSec: now, weightKg: nil)
                == ExerciseFacts(
                    firstWritten: "Squat", setsInARow: 1, previousReps: 5, previousWeightKg: 102.5,
                    bests: ExerciseBests(
                        heaviestKg: 102.5, bestEstimateKg: OneRepMax.estimateKg(weightKg: 102.5, reps: 5),
                        mostRepsAtWeight: 5)))
        // At another weight: no set there yet, the same heaviest and estimate.
        #expect(
            try store.facts(squat, dayStartUSec: now, weightKg: 60).bests
                == ExerciseBests(heaviestKg: 102.5, bestEstimateKg: OneRepMax.estimateKg(weightKg: 102.5, reps: 5)))
    }

    @Test func thePreviousSetIsTheExercisesLatestWhicheverTimerAndOnlyWithValuesASetMayHave() throws {
        let dir = try TemporaryDirectory()
        let store = try StateStore.open(directory: dir.state, now: now).store
        var older = try set(1, at: now)
        older.reps = 8
        var latest = try set(2, at: now + 60_000_000)
        latest.timerID = try TimerID(parsing: "other")
        latest.reps = 6
        latest.weightKg = nil
        let bench = try set(3, at: now + 120_000_000, exercise: "Bench")
        try store.commit([], history: [.setRecorded(latest), .setRecorded(older), .setRecorded(bench)])
        let facts = try store.facts(squat, dayStartUSec: now, weightKg: nil)
        #expect(facts.previousReps == 6 && facts.previousWeightKg == nil, "\(facts)")
        #expect(
            try store.facts(try ExerciseName(parsing: "Deadlift"), dayStartUSec: now, weightKg: nil).previousReps == nil
        )

        // A row edited by hand to what no set may have is not repeated.
        try store.close()
        try withDatabase(dir.database) { db throws in
            try db.execute("UPDATE sets SET reps = 20000, weight_kg = 5000.0 WHERE id = 3")
        }
        let reopened = try StateStore.open(directory: dir.state, now: now).store
        let benchFacts = try reopened.facts(try ExerciseName(parsing: "Bench"), dayStartUSec: now, weightKg: nil)
        #expect(benchFacts.previousReps == nil && benchFacts.previousWeightKg == nil, "\(benchFacts)")
    }

    @Test func anEndedRestIsRememberedForItsExerciseUnlessItFollowedAFailedSet() throws {
        let dir = try TemporaryDirectory()
        let store = try StateStore.open(directory: dir.state, now: now).store
        let first = try set(1, at: now)
        var ended = rest(after: first)
        ended.adjustUSec = 15_000_000
        ended = ended.ended(.completed, at: now + 170_000_000)
        try store.commit([], history: [.setRecorded(first), .restEnded(ended)])
        #expect(try store.facts(squat, dayStartUSec: now + 1, weightKg: nil).lastRestUSec == 165_000_000)
        #expect(try store.facts(squat, dayStartUSec: now + 1, weightKg: nil).setsInARow == 0)

        let second = try set(2, at: now + 170_000_000)
        var afterFailed = rest(after: second, planned: 240_000_000)
        afterFailed.source = "failed_rest"
        try store.commit(
            [], history: [.setRecorded(second), .restEnded(afterFailed.ended(.completed, at: now + 400_000_000))])
        #expect(try store.facts(squat, dayStartUSec: now, weightKg: nil).lastRestUSec == 165_000_000)
        let rows = try store.sets(since: 0, until: .max / 2, exerciseKey: "", limit: 10).rows
        #expect(rows.map(\.rest?.outcome) == [.completed, .completed])
        #expect(rows.first?.rest?.takenUSec == 170_000_000 && rows.first?.set.weightKg == 102.5)
        #expect(try store.loadTraining().openRests.isEmpty)
    }

    @Test func aLimitTellsWhetherMoreMatch() throws {
        let dir = try TemporaryDirectory()
        let store = try StateStore.open(directory: dir.state, now: now).store
        try store.commit([], history: try (1...5).map { .setRecorded(try set($0, at: now + USec($0))) })
        let page = try store.sets(since: now, until: now + 100, exerciseKey: "", limit: 3)
        #expect(page.rows.map(\.set.id) == [1, 2, 3] && page.more)
        // Stopped at the row past the limit, the read is ended, not left open on it.
        #expect(try !store.openStatements().history.setsBetween.isBusy)
        let rests = try store.rests(since: now, until: now + 100, exerciseKey: "", limit: 1)
        #expect(rests.rows.isEmpty && !rests.more)
        let rest = try store.sets(since: now + 3, until: now + 100, exerciseKey: "", limit: 3)
        #expect(rest.rows.map(\.set.id) == [3, 4, 5] && !rest.more)
        #expect(try store.sets(since: now + 2, until: now + 4, exerciseKey: "", limit: 3).rows.map(\.set.id) == [2, 3])
    }

    @Test("reps no set can have (a damaged file) read as none, in Sets and SetRows alike")
    func impossibleRepsReadAsNone() throws {
        let dir = try TemporaryDirectory()
        let store = try StateStore.open(directory: dir.state, now: now).store
        try store.commit([], history: try (1...2).map { .setRecorded(try set($0, at: now + USec($0))) })
        try store.close()
        try withDatabase(dir.database) { try $0.execute("UPDATE sets SET reps = 4294967295 WHERE id = 2") }
        let reopened = try StateStore.open(directory: dir.state, now: now).store
        let rows = try reopened.sets(since: now, until: now + 100, exerciseKey: "", limit: 10).rows
        #expect(rows.map(\.set.reps) == [5, nil])
    }

    @Test func pruningRidesOnACommitAndKeepsOpenRests() throws {
        let dir = try TemporaryDirectory()
        let store = try StateStore.open(directory: dir.state, now: now).store
        let old = try set(1, at: now)
        let young = try set(2, at: now + 10 * 86_400_000_000)
        let open = rest(after: old)
        try store.commit(
            [],
            history: [
                .setRecorded(old), .restOpen(open), .setRecorded(young),
                .restEnded(rest(after: young).ended(.skipped, at: young.atUSec + 1)),
            ])
        try store.commit([], history: [], pruneBeforeUSec: now + 86_400_000_000)
        #expect(try store.sets(since: 0, until: .max / 2, exerciseKey: "", limit: 10).rows.map(\.set.id) == [2])
        #expect(try store.loadTraining().openRests == [open], "an open rest stays until it ends")
        #expect(try store.rests(since: 0, until: .max / 2, exerciseKey: "", limit: 10).rows.map(\.setID) == [1, 2])
    }
}

extension HistoryStoreTests {
    @Test("a rest's recovery is stored with it, nil metrics as NULL, and read back by Sets, Rests and start-up")
    func recoveryRoundTrips() throws {
        let dir = try TemporaryDirectory()
        let store = try StateStore.open(directory: dir.state, now: now).store
        let first = try set(1, at: now)
        let second = try set(2, at: now + 200_000_000)
        var followed = rest(after: first)
        // Measured, with gaps where the data did not say.
        followed.recovery = RecoveryMetrics(
            setEndBPM: 158.5, peakBPM: 162, peakAfterUSec: 4_000_000, bpmAfter30s: 140.25, bpmAfter60s: 128,
            bpmAfter120s: nil, hrr60BPM: 31, timeToTargetUSec: 62_000_000, minimumBPM: 117, coverage: 0.98,
            rmssdMilliseconds: nil, rmssdBeats: 12, rmssdRejectedShare: 0.5)
        var open = rest(after: second)
        open.recovery = RecoveryMetrics(rmssdBeats: 0)
        let ended = followed.ended(.completed, at: second.atUSec)
        try store.commit([], history: [.setRecorded(first), .restEnded(ended), .setRecorded(second), .restOpen(open)])
        let rows = try store.sets(since: 0, until: .max / 2, exerciseKey: "", limit: 10).rows
        #expect(rows.map(\.rest?.recovery) == [ended.recovery, open.recovery])
        #expect(try store.rests(since: 0, until: .max / 2, exerciseKey: "", limit: 10).rows == [ended, open])
        #expect(try store.loadTraining().openRests == [open])
    }

    @Test("a version 5 file gains the recovery columns, NULL in the rests it had")
    func migratesAVersion5File() throws {
        let dir = try TemporaryDirectory()
        let store = try StateStore.open(directory: dir.state, now: now).store
        let first = try set(1, at: now)
        try store.commit([], history: [.setRecorded(first), .restOpen(rest(after: first))])
        try store.close()
        try withDatabase(dir.database) { db in
            try db.execute(
                HistorySchema.recoveryColumns.map { "ALTER TABLE rests DROP COLUMN \($0)" }.joined(separator: ";")
                    + "; DROP TABLE rest_heart_rates; "
                    + "ALTER TABLE timers DROP COLUMN sound; ALTER TABLE timers DROP COLUMN rings_until_usec; "
                    + schema10Undone
                    + "PRAGMA user_version = 5")
        }
        let (migrated, moved) = try StateStore.open(directory: dir.state, now: now)
        #expect(moved.isEmpty && migrated.movedAsideReason == nil)
        #expect(try migrated.loadTraining().openRests == [rest(after: first)])
        try migrated.close()
        try withDatabase(dir.database) { db throws in
            #expect(try db.integer("PRAGMA user_version") == Int64(StateStore.schemaVersion))
        }
    }
}

/// The workout in progress and the summaries of ended ones, in the same file and on the same
/// commit as the sets (schema 4).
@Suite struct WorkoutStoreTests {
    private let planText = """
        name = "Push day"

        [[exercise]]
        name = "Squat"
        sets = 3
        reps = 5
        weight = 100
        rest = "3m"
        """

    private func active(position: Int, setsDone: Int) throws -> ActiveWorkout {
        let plan = try WorkoutPlanFile.parse(planText, file: "push.toml")
        return ActiveWorkout(
            progress: WorkoutProgress(plan: plan, startedAtUSec: now, position: position, setsDone: setsDone),
            planText: planText, planSource: "/plans/push.toml", touchedAtUSec: now + 60_000_000)
    }

    @Test func theWorkoutRidesOnTheSetsCommitAndIsRestoredAtTheSameSet() throws {
        let dir = try TemporaryDirectory()
        let store = try StateStore.open(directory: dir.state, now: now).store
        #expect(try store.loadWorkout() == nil)
        let set = SetRecord(
            id: 1, timerID: try TimerID(parsing: "default"), atUSec: now, exercise: "Squat", exerciseKey: "squat",
            reps: 5, weightKg: 100, failed: false)
        let workout = try active(position: 1, setsDone: 1)
        // A batch that cannot be stored writes no workout either.
        var broken = set
        broken.atUSec = .max
        #expect(throws: StoreError.self) {
            try store.commit([], history: [.setRecorded(broken), .workoutSaved(workout)])
        }
        #expect(try store.loadWorkout() == nil)

        try store.commit([.added(try timer("default"))], history: [.setRecorded(set), .workoutSaved(workout)])
        try store.close()
        let reopened = try StateStore.open(directory: dir.state, now: now).store
        let stored = try #require(try reopened.loadWorkout())
        #expect(stored.position == 1 && stored.setsDone == 1 && stored.startedAtUSec == now)
        #expect(try stored.restored() == workout)
        #expect(try stored.restored().progress.nextLabel == "Squat 2/3")
    }

    @Test func anEndedWorkoutLeavesItsSummaryAndNoWorkoutInProgress() throws {
        let dir = try TemporaryDirectory()
        let store = try StateStore.open(directory: dir.state, now: now).store
        try store.commit([], history: [.workoutSaved(try active(position: 0, setsDone: 0))])
        let summary = WorkoutSummary(
            name: "Push day", startedAtUSec: now, endedAtUSec: now + 1_800_000_000, setsPlanned: 3,
            sets: [(5, 100), (5, 100), (nil, 100)], restsTakenUSec: [180_000_000, 200_000_000], abandoned: false)
        try store.commit([], history: [.workoutEnded(summary)])
        #expect(try store.loadWorkout() == nil)
        let summaries = try store.workoutSummaries(since: 0, until: .max / 2, limit: 10)
        #expect(summaries == [summary])
        #expect(summaries.first?.volumeKG == 1000 && summaries.first?.medianRestUSec == 190_000_000)
        #expect(try store.workoutSummaries(since: now + 1_800_000_001, until: .max / 2, limit: 10).isEmpty)
    }

    @Test func migratesAVersion3FileAndKeepsItsHistory() throws {
        let dir = try TemporaryDirectory()
        let store = try StateStore.open(directory: dir.state, now: now).store
        let set = SetRecord(
            id: 1, timerID: try TimerID(parsing: "default"), atUSec: now, exercise: "Squat", exerciseKey: "squat",
            reps: 5, weightKg: 100, failed: false)
        try store.commit([.added(try timer("default"))], history: [.setRecorded(set)])
        try store.close()
        // What restd of schema 3 wrote: no workout tables.
        try withDatabase(dir.database) { db in
            try db.execute(
                "DROP TABLE workout; DROP TABLE workouts; DROP TABLE rest_heart_rates; "
                    + "ALTER TABLE timers DROP COLUMN end_reason; "
                    + "ALTER TABLE timers DROP COLUMN sound; ALTER TABLE timers DROP COLUMN rings_until_usec; "
                    + schema10Undone
                    + HistorySchema.recoveryColumns.map { "ALTER TABLE rests DROP COLUMN \($0); " }.joined()
                    + "PRAGMA user_version = 3")
        }
        let (migrated, moved) = try StateStore.open(directory: dir.state, now: now)
        #expect(moved.isEmpty && migrated.movedAsideReason == nil)
        #expect(try migrated.sets(since: 0, until: .max / 2, exerciseKey: "", limit: 10).rows.map(\.set) == [set])
        try migrated.commit([], history: [.workoutSaved(try active(position: 0, setsDone: 0))])
        #expect(try migrated.loadWorkout()?.name == "Push day")
        try migrated.close()
        try withDatabase(dir.database) { db throws in
            #expect(try db.integer("PRAGMA user_version") == Int64(StateStore.schemaVersion))
        }
    }

    @Test func migratesAVersion4FileAndKeepsWhyItsTimersEnded() throws {
        let dir = try TemporaryDirectory()
        let store = try StateStore.open(directory: dir.state, now: now).store
        try store.commit([.added(try timer("default"))], history: [])
        try store.close()
        // What restd of schema 4 wrote: no end_reason.
        try withDatabase(dir.database) { db in
            try db.execute(
                "ALTER TABLE timers DROP COLUMN end_reason; DROP TABLE rest_heart_rates; "
                    + "ALTER TABLE timers DROP COLUMN sound; ALTER TABLE timers DROP COLUMN rings_until_usec; "
                    + schema10Undone
                    + HistorySchema.recoveryColumns.map { "ALTER TABLE rests DROP COLUMN \($0); " }.joined()
                    + "PRAGMA user_version = 4")
        }
        let (migrated, moved) = try StateStore.open(directory: dir.state, now: now)
        #expect(moved.isEmpty && migrated.movedAsideReason == nil)
        #expect(try migrated.loadAll().map(\.endReason) == [nil])
        var recovered = try timer("default")
        recovered.state = .expired
        recovered.endReason = .recovered
        try migrated.commit([.added(recovered)], history: [])
        #expect(try migrated.loadAll().map(\.endReason) == [.recovered])
        try migrated.close()
        try withDatabase(dir.database) { db throws in
            #expect(try db.integer("PRAGMA user_version") == Int64(StateStore.schemaVersion))
        }
    }
}
