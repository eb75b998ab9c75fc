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
        properties: properties.descriptions)

    /// What the workout's properties show: the workout in progress (nil: none) and the summary
    /// of the last one that ended.
    struct Shown {
        let workout: ActiveWorkout?
        let lastSummary: WorkoutSummary?

        var progress: WorkoutProgress? { workout?.progress }
    }

    static let properties: PropertyTable<Shown> = [
        BusProperty(WorkoutProperty.active, .boolean) { .boolean($0.workout != nil) },
        BusProperty(WorkoutProperty.name, .string) { .string($0.workout?.name ?? "") },
        BusProperty(WorkoutProperty.exercise, .string) { .string($0.progress?.currentExercise?.name ?? "") },
        BusProperty(WorkoutProperty.setIndex, .uint32) { .uint32(UInt32($0.progress?.currentStep?.set ?? 0)) },
        BusProperty(WorkoutProperty.setsPlanned, .uint32) { .uint32(UInt32($0.progress?.plan.setsPlanned ?? 0)) },
        BusProperty(WorkoutProperty.setsDone, .uint32) { .uint32(UInt32($0.progress?.setsDone ?? 0)) },
        BusProperty(WorkoutProperty.startedAtUSec, .uint64) { .uint64($0.progress?.startedAtUSec ?? 0) },
        BusProperty(WorkoutProperty.plan, .array(BusArguments.optionsType)) {
            .array(BusArguments.optionsType, $0.progress.map { plan($0.plan) } ?? [])
        },
        BusProperty(WorkoutProperty.summary, BusArguments.optionsType) { summary($0.lastSummary) },
    ]

    static func make(service: StateService) -> ExportedInterface {
        ExportedInterface(interface, methods: methods, context: service, properties: properties) {
            Shown(workout: service.training.workout, lastSummary: service.lastWorkoutSummary)
        }
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

    // MARK: Signals

    /// The workout started, moved or ended: PropertiesChanged with every property (they change
    /// together).
    static func emitChanged(_ shown: Shown, on server: ObjectServer) {
        server.emitPropertiesChanged(
            path: RestBus.workoutPath, interface: RestBus.workoutInterface, properties, of: shown)
    }
}
