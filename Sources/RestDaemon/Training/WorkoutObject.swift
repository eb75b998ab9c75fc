import DBusKit
import RestCore
import RestProtocol

/// io.restd.Rest1.Workout at /io/restd/Rest1/workout: the workout in progress. Each method is a
/// `Command.workout`, carried out by `StateService.perform` like every change; a set of the
/// workout is Manager.CompleteSet with an empty exercise.
enum WorkoutObject {
    static let methods: [BusMethod<StateService>] = [
        BusMethod(WorkoutMember.start, in: [.init("plan_toml_or_path", .string)]) { service, call throws(DBusError) in
            let source: WorkoutPlanSource
            do throws(ConfigError) {
                source = try WorkoutPlanSource(call.arguments[0].string ?? "")
            } catch {
                throw DBusError(.invalidArgs, error.description)
            }
            try service.perform(.workout(.start(source.plan, text: source.text, source: source.path)))
            return []
        },
        BusMethod(WorkoutMember.next) { service, _ throws(DBusError) in
            try service.perform(.workout(.next))
            return []
        },
        BusMethod(WorkoutMember.previous) { service, _ throws(DBusError) in
            try service.perform(.workout(.previous))
            return []
        },
        BusMethod(WorkoutMember.end) { service, _ throws(DBusError) in
            try service.perform(.workout(.end))
            return []
        },
    ]

    static let interface = InterfaceDescription(
        name: RestBus.workoutInterface, methods: methods.map(\.description),
        properties: [
            .init(WorkoutProperty.active, .boolean),
            .init(WorkoutProperty.name, .string),
            .init(WorkoutProperty.exercise, .string),
            .init(WorkoutProperty.setIndex, .uint32),
            .init(WorkoutProperty.setsPlanned, .uint32),
            .init(WorkoutProperty.setsDone, .uint32),
            .init(WorkoutProperty.startedAtUSec, .uint64),
            .init(WorkoutProperty.plan, .array(BusArguments.optionsType)),
            .init(WorkoutProperty.summary, BusArguments.optionsType),
        ])

    static func make(service: StateService) -> ExportedInterface {
        ExportedInterface(
            interface, methods: methods, context: service,
            property: { name in properties(service.training.workout, lastSummary: service.lastWorkoutSummary)[name] })
    }

    /// Every property of the workout object for `workout` (nil: none in progress).
    static func properties(_ workout: ActiveWorkout?, lastSummary: WorkoutSummary?) -> [String: DBusValue] {
        let progress = workout?.progress
        return [
            WorkoutProperty.active: .boolean(workout != nil),
            WorkoutProperty.name: .string(workout?.name ?? ""),
            WorkoutProperty.exercise: .string(progress?.currentExercise?.name ?? ""),
            WorkoutProperty.setIndex: .uint32(UInt32(progress?.currentStep?.set ?? 0)),
            WorkoutProperty.setsPlanned: .uint32(UInt32(progress?.plan.setsPlanned ?? 0)),
            WorkoutProperty.setsDone: .uint32(UInt32(progress?.setsDone ?? 0)),
            WorkoutProperty.startedAtUSec: .uint64(progress?.startedAtUSec ?? 0),
            WorkoutProperty.plan: .array(BusArguments.optionsType, progress.map { plan($0.plan) } ?? []),
            WorkoutProperty.summary: summary(lastSummary),
        ]
    }

    /// One entry per exercise, in order; a superset's exercises share `block`.
    static func plan(_ plan: WorkoutPlan) -> [DBusValue] {
        plan.blocks.enumerated().flatMap { index, block in
            block.exercises.map { exercise in
                var entries: HistoryEntries.Fields = [
                    (WorkoutKey.name, .string(exercise.name)), (WorkoutKey.block, .uint32(UInt32(index))),
                    (WorkoutKey.sets, .uint32(UInt32(exercise.sets))),
                ]
                if let reps = exercise.reps { entries.append((WorkoutKey.reps, .uint32(UInt32(clamping: reps)))) }
                if let weight = exercise.weightKG { entries.append((WorkoutKey.weightKg, .double(weight))) }
                if let rest = block.restUSec { entries.append((WorkoutKey.restUSec, .uint64(rest))) }
                if let failed = block.failedRestUSec { entries.append((WorkoutKey.failedRestUSec, .uint64(failed))) }
                return HistoryEntries.dictionary(entries)
            }
        }
    }

    /// The summary of a workout that ended; empty when none.
    static func summary(_ summary: WorkoutSummary?) -> DBusValue {
        guard let summary else { return HistoryEntries.dictionary([]) }
        return HistoryEntries.dictionary([
            (HistoryKey.name, .string(summary.name)),
            (WorkoutKey.startedAtUSec, .uint64(summary.startedAtUSec)),
            (WorkoutKey.endedAtUSec, .uint64(summary.endedAtUSec)),
            (WorkoutKey.durationUSec, .uint64(summary.durationUSec)),
            (WorkoutKey.setsDone, .uint32(UInt32(clamping: summary.setsDone))),
            (WorkoutKey.setsPlanned, .uint32(UInt32(clamping: summary.setsPlanned))),
            (WorkoutKey.volumeKg, .double(summary.volumeKG)),
            (WorkoutKey.totalRestUSec, .uint64(summary.totalRestUSec)),
            (WorkoutKey.medianRestUSec, .uint64(summary.medianRestUSec)),
            (WorkoutKey.abandoned, .boolean(summary.abandoned)),
        ])
    }
}
