import DBusKit
import RestClient
import RestCore
import RestProtocol
import SeededRandom
import Testing

@testable import RestDaemon

/// SetRows' structures against Sets' dictionaries (the general form): for random sets — with and
/// without reps, weight and a rest, reps and weight 0, open and ended rests, recoveries with some
/// metrics unknown — reading a row by the rules of `SetRow` gives exactly the set's entry.
@Suite("History: SetRows carries what Sets does")
struct SetRowTests {
    @Test("the row type is SetRow.signature")
    func signature() {
        #expect(HistoryEntries.setRowType.signature == SetRow.signature)
    }

    @Test("300 random sets: each row, read by SetRow's rules, is the set's entry in Sets")
    func rowsMatchEntries() throws {
        var random = SplitMix64(state: 26)
        for index in 0..<300 {
            let row = try Self.randomRow(&random, id: Int64(index))
            let structure = HistoryEntries.row(row)
            #expect(structure.type == HistoryEntries.setRowType)
            let entry = Dictionary(uniqueKeysWithValues: HistoryEntries.set(row).map { ($0.key, $0.value) })
            #expect(Self.entry(ofRow: structure) == entry, "\(row)")
        }
    }

    /// restctl's reading of a row (`HistorySet(row:)`) and of an entry of Sets give the same set,
    /// for the same 300 random sets.
    @Test("300 random sets: the client reads each row as the set's entry in Sets")
    func clientReadsRowsAsEntries() throws {
        var random = SplitMix64(state: 26)
        for index in 0..<300 {
            let row = try Self.randomRow(&random, id: Int64(index))
            let entry = Dictionary(uniqueKeysWithValues: HistoryEntries.set(row).map { ($0.key, $0.value) })
            #expect(try HistorySet(row: HistoryEntries.row(row)) == HistorySet(entry: entry), "\(row)")
        }
    }

    /// The keys and values of Sets that `row` stands for, as its documentation reads; nil when
    /// a column it leaves out is not the zero it documents.
    static func entry(ofRow row: DBusValue) -> [String: DBusValue]? {
        guard case .structure(let columns) = row, columns.count == 15, let others = columns[14].vardictEntries
        else { return nil }
        let keys = [
            HistoryKey.id, HistoryKey.timer, HistoryKey.atUSec, HistoryKey.exercise, HistoryKey.reps,
            HistoryKey.weightKg, HistoryKey.failed,
        ]
        let restKeys = [
            HistoryKey.plannedUSec, HistoryKey.adjustUSec, HistoryKey.pausedUSec, HistoryKey.source,
            HistoryKey.outcome, HistoryKey.takenUSec, HistoryKey.endedAtUSec,
        ].map { HistoryKey.restPrefix + $0 }
        var entry = others
        for (key, value) in zip(keys + restKeys, columns) { entry[key] = value }
        if entry[HistoryKey.reps] == .uint32(SetRow.noReps) { entry[HistoryKey.reps] = nil }
        if entry[HistoryKey.weightKg]?.double?.isNaN == true { entry[HistoryKey.weightKg] = nil }
        let outcome = entry[HistoryKey.restPrefix + HistoryKey.outcome]?.string
        let zeros: [DBusValue] = [.uint64(0), .int64(0), .uint64(0), .string(""), .string(""), .uint64(0), .uint64(0)]
        if outcome == "" {
            // No rest: every rest column its zero, and nothing else.
            guard Array(columns[7..<14]) == zeros, others.isEmpty else { return nil }
            for key in restKeys { entry[key] = nil }
        }
        if outcome == HistoryKey.openOutcome {
            guard columns[12] == .uint64(0), columns[13] == .uint64(0) else { return nil }
            entry[HistoryKey.restPrefix + HistoryKey.takenUSec] = nil
            entry[HistoryKey.restPrefix + HistoryKey.endedAtUSec] = nil
        }
        return entry
    }

    static func randomRow(_ random: inout SplitMix64, id: Int64) throws -> HistorySetRow {
        func maybe<T>(_ value: T) -> T? { Bool.random(using: &random) ? value : nil }
        let at = UInt64.random(in: 1_700_000_000_000_000...1_800_000_000_000_000, using: &random)
        let set = SetRecord(
            id: id, timerID: try TimerID(parsing: ["default", "left", "b-2"].randomElement(using: &random)!),
            atUSec: at, exercise: ["Squat", "Bench press", "Rows é"].randomElement(using: &random)!,
            exerciseKey: "squat", reps: maybe(UInt32.random(in: 0...12, using: &random) % 11),
            weightKg: maybe([0, 20, 102.5].randomElement(using: &random)!), failed: Bool.random(using: &random))
        guard Bool.random(using: &random) || id == 0 else { return HistorySetRow(set: set, rest: nil) }
        let outcome = maybe(RestOutcome.allCases.randomElement(using: &random)!)
        let recovery = maybe(
            RecoveryMetrics(
                setEndBPM: maybe(150), peakBPM: maybe(155.5), peakAfterUSec: maybe(4_000_000), bpmAfter30s: maybe(140),
                bpmAfter60s: maybe(.nan), hrr60BPM: maybe(30), timeToTargetUSec: maybe(61_000_000),
                minimumBPM: maybe(99), coverage: maybe(0.75), rmssdMilliseconds: maybe(41.2),
                rmssdBeats: Int.random(in: 0...90, using: &random), rmssdRejectedShare: maybe(0.01)))
        let rest = RestRecord(
            setID: id, timerID: set.timerID, exercise: set.exercise, exerciseKey: set.exerciseKey,
            startedAtUSec: at, plannedUSec: UInt64.random(in: 1_000_000...600_000_000, using: &random),
            source: ["default", "given", "last_used+failed_extra"].randomElement(using: &random)!,
            adjustUSec: Int64.random(in: -60_000_000...60_000_000, using: &random),
            pausedUSec: UInt64.random(in: 0...10_000_000, using: &random), outcome: outcome,
            endedAtUSec: outcome == nil ? 0 : at + 90_000_000, takenUSec: outcome == nil ? 0 : 90_000_000,
            recovery: recovery)
        return HistorySetRow(set: set, rest: rest)
    }
}
