import DBusKit
import RestCore
import RestProtocol

/// io.restd.Rest1.Manager at /io/restd/Rest1: timers addressed by id. Each method is decoded
/// into a `TimerCommand` and carried out by `TimerService.perform`.
enum ManagerObject {
    /// `defaultDuration` reads the configuration in force (it changes on reload).
    static func make(service: TimerService, defaultDuration: @escaping () -> USec) -> ExportedInterface {
        ExportedInterface(
            BusInterfaces.manager,
            call: { call throws(DBusError) in
                let args = call.arguments
                let id = try BusArguments.timerID(args[0])
                let command: TimerCommand
                switch call.member {
                case "CompleteSet":
                    let input = try BusArguments.setInput(exercise: args[1], options: args[2])
                    guard let set = try service.perform(.completeSet(id, input)) else {
                        throw DBusError(name: RestErrorName.storageFailed, message: "the set was not recorded")
                    }
                    return [
                        .objectPath(RestBus.timerPath(id: id.rawValue)), .uint64(set.rest.usec),
                        .string(set.rest.sourceText),
                    ]
                case "Skip":
                    command = .skip(id)
                case "Start":
                    command = .start(
                        id, durationUSec: args[1].uint64 ?? 0, options: try BusArguments.startOptions(args[2]))
                case "Adjust":
                    command = .adjust(id, deltaUSec: args[1].int64 ?? 0)
                default:
                    command = try TimerObject.command(call.member, id: id)
                }
                try service.perform(command)
                if case .start = command { return [.objectPath(RestBus.timerPath(id: id.rawValue))] }
                return []
            },
            property: { name in
                switch name {
                case ManagerProperty.version: .string(RestBus.version)
                case ManagerProperty.defaultDurationUSec: .uint64(defaultDuration())
                default: nil
                }
            })
    }
}
