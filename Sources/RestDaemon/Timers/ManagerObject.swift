import DBusKit
import Localization
import RestCore
import RestProtocol

/// io.restd.Rest1.Manager at /io/restd/Rest1: timers addressed by id. Each method is decoded
/// into a `Command` and carried out by `StateService.perform`.
enum ManagerObject {
    /// What the manager's methods are answered with.
    struct Context {
        let service: StateService
        /// Whether the caller is the first to hear that no notification server can show anything.
        let takeNotificationServerWarning: () -> Bool
        /// Whether the caller is the first to hear that no sound server plays restd's sounds.
        let takeSoundServerWarning: () -> Bool
        /// Reads config.toml again: the keys that changed, or the file's problems.
        let reload: () throws(ConfigError) -> [String]
        /// The imports of other apps' history in progress.
        let imports: ImportStaging

        /// Carries out the command for the timer named by the call's first argument.
        func perform(
            _ call: MethodCall, _ command: (TimerID) throws(DBusError) -> TimerCommand
        ) throws(DBusError)
            -> MethodReply
        {
            try service.perform(.timer(try command(try BusArguments.timerID(call.arguments[0]))))
            return []
        }
    }

    static let options = BusArguments.optionsType
    static let id = InterfaceDescription.Argument("id", .string)

    static let methods: [BusMethod<Context>] = [
        BusMethod(
            ManagerMember.start, in: [id, .init("duration_usec", .uint64), .init("options", options)],
            out: [.init("timer", .objectPath)]
        ) { manager, call throws(DBusError) in
            let args = call.arguments
            let id = try BusArguments.timerID(args[0])
            try manager.service.perform(
                .timer(.start(id, durationUSec: args[1].uint64 ?? 0, options: try BusArguments.startOptions(args[2]))))
            return [.objectPath(RestBus.timerPath(id: id.rawValue))]
        },
        BusMethod(ManagerMember.pause, in: [id]) { manager, call throws(DBusError) in
            try manager.perform(call) { id in .pause(id) }
        },
        BusMethod(ManagerMember.resume, in: [id]) { manager, call throws(DBusError) in
            try manager.perform(call) { id in .resume(id) }
        },
        BusMethod(ManagerMember.adjust, in: [id, .init("delta_usec", .int64)]) { manager, call throws(DBusError) in
            try manager.perform(call) { id in .adjust(id, deltaUSec: call.arguments[1].int64 ?? 0) }
        },
        BusMethod(ManagerMember.restart, in: [id]) { manager, call throws(DBusError) in
            try manager.perform(call) { id in .restart(id) }
        },
        BusMethod(ManagerMember.cancel, in: [id]) { manager, call throws(DBusError) in
            try manager.perform(call) { id in .cancel(id) }
        },
        BusMethod(
            ManagerMember.completeSet, in: [id, .init("exercise", .string), .init("options", options)],
            out: [.init("timer", .objectPath), .init("rest_usec", .uint64), .init("rest_source", .string)]
        ) { manager, call throws(DBusError) in
            let args = call.arguments
            let id = try BusArguments.timerID(args[0])
            let input = try BusArguments.setInput(exercise: args[1], options: args[2])
            // A set's plan always records the set (`TrainingBook.plan`): nothing else gets here.
            guard let set = try manager.service.perform(.completeSet(id, input)).set else {
                throw DBusError(.failed, localized("restd planned the set without recording it: a defect in restd"))
            }
            return [
                .objectPath(RestBus.timerPath(id: id.rawValue)), .uint64(set.rest.usec), .string(set.rest.sourceText),
            ]
        },
        BusMethod(ManagerMember.skip, in: [id]) { manager, call throws(DBusError) in
            try manager.perform(call) { id in .skip(id) }
        },
        BusMethod(ManagerMember.silence, in: [id]) { manager, call throws(DBusError) in
            guard call.arguments[0].string?.isEmpty == true else {
                return try manager.perform(call) { id in .silence(id) }
            }
            // Every ringing timer, each its own change: one that went quiet meanwhile changes nothing.
            for timer in manager.service.book.ringingTimers {
                try manager.service.perform(.timer(.silence(timer.id)))
            }
            return []
        },
        BusMethod(ManagerMember.takeNotificationServerWarning, out: [.init("warn", .boolean)]) { manager, _ in
            [.boolean(manager.takeNotificationServerWarning())]
        },
        BusMethod(ManagerMember.takeSoundServerWarning, out: [.init("warn", .boolean)]) { manager, _ in
            [.boolean(manager.takeSoundServerWarning())]
        },
        BusMethod(ManagerMember.reload, out: [.init("changed", .array(.string))]) { manager, _ throws(DBusError) in
            do throws(ConfigError) {
                return [.strings(try manager.reload())]
            } catch {
                let problems = error.problems.map(\.description).joined(separator: "; ")
                throw DBusError(
                    name: RestErrorName.invalidConfiguration,
                    message: "\(problems); \(ConfigurationReloader.notReloaded)")
            }
        },
        BusMethod(ManagerMember.beginImport, in: [.init("source", .string)], out: [.init("import", .string)]) {
            manager, call throws(DBusError) in
            [.string(try manager.imports.begin(source: call.arguments[0].string ?? "", owner: call.sender))]
        },
        BusMethod(
            ManagerMember.addImportRows,
            in: [.init("import", .string), .init("rows", .array(ImportEntries.rowType))]
        ) { manager, call throws(DBusError) in
            try manager.imports.add(
                handle: call.arguments[0].string ?? "", rows: call.arguments[1], owner: call.sender)
            return []
        },
        BusMethod(
            ManagerMember.commitImport, in: [.init("import", .string), .init("options", options)],
            out: [.init("outcome", options)]
        ) { manager, call throws(DBusError) in
            let dryRun = try ImportEntries.dryRun(call.arguments[1])
            let outcome = try manager.imports.commit(
                handle: call.arguments[0].string ?? "", dryRun: dryRun, owner: call.sender)
            return [ImportEntries.outcome(outcome)]
        },
    ]

