import Foundation
import ProcessHarness
import RestCore
import SQLiteKit
import Testing

@testable import RestDaemon

/// The followed rests' heart rate in state.sqlite (schema 7, `HeartRateSchema`): written with
/// its retention applied, read back by HeartRates, pruned with the history, and the migration
/// from the schema restd wrote before it (a file written by restd itself).
@Suite struct HeartRateStoreTests {
    /// 2023-11-14 22:13:20 UTC.
    let now: USec = 1_700_000_000_000_000
    let day: USec = 86_400_000_000

    func trace(_ setID: Int64, at startedAtUSec: USec, ending: HeartRateTrace.Ending = .recovered) -> HeartRateTrace {
        HeartRateTrace(
            setID: setID, startedAtUSec: startedAtUSec, bpm: [152, 150, 0, 141, 128, 119, 117],
            targetBPM: ending == .recovered ? 120 : nil, minimumUSec: 5_000_000, holdUSec: 2_000_000,
            endedAfterUSec: 6_400_000, ending: ending)
    }

    func traces(_ store: StateStore) throws -> [HeartRateTrace] {
        try store.heartRateTraces(since: 0, until: .max / 2, limit: 100).rows
    }

    @Test func aTraceIsWrittenAndReadBackWhole() throws {
        let state = try TempDirectory(prefix: "restd-store")
        let store = try StateStore.open(directory: state.path, now: now).store
        let kept = [trace(1, at: now - day), trace(2, at: now, ending: .sensorLost)]
        for trace in kept { try store.commit([], history: [.heartRateKept(trace, pruneBeforeUSec: 0)]) }
        #expect(try traces(store) == kept)
        // A window, and a limit that says more match.
        let page = try store.heartRateTraces(since: now - 1, until: now + 1, limit: 1)
        #expect(page.rows == [kept[1]] && !page.more)
        #expect(try store.heartRateTraces(since: 0, until: now + 1, limit: 1).more)
        // A rest followed again under the same set keeps its last trace.
        var again = kept[1]
        again.bpm = [99]
        try store.commit([], history: [.heartRateKept(again, pruneBeforeUSec: 0)])
        #expect(try traces(store) == [kept[0], again])
        try store.close()
        #expect(try traces(StateStore.open(directory: state.path, now: now).store) == [kept[0], again])
    }

    @Test func tracesOlderThanTheirRetentionGoWhenOneIsWrittenAndWithTheHistory() throws {
        let state = try TempDirectory(prefix: "restd-store")
        let store = try StateStore.open(directory: state.path, now: now).store
        try store.commit([], history: [.heartRateKept(trace(1, at: now - 40 * day), pruneBeforeUSec: 0)])
        try store.commit([], history: [.heartRateKept(trace(2, at: now - 20 * day), pruneBeforeUSec: 0)])
        // heart_rate_keep_days 30: the trace of 40 days ago goes with the next one written.
        try store.commit([], history: [.heartRateKept(trace(3, at: now), pruneBeforeUSec: now - 30 * day)])
        #expect(try traces(store).map(\.setID) == [2, 3])
        // The history's own pruning (keep_days, on a set's commit) takes them too.
        try store.commit([], history: [], pruneBeforeUSec: now - 10 * day)
        #expect(try traces(store).map(\.setID) == [3])
    }

    @Test func settingsKeepNoLongerThanTheHistoryNorAnyWithZeroDays() {
        var settings = TrainingSettings()
        #expect(settings.heartRateCutoffUSec(now: now) == now - 90 * day)
        settings.keepDays = 30
        #expect(settings.heartRateCutoffUSec(now: now) == now - 30 * day)
        settings.heartRateKeepDays = 0
        #expect(settings.heartRateCutoffUSec(now: now) == now)
    }

    /// A file restd wrote at schema 6, before heart rates were kept (Fixtures/README.md): it
    /// gains the table, keeps its sets and rests, and takes a trace.
    @Test func aVersion6FileWrittenByRestdIsMigrated() throws {
        let state = try TempDirectory(prefix: "restd-store")
        let path = state.path("state.sqlite")
        let here = #filePath
        try StoreFiles.copyFile(
            String(here[..<here.lastIndex(of: "/")!]) + "/Fixtures/schema6-restd-6c5ec37.sqlite", to: path)
        let before = try SQLiteDatabase(path: path, readOnly: true)
        #expect(try before.integer("PRAGMA user_version") == 6)
        try before.close()

        let (store, moved) = try StateStore.open(directory: state.path, now: now)
        #expect(moved.isEmpty && store.movedAsideReason == nil)
        let sets = try store.sets(since: 0, until: .max / 2, exerciseKey: "", limit: 10).rows
        #expect(sets.map(\.set.exercise) == ["Squat", "Squat", "Bench press"])
        #expect(sets.map { $0.rest?.outcome } == [.completed, .completed, .skipped])
        #expect(try traces(store).isEmpty)
        let kept = trace(sets[0].set.id, at: sets[0].set.atUSec)
        try store.commit([], history: [.heartRateKept(kept, pruneBeforeUSec: 0)])
        try store.close()

        let after = try SQLiteDatabase(path: path, readOnly: true)
        #expect(try after.integer("PRAGMA user_version") == Int64(StateStore.schemaVersion))
        try after.close()
        #expect(try traces(StateStore.open(directory: state.path, now: now).store) == [kept])
    }
}
