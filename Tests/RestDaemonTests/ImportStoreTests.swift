import Foundation
import ProcessHarness
import RestCore
import SQLiteKit
import Testing

@testable import RestDaemon

/// Imported sets in state.sqlite (schema 10, `HistorySchema.importColumns`): a file of an older
/// restd migrated, the warm-up mark and the key written and read back, what an import asks
/// (`importFacts`), no key twice, and the reads that go by time rather than id.
@Suite struct ImportStoreTests {
    /// 2023-11-14 22:13:20 UTC.
    let now: USec = 1_700_000_000_000_000
    let hour: USec = 3_600_000_000

    func set(
        _ id: Int64, _ exercise: String, at: USec, reps: UInt32 = 5, kg: Double = 100, timer: String = "import",
        warmup: Bool = false
    ) -> SetRecord {
        var set = SetRecord(
            id: id, timerID: try! TimerID(parsing: timer), atUSec: at, exercise: exercise,
            exerciseKey: ExerciseName.key(of: exercise), reps: reps, weightKg: kg, failed: false)
        set.warmup = warmup
        return set
    }

    /// A state directory holding the schema-6 file restd wrote (Fixtures), opened: migrated to 10.
    func migratedStore(_ state: TempDirectory) throws -> StateStore {
        let here = #filePath
        try StoreFiles.copyFile(
            String(here[..<here.lastIndex(of: "/")!]) + "/Fixtures/schema6-restd-6c5ec37.sqlite",
            to: state.path("state.sqlite"))
        let (store, moved) = try StateStore.open(directory: state.path, now: now)
        #expect(moved.isEmpty && store.movedAsideReason == nil)
        return store
    }

