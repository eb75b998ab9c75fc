import DBusKit
import RestProtocol

/// The D-Bus contract of restd, as served at run time. `dbus/io.restd.Rest1.xml` documents the
/// same interfaces, and a test keeps the two identical.
enum BusInterfaces {
    typealias Arg = InterfaceDescription.Argument
    typealias Method = InterfaceDescription.Method
    typealias Property = InterfaceDescription.Property
    typealias Annotation = InterfaceDescription.Annotation

    static let options = DBusType.dictionary(key: .string, value: .variant)

    static let manager = InterfaceDescription(
        name: RestBus.managerInterface,
        methods: [
            Method(
                "Start", in: [Arg("id", .string), Arg("duration_usec", .uint64), Arg("options", options)],
                out: [Arg("timer", .objectPath)]),
            Method("Pause", in: [Arg("id", .string)]),
            Method("Resume", in: [Arg("id", .string)]),
            Method("Adjust", in: [Arg("id", .string), Arg("delta_usec", .int64)]),
            Method("Restart", in: [Arg("id", .string)]),
            Method("Cancel", in: [Arg("id", .string)]),
            Method(
                "CompleteSet", in: [Arg("id", .string), Arg("exercise", .string), Arg("options", options)],
                out: [Arg("timer", .objectPath), Arg("rest_usec", .uint64), Arg("rest_source", .string)]),
            Method("Skip", in: [Arg("id", .string)]),
        ],
        signals: [
            .init(
                "Expired",
                [
                    Arg("id", .string), Arg("timer", .objectPath),
                    Arg("deadline_usec", .uint64), Arg("fired_usec", .uint64),
                ])
        ],
        properties: [
            Property(ManagerProperty.version, .string, annotations: [.emitsChangedSignal("const")]),
            Property(ManagerProperty.defaultDurationUSec, .uint64),
        ])

    static let timer = InterfaceDescription(
        name: RestBus.timerInterface,
        methods: [
            Method("Pause"),
            Method("Resume"),
            Method("Adjust", in: [Arg("delta_usec", .int64)]),
            Method("Restart"),
            Method("Cancel"),
        ],
        properties: [
            Property(TimerProperty.id, .string, annotations: [.emitsChangedSignal("const")]),
            Property(TimerProperty.label, .string),
            Property(TimerProperty.next, .string),
            Property(TimerProperty.state, .string),
            Property(TimerProperty.durationUSec, .uint64),
            Property(TimerProperty.startedAtUSec, .uint64),
            Property(TimerProperty.endsAtUSec, .uint64),
            Property(TimerProperty.remainingUSec, .uint64),
            Property(TimerProperty.expiredAtUSec, .uint64),
            Property(TimerProperty.notify, .boolean),
            Property(TimerProperty.warnUSec, .uint64),
            Property(TimerProperty.restSource, .string),
        ])
}

extension BusInterfaces {
    static let live = InterfaceDescription(
        name: RestBus.liveInterface,
        methods: [
            Method("Update", in: [Arg("fields", options)]),
            Method("End"),
            Method("Subscribe", in: [Arg("max_rate_hz", .double)]),
            Method("Unsubscribe"),
            Method("Sensors", out: [Arg("sensors", .array(options))]),
        ],
        signals: [
            .init("Changed", [Arg("fields", options), Arg("at_usec", .uint64)])
        ],
        properties: [
            Property(LiveProperty.fields, .dictionary(key: .string, value: .variant)),
            Property(LiveProperty.active, .boolean),
            Property(LiveProperty.updatedAtUSec, .uint64),
            Property(LiveProperty.maxRateHz, .double, annotations: [.emitsChangedSignal("true")]),
        ])
}

extension BusInterfaces {
    static let history = InterfaceDescription(
        name: RestBus.historyInterface,
        methods: [
            Method(
                "Sets", in: [Arg("since_usec", .uint64), Arg("until_usec", .uint64), Arg("limit", .uint32)],
                out: [Arg("sets", .array(options))]),
            Method(
                "Rests", in: [Arg("since_usec", .uint64), Arg("until_usec", .uint64), Arg("limit", .uint32)],
                out: [Arg("rests", .array(options))]),
            Method("Exercises", out: [Arg("exercises", .array(options))]),
            Method(
                "Stats", in: [Arg("since_usec", .uint64), Arg("until_usec", .uint64), Arg("exercise", .string)],
                out: [Arg("stats", .array(options))]),
            Method(
                "Workouts", in: [Arg("since_usec", .uint64), Arg("until_usec", .uint64), Arg("limit", .uint32)],
                out: [Arg("workouts", .array(options))]),
        ],
        signals: [
            .init("SetRecorded", [Arg("set", options)])
        ])
}

extension BusInterfaces {
    static let workout = InterfaceDescription(
        name: RestBus.workoutInterface,
        methods: [
            Method("Start", in: [Arg("plan_toml_or_path", .string)]),
            Method("Next"),
            Method("Previous"),
            Method("End"),
        ],
        properties: [
            Property(WorkoutProperty.active, .boolean),
            Property(WorkoutProperty.name, .string),
            Property(WorkoutProperty.exercise, .string),
            Property(WorkoutProperty.setIndex, .uint32),
            Property(WorkoutProperty.setsPlanned, .uint32),
            Property(WorkoutProperty.setsDone, .uint32),
            Property(WorkoutProperty.startedAtUSec, .uint64),
            Property(WorkoutProperty.plan, .array(options)),
            Property(WorkoutProperty.summary, options),
        ])
}
