import DBusKit
import RestCore
import RestProtocol

/// Sets, rests and stats as the `a{sv}` entries of io.restd.Rest1.History (keys in
/// `HistoryKey`), and sets as SetRows' structures (`SetRow`). Optional values are left out of an
/// entry rather than sent as a made-up zero; a row sends the value no set has. Entries are
/// built as key–value lists in a fixed order, not Swift dictionaries, and a page of them is
/// written into the reply pair by pair (`MethodReply.records`): a week of sets is thousands of
/// entries, and hashing and sorting each one's keys, then boxing them into a `DBusValue` tree,
/// was most of a reply's cost.
enum HistoryEntries {
    typealias Fields = [(key: String, value: DBusValue)]

    /// An `a{sv}` of `fields`, in their order.
    static func dictionary(_ fields: Fields) -> DBusValue {
        .dictionary(
            key: .string, value: .variant, fields.map { DBusValue.DictEntry(.string($0.key), .variant($0.value)) })
    }

    static func set(_ set: SetRecord) -> Fields {
        var fields: Fields = [
            (HistoryKey.id, .int64(set.id)), (HistoryKey.timer, .string(set.timerID.rawValue)),
            (HistoryKey.atUSec, .uint64(set.atUSec)), (HistoryKey.exercise, .string(set.exercise)),
            (HistoryKey.failed, .boolean(set.failed)),
        ]
        if let reps = set.reps { fields.append((HistoryKey.reps, .uint32(reps))) }
        if let kg = set.weightKg { fields.append((HistoryKey.weightKg, .double(kg))) }
        if set.warmup { fields.append((HistoryKey.warmup, .boolean(true))) }
        return fields
    }

    /// A set with the rest that followed it (its keys prefixed `rest_`).
    static func set(_ row: HistorySetRow) -> Fields {
        var fields = set(row.set)
        if let rest = row.rest { fields += prefixed(self.rest(rest, withSetFields: false)) }
        return fields
    }

    /// The element type of SetRows (`SetRow.signature`).
    static let setRowType = DBusType.structure([
        .int64, .string, .uint64, .string, .uint32, .double, .boolean,
        .uint64, .int64, .uint64, .string, .string, .uint64, .uint64, BusArguments.optionsType,
    ])

    /// A set with the rest that followed it as SetRows' structure: the values of `set(_:)` in
    /// fixed columns, each one it leaves out as `SetRow`'s "none", the recovery in the last column.
    static func row(_ row: HistorySetRow) -> DBusValue {
        let set = row.set
        let reps = DBusValue.uint32(set.reps ?? SetRow.noReps)
        let weight = DBusValue.double(set.weightKg ?? .nan)
        // Each row's columns in one literal: appending a second list cost as much as the rest.
        guard let rest = row.rest else {
            return .structure([
                .int64(set.id), .string(set.timerID.rawValue), .uint64(set.atUSec), .string(set.exercise), reps, weight,
                .boolean(set.failed), .uint64(0), .int64(0), .uint64(0), .string(""), .string(""), .uint64(0),
                .uint64(0), set.warmup ? warmupKey : noOtherKeys,
            ])
        }
        let ended = rest.outcome != nil
        return .structure([
            .int64(set.id), .string(set.timerID.rawValue), .uint64(set.atUSec), .string(set.exercise), reps, weight,
            .boolean(set.failed), .uint64(rest.finalUSec(limits: .standard)), .int64(rest.adjustUSec),
            .uint64(rest.pausedUSec), .string(rest.source), .string(rest.outcome?.rawValue ?? HistoryKey.openOutcome),
            .uint64(ended ? rest.takenUSec : 0), .uint64(ended ? rest.endedAtUSec : 0),
            rest.recovery.map { dictionary(prefixed(recovery($0))) } ?? noOtherKeys,
        ])
    }

    private static let noOtherKeys = dictionary([])
    /// An imported warm-up's other keys (it has no rest, nor its recovery).
    private static let warmupKey = dictionary([(HistoryKey.warmup, .boolean(true))])

    /// SetRecorded's entry: the set, the rest it just started, and the records it beat.
    static func recorded(_ set: PlannedSet) -> DBusValue {
        dictionary(
            self.set(set.record)
                + prefixed([
                    (HistoryKey.plannedUSec, .uint64(set.rest.usec)), (HistoryKey.source, .string(set.rest.sourceText)),
                    (HistoryKey.outcome, .string(HistoryKey.openOutcome)),
                ]) + records(set.records))
    }

    /// Each record beaten, with the best it beat (`HistoryKey.recordHeaviestWasKg` and after).
    static func records(_ records: [PersonalRecord]) -> Fields {
        records.flatMap { record -> Fields in
            switch record {
            case .heaviest(_, let was): [(HistoryKey.recordHeaviestWasKg, .double(was))]
            case .mostReps(_, _, let was): [(HistoryKey.recordRepsWas, .uint32(was))]
            case .estimatedMax(let kg, let was):
                [(HistoryKey.recordEstimateKg, .double(kg)), (HistoryKey.recordEstimateWasKg, .double(was))]
            }
        }
    }

    static func rest(_ rest: RestRecord) -> Fields { self.rest(rest, withSetFields: true) }

