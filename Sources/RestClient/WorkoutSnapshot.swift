import DBusKit
import Localization
import RestCore
import RestProtocol

/// The workout object's properties as restctl shows them (`restctl workout status`).
public struct WorkoutSnapshot: Sendable, Equatable {
    public struct Summary: Sendable, Equatable {
        public var name: String
        public var startedAtUSec: UInt64
        public var endedAtUSec: UInt64
        public var durationUSec: UInt64
        public var setsDone: UInt32
        public var setsPlanned: UInt32
        public var volumeKg: Double
        public var totalRestUSec: UInt64
        public var medianRestUSec: UInt64
        public var abandoned: Bool
    }

    public var active: Bool
    public var name: String
    public var exercise: String
    public var setIndex: UInt32
    /// The current exercise's sets, from the plan (0 when none).
    public var exerciseSets: UInt32
    /// The plan's exercises, in its order.
    public var planExercises: [String]
    public var setsPlanned: UInt32
    public var setsDone: UInt32
    public var startedAtUSec: UInt64
    /// The last workout that ended, nil when none has.
    public var summary: Summary?

    init(properties: [String: DBusValue]) throws(ClientError) {
        func value(_ name: String) throws(ClientError) -> DBusValue {
            guard let value = properties[name]?.unwrapped else { throw .badReply("the workout has no \(name)") }
            return value
        }
        active = try value(WorkoutProperty.active).bool ?? false
        name = try value(WorkoutProperty.name).string ?? ""
        let exercise = try value(WorkoutProperty.exercise).string ?? ""
        self.exercise = exercise
        setIndex = uint32(try value(WorkoutProperty.setIndex))
        setsPlanned = uint32(try value(WorkoutProperty.setsPlanned))
        setsDone = uint32(try value(WorkoutProperty.setsDone))
        startedAtUSec = try value(WorkoutProperty.startedAtUSec).uint64 ?? 0
        let plan = try value(WorkoutProperty.plan).arrayElements?.compactMap(\.vardictEntries) ?? []
        planExercises = plan.compactMap { $0[WorkoutKey.name]?.unwrapped.string }
        let current = plan.first { $0[WorkoutKey.name]?.unwrapped.string == exercise }
        exerciseSets = uint32(current?[WorkoutKey.sets])
        summary = Self.summary(try value(WorkoutProperty.summary).vardictEntries ?? [:])
    }

    static func summary(_ entries: [String: DBusValue]) -> Summary? {
        guard !entries.isEmpty else { return nil }
        func usec(_ key: String) -> UInt64 { entries[key]?.unwrapped.uint64 ?? 0 }
        func count(_ key: String) -> UInt32 { uint32(entries[key]) }
        return Summary(
            name: entries[HistoryKey.name]?.unwrapped.string ?? "", startedAtUSec: usec(WorkoutKey.startedAtUSec),
            endedAtUSec: usec(WorkoutKey.endedAtUSec), durationUSec: usec(WorkoutKey.durationUSec),
            setsDone: count(WorkoutKey.setsDone), setsPlanned: count(WorkoutKey.setsPlanned),
            volumeKg: entries[WorkoutKey.volumeKg]?.unwrapped.double ?? 0,
            totalRestUSec: usec(WorkoutKey.totalRestUSec), medianRestUSec: usec(WorkoutKey.medianRestUSec),
            abandoned: entries[WorkoutKey.abandoned]?.unwrapped.bool ?? false)
    }

    /// One line: the workout in progress, else the last one's summary (its volume in `unit`),
    /// else that there is none.
    public func line(unit: WeightUnit) -> String {
        if active {
            return exerciseSets > 0
                ? localizedPlural(
                    // TRANSLATORS: restctl workout status: "Push day: Dip, set 2 of 3 — 5/14 sets done".
                    "%1$s: %2$s, set %3$d of %4$d — %5$d/%6$d set done",
                    "%1$s: %2$s, set %3$d of %4$d — %5$d/%6$d sets done", count: Int(setsPlanned), name, exercise,
                    setIndex, exerciseSets, setsDone, setsPlanned)
                : localizedPlural(
                    "%1$s: %2$s, set %3$d — %4$d/%5$d set done", "%1$s: %2$s, set %3$d — %4$d/%5$d sets done",
                    count: Int(setsPlanned), name, exercise, setIndex, setsDone, setsPlanned)
        }
        guard let summary else { return localized("no workout in progress") }
        return summary.line(unit: unit)
    }

    /// `{"active":true,"name":"Push day","exercise":"Dip","set_index":2,"exercise_sets":3,
    /// "sets_done":5,"sets_planned":14,"started_at":"…","summary":{…}|null}`; without a workout
    /// in progress every key but `active` and `summary` is null.
    public func json(unit: WeightUnit) -> String {
        var object = JSONObject()
        object.bool("active", active)
        object.text("name", active ? name : nil)
        object.text("exercise", active ? exercise : nil)
        object.integer("set_index", active ? setIndex : nil)
        object.integer("exercise_sets", active && exerciseSets > 0 ? exerciseSets : nil)
        object.integer("sets_done", active ? setsDone : nil)
        object.integer("sets_planned", active ? setsPlanned : nil)
        object.instant("started_at", usec: active ? startedAtUSec : nil)
        object.raw("summary", summary?.jsonObject(unit: unit).text)
        return object.text
    }
}