    static let interface = InterfaceDescription(
        name: RestBus.managerInterface, methods: methods.map(\.description),
        signals: [
            .init(
                ManagerMember.expired,
                [
                    id, .init("timer", .objectPath), .init("deadline_usec", .uint64), .init("fired_usec", .uint64),
                ])
        ],
        properties: properties.descriptions)

    /// What the Manager's properties show: the configuration in force (it changes on reload)
    /// and whether a notification server is there.
    struct Settings {
        unowned let reloader: ConfigurationReloader
        unowned let notifier: Notifier
        unowned let sound: SoundService
    }

    static let properties: PropertyTable<Settings> = [
        BusProperty(ManagerProperty.version, .string, annotations: [.emitsChangedSignal("const")]) { _ in
            .string(RestBus.version)
        },
        BusProperty(ManagerProperty.defaultDurationUSec, .uint64) {
            .uint64($0.reloader.configuration.defaultDurationUSec)
        },
        // Known before any call is served: asked before the name is (Daemon.run).
        BusProperty(ManagerProperty.notificationServer, .string) {
            .string(($0.notifier.server ?? .missing).rawValue)
        },
        BusProperty(ManagerProperty.soundServer, .string) { .string($0.sound.serverState.rawValue) },
        BusProperty(ManagerProperty.weightUnit, .string) {
            .string($0.reloader.configuration.training.weightUnit.rawValue)
        },
    ]

    static func make(service: StateService, settings: Settings, imports: ImportStaging) -> ExportedInterface {
        ExportedInterface(
            interface, methods: methods,
            context: Context(
                service: service,
                takeNotificationServerWarning: { [unowned notifier = settings.notifier] in notifier.takeServerWarning()
                },
                takeSoundServerWarning: { [unowned sound = settings.sound] in sound.takeServerWarning() },
                reload: { [unowned reloader = settings.reloader] () throws(ConfigError) in try reloader.reload() },
                imports: imports),
            properties: properties
        ) { settings }
    }

    // MARK: Signals

    /// Expired: a timer reached its deadline (`TimerObject.emit` sends these first).
    static func emitExpired(_ id: TimerID, deadlineUSec: USec, firedUSec: USec, on server: ObjectServer) {
        server.emitSignal(
            path: RestBus.managerPath, interface: RestBus.managerInterface, name: ManagerMember.expired,
            arguments: [
                .string(id.rawValue), .objectPath(RestBus.timerPath(id: id.rawValue)), .uint64(deadlineUSec),
                .uint64(firedUSec),
            ])
    }

    /// PropertiesChanged of `names` as `settings` show them now: DefaultDurationUSec and
    /// WeightUnit after a reload changed them, NotificationServer when a server came, left or could not be started,
    /// SoundServer when restd found a sound server, or found none.
    static func emitChanged(_ names: [String], of settings: Settings, on server: ObjectServer) {
        server.emitPropertiesChanged(
            path: RestBus.managerPath, interface: RestBus.managerInterface, properties, names, of: settings)
    }
}