    @Test func importedSetsAreWrittenAndReadBackInAnOlderFile() throws {
        let state = try TempDirectory(prefix: "restd-store")
        let store = try migratedStore(state)
        let own = try store.sets(since: 0, until: .max / 2, exerciseKey: "", limit: 10).rows
        #expect(own.count == 3 && own.allSatisfy { !$0.set.warmup })
        let dayStart = LocalCalendar.startOfDay(containing: now)
        let warmup = set(100, "squat", at: dayStart + 9 * hour, reps: 10, kg: 40, warmup: true)
        let heavy = set(101, "Squat", at: dayStart + 9 * hour + 60_000_000, kg: 140)
        try store.commit(
            [],
            history: [
                .setImported(warmup, importKey: "hevy\u{1F}a\u{1F}squat\u{1F}1"),
                .setImported(heavy, importKey: "hevy\u{1F}a\u{1F}squat\u{1F}2"),
            ])
        try store.close()
        let reopened = try StateStore.open(directory: state.path, now: now).store
        let read = try reopened.sets(since: dayStart, until: dayStart + 24 * hour, exerciseKey: "squat", limit: 10).rows
        #expect(read.map(\.set) == [warmup, heavy])
        #expect(read.allSatisfy { $0.rest == nil })

        let facts = try reopened.importFacts(since: dayStart, until: dayStart + 24 * hour)
        #expect(facts.importedKeys == ["hevy\u{1F}a\u{1F}squat\u{1F}1", "hevy\u{1F}a\u{1F}squat\u{1F}2"])
        #expect(facts.ownSets.isEmpty)
        #expect(facts.exerciseNames["squat"] == "Squat" && facts.exerciseNames["bench press"] == "Bench press")
        let all = try reopened.importFacts(since: 0, until: USec(Int64.max))
        #expect(all.importedKeys.count == 2 && all.ownSets.count == 3)

        // The same key again is refused whole: no set is imported twice.
        let again = set(102, "Squat", at: dayStart + 10 * hour)
        #expect(throws: StoreError.self) {
            try reopened.commit([], history: [.setImported(again, importKey: "hevy\u{1F}a\u{1F}squat\u{1F}2")])
        }
        #expect(try reopened.sets(since: 0, until: .max / 2, exerciseKey: "", limit: 10).rows.count == 5)
    }

    @Test func aWarmupIsNoRecord() throws {
        let state = try TempDirectory(prefix: "restd-store")
        let store = try StateStore.open(directory: state.path, now: now).store
        try store.commit(
            [],
            history: [
                .setImported(set(1, "Squat", at: now - 2 * hour, reps: 12, kg: 150, warmup: true), importKey: "k1"),
                .setImported(set(2, "Squat", at: now - hour, reps: 5, kg: 100), importKey: "k2"),
            ])
        let facts = try store.facts(try ExerciseName(parsing: "squat"), dayStartUSec: 0, weightKg: 150)
        #expect(facts.bests.heaviestKg == 100)
        let estimate: Double = 100 * (1 + 5 / 30.0)
        #expect(facts.bests.bestEstimateKg == estimate)
        #expect(facts.bests.mostRepsAtWeight == nil)
    }

    @Test func aTimersLastSetAndSetsInARowGoByTime() throws {
        let state = try TempDirectory(prefix: "restd-store")
        let store = try StateStore.open(directory: state.path, now: now).store
        let dayStart = LocalCalendar.startOfDay(containing: now)
        // restd's own squat at 10:00 (id 1); then an import brings a bench set of 09:00 (id 2)
        // and, on the import timer, an older set of the next id (3).
        try store.commit([], history: [.setRecorded(set(1, "Squat", at: dayStart + 10 * hour, timer: "default"))])
        try store.commit(
            [],
            history: [
                .setImported(set(2, "Bench", at: dayStart + 9 * hour), importKey: "k2"),
                .setImported(set(3, "Row", at: dayStart + 8 * hour), importKey: "k3"),
            ])
        // The bench set came before the squat: the squat's row goes on.
        let squat = try store.facts(try ExerciseName(parsing: "Squat"), dayStartUSec: dayStart, weightKg: nil)
        #expect(squat.setsInARow == 1)
        #expect(squat.previousReps == 5 && squat.previousWeightKg == 100)
        #expect(try store.lastExercise(timer: HistoryImport.timerID) == "Bench")
        #expect(try store.lastExercise(timer: .default) == "Squat")
    }

    @Test func aDeletedImportedSetKeepsItsKeyAndAnImportedCategoryNeverOverwrites() throws {
        let state = try TempDirectory(prefix: "restd-store")
        let store = try migratedStore(state)
        let dayStart = LocalCalendar.startOfDay(containing: now)
        let day = (since: dayStart, until: dayStart + 24 * hour)
        let squat = set(100, "Squat", at: dayStart + 9 * hour)
        try store.commit(
            [],
            history: [
                .setImported(squat, importKey: "fitnotes\u{1F}d\u{1F}squat\u{1F}1"),
                .setImported(
                    set(101, "Sqaut", at: dayStart + 9 * hour + 1), importKey: "fitnotes\u{1F}d\u{1F}sqaut\u{1F}1"),
                .categoryImported(exerciseKey: "squat", category: "Legs"),
                .categoryImported(exerciseKey: "sqaut", category: "Quads"),
                .categoryImported(exerciseKey: "nothing here", category: "Arms"),
            ])
        try store.commit([], history: [.categoryImported(exerciseKey: "squat", category: "Lower body")])
        func category(_ key: String) throws -> String?? {
            try store.exercises().first { $0.key == key }.map(\.category)
        }
        #expect(try category("squat") == "Legs")
        #expect(try category("nothing here") == nil)
        // A rename keeps the category of the exercise it merges into.
        try store.commit([], history: [.exerciseRenamed(fromKey: "sqaut", to: "Squat", toKey: "squat")])
        #expect(try category("squat") == "Legs")

        try store.commit([], history: [.setsDeleted([squat])])
        #expect(try store.sets(since: day.since, until: day.until, exerciseKey: "squat", limit: 10).rows.count == 1)
        #expect(try store.importFacts(since: day.since, until: day.until).importedKeys.count == 2)
        // Outside the window asked about, and once pruned with the sets, the key is gone.
        #expect(try store.importFacts(since: day.until, until: day.until + hour).importedKeys.isEmpty)
        try store.commit([], history: [], pruneBeforeUSec: day.until)
        #expect(try store.importFacts(since: 0, until: USec(Int64.max)).importedKeys.isEmpty)
        try store.close()
        let reopened = try StateStore.open(directory: state.path, now: now).store
        #expect(try reopened.importFacts(since: 0, until: USec(Int64.max)).importedKeys.isEmpty)
    }
}
