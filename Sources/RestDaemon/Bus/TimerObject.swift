import DBusKit
import RestCore
import RestProtocol

/// io.restd.Rest1.Timer at /io/restd/Rest1/timer/<id>: one object per timer, made on demand.
enum TimerObject {
    static func subtree(service: TimerService) -> Subtree {
        Subtree(
            children: {
                service.book.timers.keys.map { TimerPathElement.encode($0.rawValue) }
            },
            interfaces: { child in
                guard let text = TimerPathElement.decode(child), let id = try? TimerID(parsing: text),
                    text == id.rawValue,
                    service.book.timer(id) != nil
                else {
                    return nil
                }
                return [make(id: id, service: service)]
            })
    }

    static func make(id: TimerID, service: TimerService) -> ExportedInterface {
        ExportedInterface(
            BusInterfaces.timer,
            call: { call throws(DBusError) in
                if call.member == "Adjust" {
                    try service.perform(.adjust(id, deltaUSec: call.arguments[0].int64 ?? 0))
                } else {
                    try service.perform(try command(call.member, id: id))
                }
                return []
            },
            property: { name in
                service.book.timer(id).flatMap { TimerProperties.value(name, of: $0) }
            })
    }

    /// The argument-less methods both objects share.
    static func command(_ member: String, id: TimerID) throws(DBusError) -> TimerCommand {
        switch member {
        case "Pause": .pause(id)
        case "Resume": .resume(id)
        case "Restart": .restart(id)
        case "Cancel": .cancel(id)
        default: throw DBusError(.unknownMethod, "no method \(member)")
        }
    }
}
