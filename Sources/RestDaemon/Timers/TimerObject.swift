import DBusKit
import RestCore
import RestProtocol

/// io.restd.Rest1.Timer at /io/restd/Rest1/timer/<id>: one object per timer, made on demand.
/// Each method is a `TimerCommand` for this timer, carried out by `StateService.perform`.
enum TimerObject {
    /// What a timer object is made with.
    struct Context {
        let id: TimerID
        let service: StateService

        func perform(_ command: TimerCommand) throws(DBusError) -> MethodReply {
            try service.perform(.timer(command))
            return []
        }
    }

    static let methods: [BusMethod<Context>] = [
        BusMethod(TimerMember.pause) { timer, _ throws(DBusError) in try timer.perform(.pause(timer.id)) },
        BusMethod(TimerMember.resume) { timer, _ throws(DBusError) in try timer.perform(.resume(timer.id)) },
        BusMethod(TimerMember.adjust, in: [.init("delta_usec", .int64)]) { timer, call throws(DBusError) in
            try timer.perform(.adjust(timer.id, deltaUSec: call.arguments[0].int64 ?? 0))
        },
        BusMethod(TimerMember.restart) { timer, _ throws(DBusError) in try timer.perform(.restart(timer.id)) },
        BusMethod(TimerMember.cancel) { timer, _ throws(DBusError) in try timer.perform(.cancel(timer.id)) },
    ]

    static let interface = InterfaceDescription(
        name: RestBus.timerInterface, methods: methods.map(\.description),
        properties: [
            .init(TimerProperty.id, .string, annotations: [.emitsChangedSignal("const")]),
            .init(TimerProperty.label, .string),
            .init(TimerProperty.next, .string),
            .init(TimerProperty.state, .string),
            .init(TimerProperty.durationUSec, .uint64),
            .init(TimerProperty.startedAtUSec, .uint64),
            .init(TimerProperty.endsAtUSec, .uint64),
            .init(TimerProperty.remainingUSec, .uint64),
            .init(TimerProperty.expiredAtUSec, .uint64),
            .init(TimerProperty.notify, .boolean),
            .init(TimerProperty.warnUSec, .uint64),
            .init(TimerProperty.restSource, .string),
            .init(TimerProperty.untilRecovered, .boolean),
            .init(TimerProperty.endReason, .string),
            .init(TimerProperty.recoveredBPM, .uint32),
        ])

    static func subtree(service: StateService) -> Subtree {
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
            },
            objects: {
                service.book.timers.keys.map { id in
                    (name: TimerPathElement.encode(id.rawValue), interfaces: [make(id: id, service: service)])
                }
            })
    }

    static func make(id: TimerID, service: StateService) -> ExportedInterface {
        ExportedInterface(
            interface, methods: methods, context: Context(id: id, service: service),
            property: { name in
                service.book.timer(id).flatMap { TimerProperties.value(name, of: $0) }
            },
            propertyReader: {
                let timer = service.book.timer(id)
                return { name in timer.flatMap { TimerProperties.value(name, of: $0) } }
            })
    }
}
