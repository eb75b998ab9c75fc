import DBusKit
import Localization
import RestCore
import RestProtocol

/// io.restd.Rest1.History at /io/restd/Rest1/history: the training history, and its fixes (through
/// the one door, `StateService.perform`). Reads
/// run on the loop like every call, short enough for it: what a week of sets and a year's stats
/// cost is measured by `make bench` (docs/PERFORMANCE.md).
enum HistoryObject {
    /// What the history object is made with; `trimmer` gives the heap back after large replies.
    struct Context {
        let service: StateService
        let trimmer: MemoryTrimmer

        /// The store to read from.
        func store() -> StateStore { service.storeForReading() }

        /// One page of Sets, SetRows, Rests or HeartRates: the window, exercise (the key of
        /// `exerciseWindow`'s, "" for all) and limit of the call, the rows of `query`, refused when
        /// limit 0 would be more than one call may return.
        func page<Row>(
            _ call: MethodCall, what: PageRows,
            query: (StateStore) -> (USec, USec, String, Int) throws -> (rows: [Row], more: Bool),
            reply: ([Row]) -> MethodReply
        ) throws(DBusError) -> MethodReply {
            try reading {
                let (since, until, exerciseKey, limit) = try window(call.arguments)
                let (rows, more) = try query(store())(since, until, exerciseKey, limit)
                try refuseMore(more, limit: limit, what: what)
                trimmer.replied(entries: rows.count)
                return reply(rows)
            }
        }

        /// A fix of the history, through the one door; what it did.
        func fix(_ fix: HistoryFix) throws(DBusError) -> FixedSets {
            guard let fixed = try service.perform(.fixHistory(fix)).fixed else {
                throw DBusError(
                    .failed, localized("restd planned a fix of the history that changed nothing: a defect in restd"))
            }
            return fixed
        }

        /// A read of the store: its failure is StorageFailed with the store's sentence.
        func reading(_ body: () throws -> MethodReply) throws(DBusError) -> MethodReply {
            do {
                return try body()
            } catch let error as StoreError {
                throw DBusError(name: RestErrorName.storageFailed, message: error.description)
            } catch let error as DBusError {
                throw error
            } catch {
                throw DBusError(.failed, String(describing: error))
            }
        }
    }

    static let options = BusArguments.optionsType
    static let window: [InterfaceDescription.Argument] = [
        .init("since_usec", .uint64), .init("until_usec", .uint64), .init("limit", .uint32),
    ]
    /// The window of the reads that can keep to one exercise ("" for all), filtered in SQL.
    static let exerciseWindow: [InterfaceDescription.Argument] = [
        .init("since_usec", .uint64), .init("until_usec", .uint64), .init("exercise", .string),
        .init("limit", .uint32),
    ]

