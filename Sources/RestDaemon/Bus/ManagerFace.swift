import DBusKit
import RestCore
import RestProtocol

/// io.restd.Rest1.Manager at /io/restd/Rest1: timers addressed by id.
enum ManagerFace {
    /// `defaultDuration` reads the configuration in force (it changes on reload).
    static func make(service: TimerService, defaultDuration: @escaping () -> USec) -> ExportedInterface {
        ExportedInterface(BusInterfaces.manager, call: { call throws(DBusError) in
            let args = call.arguments
            let id = try BusArguments.timerID(args[0])
            switch call.member {
            case "Start":
                let duration = args[1].uint64 ?? 0
                let options = try BusArguments.startOptions(args[2])
                try service.perform { book, now throws(TimerError) in
                    try book.start(id, durationUSec: duration, options: options, now: now)
                }
                return [.objectPath(RestBus.timerPath(id: id.rawValue))]
            case "Adjust":
                let delta = args[1].int64 ?? 0
                try service.perform { book, now throws(TimerError) in try book.adjust(id, deltaUSec: delta, now: now) }
                return []
            default:
                try TimerFace.perform(call.member, id: id, service: service)
                return []
            }
        }, property: { name in
            switch name {
            case ManagerProperty.version: .string(RestBus.version)
            case ManagerProperty.defaultDurationUSec: .uint64(defaultDuration())
            default: nil
            }
        })
    }
}
