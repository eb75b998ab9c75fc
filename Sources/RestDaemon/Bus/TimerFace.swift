import DBusKit
import RestCore
import RestProtocol

/// io.restd.Rest1.Timer at /io/restd/Rest1/timer/<id>: one object per timer, made on demand.
enum TimerFace {
    static func subtree(service: TimerService) -> Subtree {
        Subtree(children: {
            service.book.timers.keys.map { TimerPathElement.encode($0.rawValue) }
        }, interfaces: { child in
            guard let text = TimerPathElement.decode(child), let id = try? TimerID(parsing: text), text == id.rawValue,
                  service.book.timer(id) != nil else {
                return nil
            }
            return [make(id: id, service: service)]
        })
    }

    static func make(id: TimerID, service: TimerService) -> ExportedInterface {
        ExportedInterface(BusInterfaces.timer, call: { call throws(DBusError) in
            if call.member == "Adjust" {
                let delta = call.arguments[0].int64 ?? 0
                try service.perform { book, now throws(TimerError) in try book.adjust(id, deltaUSec: delta, now: now) }
            } else {
                try perform(call.member, id: id, service: service)
            }
            return []
        }, property: { name in
            service.book.timer(id).flatMap { TimerProperties.value(name, of: $0) }
        })
    }

    /// The argument-less operations both faces share.
    static func perform(_ member: String, id: TimerID, service: TimerService) throws(DBusError) {
        switch member {
        case "Pause": try service.perform { book, now throws(TimerError) in try book.pause(id, now: now) }
        case "Resume": try service.perform { book, now throws(TimerError) in try book.resume(id, now: now) }
        case "Restart": try service.perform { book, now throws(TimerError) in try book.restart(id, now: now) }
        case "Cancel": try service.perform { book, now throws(TimerError) in try book.cancel(id, now: now) }
        default: throw DBusError(.unknownMethod, "no method \(member)")
        }
    }
}
