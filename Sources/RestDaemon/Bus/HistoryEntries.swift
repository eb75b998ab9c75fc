import DBusKit
import RestCore
import RestProtocol

/// Sets, rests, exercises and stats as the `a{sv}` entries of io.restd.Rest1.History (keys in
/// `HistoryKey`). Optional values are left out rather than sent as a made-up zero.
enum HistoryEntries {
    static func set(_ set: SetRecord) -> [String: DBusValue] {
        var entry: [String: DBusValue] = [
            HistoryKey.id: .int64(set.id), HistoryKey.timer: .string(set.timerID.rawValue),
            HistoryKey.atUSec: .uint64(set.atUSec), HistoryKey.exercise: .string(set.exercise),
            HistoryKey.failed: .boolean(set.failed),
        ]
        if let reps = set.reps { entry[HistoryKey.reps] = .uint32(reps) }
        if let kg = set.weightKg { entry[HistoryKey.weightKg] = .double(kg) }
        return entry
    }

    /// A set with the rest that followed it (its keys prefixed `rest_`).
    static func set(_ row: HistorySetRow) -> [String: DBusValue] {
        var entry = set(row.set)
        if let rest = row.rest {
            for (key, value) in self.rest(rest, withSetFields: false) { entry[HistoryKey.restPrefix + key] = value }
        }
        return entry
    }

    /// The rest a set just started, as SetRecorded carries it.
    static func restStarted(_ set: PlannedSet) -> [String: DBusValue] {
        [HistoryKey.plannedUSec: .uint64(set.rest.usec), HistoryKey.source: .string(set.rest.sourceText),
         HistoryKey.outcome: .string(HistoryKey.openOutcome)]
    }

    static func rest(_ rest: RestRecord, withSetFields: Bool = true) -> [String: DBusValue] {
        var entry: [String: DBusValue] = [
            HistoryKey.plannedUSec: .uint64(rest.plannedUSec), HistoryKey.adjustUSec: .int64(rest.adjustUSec),
            HistoryKey.pausedUSec: .uint64(rest.pausedUSec), HistoryKey.source: .string(rest.source),
            HistoryKey.outcome: .string(rest.outcome?.rawValue ?? HistoryKey.openOutcome),
        ]
        if rest.outcome != nil {
            entry[HistoryKey.endedAtUSec] = .uint64(rest.endedAtUSec)
            entry[HistoryKey.takenUSec] = .uint64(rest.takenUSec)
        }
        if withSetFields {
            entry[HistoryKey.setID] = .int64(rest.setID)
            entry[HistoryKey.timer] = .string(rest.timerID.rawValue)
            entry[HistoryKey.exercise] = .string(rest.exercise)
            entry[HistoryKey.startedAtUSec] = .uint64(rest.startedAtUSec)
            entry[HistoryKey.rrMS] = .array(.uint16, rest.rrIntervalsMS.map { .uint16($0) })
        }
        return entry
    }

    static func stats(_ stats: ExerciseStats) -> [String: DBusValue] {
        var entry: [String: DBusValue] = [
            HistoryKey.exercise: .string(stats.exercise), HistoryKey.sets: .uint32(UInt32(clamping: stats.sets)),
            HistoryKey.rests: .uint32(UInt32(clamping: stats.rests)), HistoryKey.skipped: .uint32(UInt32(clamping: stats.skipped)),
        ]
        if let planned = stats.medianPlannedUSec { entry[HistoryKey.medianPlannedUSec] = .uint64(planned) }
        if let taken = stats.medianTakenUSec { entry[HistoryKey.medianTakenUSec] = .uint64(taken) }
        if let overrun = stats.medianOverrunUSec { entry[HistoryKey.medianOverrunUSec] = .int64(overrun) }
        return entry
    }
}