    /// `planned_usec` is the rest the timer ran with, after add and sub (`adjust_usec`), as in
    /// Stats and restctl's JSON and CSV: "planned" means one thing everywhere.
    private static func rest(_ rest: RestRecord, withSetFields: Bool) -> Fields {
        var fields: Fields = [
            (HistoryKey.plannedUSec, .uint64(rest.finalUSec(limits: .standard))),
            (HistoryKey.adjustUSec, .int64(rest.adjustUSec)),
            (HistoryKey.pausedUSec, .uint64(rest.pausedUSec)), (HistoryKey.source, .string(rest.source)),
            (HistoryKey.outcome, .string(rest.outcome?.rawValue ?? HistoryKey.openOutcome)),
        ]
        if rest.outcome != nil {
            fields.append((HistoryKey.endedAtUSec, .uint64(rest.endedAtUSec)))
            fields.append((HistoryKey.takenUSec, .uint64(rest.takenUSec)))
        }
        if let recovery = rest.recovery { fields += self.recovery(recovery) }
        if withSetFields {
            fields += [
                (HistoryKey.setID, .int64(rest.setID)), (HistoryKey.timer, .string(rest.timerID.rawValue)),
                (HistoryKey.exercise, .string(rest.exercise)), (HistoryKey.startedAtUSec, .uint64(rest.startedAtUSec)),
                (HistoryKey.rrMS, .array(.uint16, rest.rrIntervalsMS.map { .uint16($0) })),
            ]
        }
        return fields
    }

    /// A rest's recovery: each metric the data give, none made up (`rmssd_beats` always).
    private static func recovery(_ metrics: RecoveryMetrics) -> Fields {
        var fields: Fields = []
        func bpm(_ key: String, _ value: Double?) {
            if let value, value.isFinite { fields.append((key, .double(value))) }
        }
        bpm(HistoryKey.hrSetEnd, metrics.setEndBPM)
        bpm(HistoryKey.hrPeak, metrics.peakBPM)
        bpm(HistoryKey.hr30s, metrics.bpmAfter30s)
        bpm(HistoryKey.hr60s, metrics.bpmAfter60s)
        bpm(HistoryKey.hr120s, metrics.bpmAfter120s)
        bpm(HistoryKey.hrr60, metrics.hrr60BPM)
        if let time = metrics.timeToTargetUSec { fields.append((HistoryKey.timeToTargetUSec, .uint64(time))) }
        if let time = metrics.peakAfterUSec { fields.append((HistoryKey.hrPeakAfterUSec, .uint64(time))) }
        bpm(HistoryKey.hrMin, metrics.minimumBPM)
        bpm(HistoryKey.hrCoverage, metrics.coverage)
        bpm(HistoryKey.rmssdMS, metrics.rmssdMilliseconds)
        fields.append((HistoryKey.rmssdBeats, .uint32(UInt32(clamping: metrics.rmssdBeats))))
        bpm(HistoryKey.rmssdRejected, metrics.rmssdRejectedShare)
        return fields
    }

    /// A followed rest's heart rate (HeartRates), the target left out when it had none.
    static func heartRate(_ trace: HeartRateTrace) -> Fields {
        var fields: Fields = [
            (HistoryKey.setID, .int64(trace.setID)), (HistoryKey.startedAtUSec, .uint64(trace.startedAtUSec)),
            (HistoryKey.bpm, .array(.byte, trace.bpm.map { .byte($0) })),
            (HistoryKey.minimumUSec, .uint64(trace.minimumUSec)), (HistoryKey.holdUSec, .uint64(trace.holdUSec)),
            (HistoryKey.endedAfterUSec, .uint64(trace.endedAfterUSec)),
            (HistoryKey.ending, .string(trace.ending.rawValue)),
        ]
        if let target = trace.targetBPM, target.isFinite { fields.append((HistoryKey.targetBPM, .double(target))) }
        return fields
    }

    private static func prefixed(_ fields: Fields) -> Fields {
        fields.map { (HistoryKey.restPrefix + $0.key, $0.value) }
    }

    static func stats(_ stats: ExerciseStats) -> Fields {
        var fields: Fields = [
            (HistoryKey.exercise, .string(stats.exercise)), (HistoryKey.sets, .uint32(UInt32(clamping: stats.sets))),
            (HistoryKey.rests, .uint32(UInt32(clamping: stats.rests))),
            (HistoryKey.skipped, .uint32(UInt32(clamping: stats.skipped))),
        ]
        if let planned = stats.medianPlannedUSec { fields.append((HistoryKey.medianPlannedUSec, .uint64(planned))) }
        if let taken = stats.medianTakenUSec { fields.append((HistoryKey.medianTakenUSec, .uint64(taken))) }
        if let overrun = stats.medianOverrunUSec { fields.append((HistoryKey.medianOverrunUSec, .int64(overrun))) }
        if stats.recoveryRests > 0 {
            fields.append((HistoryKey.recoveryRests, .uint32(UInt32(clamping: stats.recoveryRests))))
            if let time = stats.medianTimeToTargetUSec {
                fields.append((HistoryKey.medianTimeToTargetUSec, .uint64(time)))
            }
            let weeks = stats.hrr60Weeks.map { week in
                dictionary([
                    (HistoryKey.weekStartAtUSec, .uint64(week.weekStartAtUSec)),
                    (HistoryKey.medianHRR60, .double(week.medianBPM)),
                    (HistoryKey.rests, .uint32(UInt32(clamping: week.rests))),
                ])
            }
            fields.append((HistoryKey.hrr60Weeks, .array(.dictionary(key: .string, value: .variant), weeks)))
        }
        return fields
    }
}