    static let methods: [BusMethod<Context>] = [
        BusMethod(HistoryMember.sets, in: exerciseWindow, out: [.init("sets", .array(options))]) {
            history, call throws(DBusError) in
            try history.page(call, what: .sets, query: StateStore.sets) { .records($0.map(HistoryEntries.set)) }
        },
        BusMethod(HistoryMember.setRows, in: exerciseWindow, out: [.init("rows", .array(HistoryEntries.setRowType))]) {
            history, call throws(DBusError) in
            try history.page(call, what: .sets, query: StateStore.sets) { rows in
                [.array(HistoryEntries.setRowType, rows.map(HistoryEntries.row))]
            }
        },
        BusMethod(HistoryMember.rests, in: exerciseWindow, out: [.init("rests", .array(options))]) {
            history, call throws(DBusError) in
            try history.page(call, what: .rests, query: StateStore.rests) { .records($0.map(HistoryEntries.rest)) }
        },
        BusMethod(HistoryMember.heartRates, in: window, out: [.init("heart_rates", .array(options))]) {
            history, call throws(DBusError) in
            try history.page(
                call, what: .heartRateTraces,
                query: { store in
                    { since, until, _, limit in try store.heartRateTraces(since: since, until: until, limit: limit) }
                }
            ) { .records($0.map(HistoryEntries.heartRate)) }
        },
        BusMethod(HistoryMember.exercises, out: [.init("exercises", .array(options))]) {
            history, _ throws(DBusError) in
            try history.reading {
                [.array(options, try exercises(history.store(), settings: history.service.training.settings))]
            }
        },
        BusMethod(
            HistoryMember.stats,
            in: [.init("since_usec", .uint64), .init("until_usec", .uint64), .init("exercise", .string)],
            out: [.init("stats", .array(options))]
        ) { history, call throws(DBusError) in
            try history.reading {
                let args = call.arguments
                let key = try exerciseKey(args[2].string ?? "")
                let stats = try history.store().stats(
                    since: args[0].uint64 ?? 0, until: until(args[1].uint64 ?? 0), exerciseKey: key)
                history.trimmer.replied(entries: MemoryTrimmer.threshold)  // the per-exercise durations were a year's
                return .records(stats.map(HistoryEntries.stats))
            }
        },
        BusMethod(HistoryMember.undo, out: [.init("set", options)]) { history, _ throws(DBusError) in
            let fixed = try history.fix(.undo)
            return [fixed.sets.first.map { removed($0, by: fixed) } ?? HistoryEntries.dictionary([])]
        },
        BusMethod(
            HistoryMember.deleteSets, in: [.init("set_ids", .array(.int64))], out: [.init("sets", .array(options))]
        ) { history, call throws(DBusError) in
            guard let elements = call.arguments[0].arrayElements else {
                throw DBusError(.invalidArgs, "set_ids must be an array of set ids (ax)")
            }
            let ids = elements.compactMap(\.int64)
            let fixed = try history.fix(.delete(ids))
            return [.array(options, fixed.sets.map { removed($0, by: fixed) })]
        },
        BusMethod(
            HistoryMember.editSet, in: [.init("set_id", .int64), .init("changes", options)],
            out: [.init("set", options)]
        ) { history, call throws(DBusError) in
            guard case .int64(let id) = call.arguments[0] else { throw DBusError(.invalidArgs, "set_id must be an x") }
            let fixed = try history.fix(.edit(id, try BusArguments.setEdit(call.arguments[1])))
            return [HistoryEntries.dictionary(fixed.sets.first.map(HistoryEntries.set) ?? [])]
        },
        BusMethod(
            HistoryMember.renameExercise, in: [.init("from", .string), .init("to", .string)],
            out: [.init("exercise", .string), .init("sets", .uint32)]
        ) { history, call throws(DBusError) in
            let fixed = try history.fix(
                .rename(from: call.arguments[0].string ?? "", to: call.arguments[1].string ?? ""))
            return [.string(fixed.exercise ?? ""), .uint32(UInt32(clamping: fixed.sets.count))]
        },
        BusMethod(HistoryMember.workouts, in: window, out: [.init("workouts", .array(options))]) {
            history, call throws(DBusError) in
            try history.reading {
                let (since, until, _, limit) = try window(call.arguments)
                let summaries = try history.store().workoutSummaries(
                    since: since, until: until, limit: limit == 0 ? StateStore.maxHistoryRows : limit)
                return [.array(options, summaries.map(WorkoutObject.summary))]
            }
        },
    ]

    static let interface = InterfaceDescription(
        name: RestBus.historyInterface, methods: methods.map(\.description),
        signals: [
            .init(HistoryMember.setRecorded, [.init("set", options)]),
            .init(HistoryMember.setsChanged, [.init("change", .string), .init("set_ids", .array(.int64))]),
        ])

    static func make(service: StateService, trimmer: MemoryTrimmer) -> ExportedInterface {
        ExportedInterface(interface, methods: methods, context: Context(service: service, trimmer: trimmer))
    }

    /// SetRecorded, with the set and the rest it started: a listener of committed sets.
    static func emitSetRecorded(_ set: PlannedSet, on server: ObjectServer) {
        server.emitSignal(
            path: RestBus.historyPath, interface: RestBus.historyInterface, name: HistoryMember.setRecorded,
            arguments: [HistoryEntries.recorded(set)])
    }

    /// SetsChanged: what a fix changed (deleted, edited, renamed) and the ids of its sets.
    static func emitSetsChanged(_ fixed: FixedSets, on server: ObjectServer) {
        server.emitSignal(
            path: RestBus.historyPath, interface: RestBus.historyInterface, name: HistoryMember.setsChanged,
            arguments: [.string(fixed.kind.rawValue), .array(.int64, fixed.sets.map { .int64($0.id) })])
    }

