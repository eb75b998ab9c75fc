import DBusKit
import Localization
import RestCore
import RestProtocol

/// A set Undo or DeleteSets removed.
public struct RemovedSet: Sendable {
    public var set: HistorySet
    /// Its rest was still on its timer, and was cancelled with it.
    public var cancelledRest: Bool
    /// It was the workout's last set: the workout is at that set again.
    public var workoutBack: Bool

    init(entry: [String: DBusValue]) throws(ClientError) {
        set = try HistorySet(entry: entry)
        cancelledRest = entry[HistoryKey.cancelledRest]?.unwrapped.bool ?? false
        workoutBack = entry[HistoryKey.workoutBack]?.unwrapped.bool ?? false
    }

    /// "removed Squat 5×1000 kg (set 12, 2026-12-07 18:02), and its rest", weights in `unit`.
    public func line(unit: WeightUnit) -> String {
        let work = HistoryFormat.work(set, unit: unit)
        var line = localized(
            // TRANSLATORS: restctl undo and history delete: "removed Squat 5×100 kg (set 12, 2026-12-07 18:02)".
            "removed %1$s (set %2$d, %3$s)", set.exercise + (work.isEmpty ? "" : " " + work), set.id,
            TimeFormat.localMinute(usec: set.atUSec))
        // TRANSLATORS: after "removed … (set 12, …)" when the set's rest was still running.
        if cancelledRest { line += localized(", and its rest") }
        // TRANSLATORS: after "removed … (set 12, …)" when it was the workout's last set.
        if workoutBack { line += localized("; the workout is back at that set") }
        return line
    }
}

extension RestdClient {
    /// Takes back the last set recorded.
    public func undo() throws(ClientError) -> RemovedSet {
        let reply = try call(
            path: RestBus.historyPath, interface: RestBus.historyInterface, member: HistoryMember.undo, [])
        guard let entry = reply.first?.vardictEntries else { throw .badReply("Undo returned no set") }
        return try RemovedSet(entry: entry)
    }

    /// Removes sets by id, all or none.
    public func deleteSets(_ ids: [Int64]) throws(ClientError) -> [RemovedSet] {
        let entries = try callForRecords(
            path: RestBus.historyPath, interface: RestBus.historyInterface, member: HistoryMember.deleteSets,
            [.array(.int64, ids.map { .int64($0) })])
        var removed: [RemovedSet] = []
        for entry in entries { removed.append(try RemovedSet(entry: entry)) }
        return removed
    }

    /// Changes a set; nil leaves a value as it is. Returns the set as it is now.
    public func editSet(
        id: Int64, exercise: String?, reps: UInt32?, weightKg: Double?, failed: Bool?
    ) throws(ClientError) -> HistorySet {
        var changes: [String: DBusValue] = [:]
        if let exercise { changes[HistoryKey.exercise] = .string(exercise) }
        if let reps { changes[SetOption.reps] = .uint32(reps) }
        if let weightKg { changes[SetOption.weightKg] = .double(weightKg) }
        if let failed { changes[SetOption.failed] = .boolean(failed) }
        let reply = try call(
            path: RestBus.historyPath, interface: RestBus.historyInterface, member: HistoryMember.editSet,
            [.int64(id), .vardict(changes)])
        guard let entry = reply.first?.vardictEntries else { throw .badReply("EditSet returned no set") }
        return try HistorySet(entry: entry)
    }

    /// Renames an exercise across the history: the name its sets now have, and how many.
    public func renameExercise(from: String, to: String) throws(ClientError) -> (exercise: String, sets: UInt32) {
        let reply = try call(
            path: RestBus.historyPath, interface: RestBus.historyInterface, member: HistoryMember.renameExercise,
            [.string(from), .string(to)])
        guard reply.count == 2, let name = reply[0].string, case .uint32(let count) = reply[1] else {
            throw .badReply("RenameExercise returned no (s, u)")
        }
        return (name, count)
    }
}

extension HistoryFormat {
    /// "set 12 is now Squat 5×100 kg failed": what `restctl history edit` says the set became.
    public static func edited(_ set: HistorySet, unit: WeightUnit) -> String {
        let work = work(set, unit: unit)
        return localized("set %1$d is now %2$s", set.id, set.exercise + (work.isEmpty ? "" : " " + work))
    }

    /// "renamed 3 sets to Squat": what `restctl history rename` did.
    public static func renamed(sets: UInt32, to exercise: String) -> String {
        localizedPlural("renamed %1$d set to %2$s", "renamed %1$d sets to %2$s", count: Int(sets), sets, exercise)
    }
}