extension WorkoutSnapshot.Summary {
    /// "Push day done: 5/14 sets in 14 min 2 s, volume 1400 kg, rest 7 min 40 s total, median
    /// 3 min": durations with their units, as "in 0:14" could be read as minutes; the volume in
    /// `unit`.
    public func line(unit: WeightUnit) -> String {
        let volume = Weight.text(kilograms: volumeKg, in: unit, catalog: .installed, tenths: true)
        func duration(_ usec: UInt64) -> String {
            DurationText.readable(usec - usec % 1_000_000, roundingDown: true)
        }
        let (time, rest, median) = (duration(durationUSec), duration(totalRestUSec), duration(medianRestUSec))
        return abandoned
            ? localizedPlural(
                // TRANSLATORS: restctl workout status and end, the summary of a workout restd ended
                // because its person had left it (abandoned).
                "%1$s abandoned: %2$d/%3$d set in %4$s, volume %5$s, rest %6$s total, median %7$s",
                "%1$s abandoned: %2$d/%3$d sets in %4$s, volume %5$s, rest %6$s total, median %7$s",
                count: Int(setsPlanned), name, setsDone, setsPlanned, time, volume, rest, median)
            : localizedPlural(
                // TRANSLATORS: restctl workout status and end, a workout's summary.
                "%1$s done: %2$d/%3$d set in %4$s, volume %5$s, rest %6$s total, median %7$s",
                "%1$s done: %2$d/%3$d sets in %4$s, volume %5$s, rest %6$s total, median %7$s",
                count: Int(setsPlanned), name, setsDone, setsPlanned, time, volume, rest, median)
    }

    /// The last workout's summary: `rest_taken` is of the rests that ended during it; in pounds
    /// (`unit` lb), `volume_lb` follows `volume_kg`, as `weight_lb` follows `weight_kg` in the history.
    public func jsonObject(unit: WeightUnit) -> JSONObject {
        var object = JSONObject()
        object.text("name", name)
        object.instant("started_at", usec: startedAtUSec)
        object.instant("ended_at", usec: endedAtUSec)
        object.duration("duration_usec", usec: durationUSec)
        object.integer("sets_done", setsDone)
        object.integer("sets_planned", setsPlanned)
        object.number("volume_kg", volumeKg)
        if unit == .lb { object.number("volume_lb", Weight.amount(kilograms: volumeKg, in: .lb)) }
        object.duration("total_rest_taken_usec", usec: totalRestUSec)
        object.duration("median_rest_taken_usec", usec: medianRestUSec)
        object.bool("abandoned", abandoned)
        return object
    }
}

/// A `u`, or 0.
private func uint32(_ value: DBusValue?) -> UInt32 {
    if case .uint32(let number)? = value?.unwrapped { number } else { 0 }
}

extension RestdClient {
    /// Workout.Start with an absolute path to a plan file, or its TOML text.
    public func startWorkout(_ planTOMLOrPath: String) throws(ClientError) {
        _ = try callWorkout(WorkoutMember.start, [.string(planTOMLOrPath)])
    }

    /// Workout.Next, Previous or End.
    public func workout(_ member: String) throws(ClientError) { _ = try callWorkout(member, []) }

    public func workoutStatus() throws(ClientError) -> WorkoutSnapshot {
        let reply = try call(
            path: RestBus.workoutPath, interface: MessageBus.propertiesInterface, member: "GetAll",
            [.string(RestBus.workoutInterface)])
        guard let properties = reply.first?.vardictEntries else { throw .badReply("GetAll returned no dictionary") }
        return try WorkoutSnapshot(properties: properties)
    }

    /// The summaries of the workouts that ended in [since, until) (until 0: no end), oldest first.
    public func workoutSummaries(sinceUSec: UInt64, untilUSec: UInt64) throws(ClientError) -> [WorkoutSnapshot.Summary]
    {
        let reply = try call(
            path: RestBus.historyPath, interface: RestBus.historyInterface, member: HistoryMember.workouts,
            [.uint64(sinceUSec), .uint64(untilUSec), .uint32(0)])
        guard let entries = reply.first?.arrayElements else { throw .badReply("Workouts returned no array") }
        return entries.compactMap { $0.vardictEntries.flatMap(WorkoutSnapshot.summary) }
    }

    private func callWorkout(_ member: String, _ arguments: [DBusValue]) throws(ClientError) -> [DBusValue] {
        try call(path: RestBus.workoutPath, interface: RestBus.workoutInterface, member: member, arguments)
    }
}