    /// A set Undo or DeleteSets removed, with whether its rest was cancelled with it and whether
    /// the workout went back with it.
    private static func removed(_ set: SetRecord, by fixed: FixedSets) -> DBusValue {
        HistoryEntries.dictionary(
            HistoryEntries.set(set) + [
                (HistoryKey.cancelledRest, .boolean(fixed.restsCancelled.contains(set.id))),
                (HistoryKey.workoutBack, .boolean(fixed.workoutBackFrom == set.id)),
            ])
    }

    /// since, until (0: no end), the exercise's key ("" for all) and limit (0: as many as
    /// allowed) of a `window` or an `exerciseWindow`.
    private static func window(_ args: [DBusValue]) throws(DBusError) -> (USec, USec, String, Int) {
        let byExercise = args.count == exerciseWindow.count
        let key = byExercise ? try exerciseKey(args[2].string ?? "") : ""
        guard case .uint32(let requested) = args[byExercise ? 3 : 2] else {
            throw DBusError(.invalidArgs, "limit must be a uint32 (u)")
        }
        let limit = Int(requested)
        guard limit <= StateStore.maxHistoryRows else {
            throw DBusError(
                name: RestErrorName.limitExceeded,
                message: localized(
                    "limit %1$d is more than the %2$d rows one call may return; ask for fewer and page with since_usec",
                    limit, StateStore.maxHistoryRows))
        }
        return (args[0].uint64 ?? 0, until(args[1].uint64 ?? 0), key, limit == 0 ? StateStore.maxHistoryRows : limit)
    }

    /// The key of an exercise filter; "" for all.
    private static func exerciseKey(_ name: String) throws(DBusError) -> String {
        guard !name.isEmpty else { return "" }
        do {
            return try ExerciseName(parsing: name).key
        } catch {
            throw error.dbusError
        }
    }

    private static func until(_ usec: USec) -> USec { usec == 0 ? USec(Int64.max) : usec }

    /// What a page holds, for the sentence that refuses too many of them.
    enum PageRows {
        case sets, rests, heartRateTraces
    }

    /// Limit 0 asks for everything: refused when that is more than one call may return.
    private static func refuseMore(_ more: Bool, limit: Int, what: PageRows) throws(DBusError) {
        guard more, limit == StateStore.maxHistoryRows else { return }
        let most = StateStore.maxHistoryRows
        let message =
            switch what {
            case .sets:
                localized(
                    "more than %1$d sets match, the most one call may return; give a limit and page with since_usec, or a shorter time span",
                    most)
            case .rests:
                localized(
                    "more than %1$d rests match, the most one call may return; give a limit and page with since_usec, or a shorter time span",
                    most)
            case .heartRateTraces:
                localized(
                    "more than %1$d heart-rate traces match, the most one call may return; give a limit and page with since_usec, or a shorter time span",
                    most)
            }
        throw DBusError(name: RestErrorName.limitExceeded, message: message)
    }

    /// Every exercise remembered or configured: name, last rest, override, category and its
    /// rest, sets, last seen.
    private static func exercises(_ store: StateStore, settings: TrainingSettings) throws -> [DBusValue] {
        var entries: [String: [String: DBusValue]] = [:]
        for exercise in try store.exercises() {
            var entry: [String: DBusValue] = [
                HistoryKey.name: .string(exercise.name), HistoryKey.sets: .uint32(UInt32(clamping: exercise.sets)),
                HistoryKey.lastSeenUSec: .uint64(exercise.lastSeenUSec),
            ]
            if let rest = exercise.lastRestUSec { entry[HistoryKey.lastRestUSec] = .uint64(rest) }
            // An imported category, unless config.toml gives one (below).
            if let category = exercise.category { entry[HistoryKey.category] = .string(category) }
            entries[exercise.key] = entry
        }
        for (key, configured) in settings.exercises {
            var entry = entries[key] ?? [HistoryKey.name: .string(configured.name), HistoryKey.sets: .uint32(0)]
            if let rest = configured.restUSec { entry[HistoryKey.overrideUSec] = .uint64(rest) }
            if let rest = configured.failedRestUSec { entry[HistoryKey.failedRestUSec] = .uint64(rest) }
            if let category = configured.category {
                entry[HistoryKey.category] = .string(category)
                if let rest = settings.categories[category] { entry[HistoryKey.categoryRestUSec] = .uint64(rest) }
            }
            entries[key] = entry
        }
        return entries.sorted { $0.key < $1.key }.map { .vardict($0.value) }
    }
}
