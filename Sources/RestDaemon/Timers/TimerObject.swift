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
        BusMethod(TimerMember.silence) { timer, _ throws(DBusError) in try timer.perform(.silence(timer.id)) },
    ]

    /// Each property with how to read it from the timer, in the interface's order.
    static let properties: PropertyTable<RestTimer> = [
        BusProperty(TimerProperty.id, .string, annotations: [.emitsChangedSignal("const")]) { .string($0.id.rawValue) },
        BusProperty(TimerProperty.label, .string) { .string($0.label) },
        BusProperty(TimerProperty.next, .string) { .string($0.next) },
        BusProperty(TimerProperty.state, .string) { .string($0.state.rawValue) },
        BusProperty(TimerProperty.durationUSec, .uint64) { .uint64($0.durationUSec) },
        BusProperty(TimerProperty.startedAtUSec, .uint64) { .uint64($0.startedAtUSec) },
        BusProperty(TimerProperty.endsAtUSec, .uint64) { .uint64($0.endsAtUSec) },
        BusProperty(TimerProperty.remainingUSec, .uint64) { .uint64($0.remainingUSec) },
        BusProperty(TimerProperty.expiredAtUSec, .uint64) { .uint64($0.expiredAtUSec) },
        BusProperty(TimerProperty.notify, .boolean) { .boolean($0.notify) },
        BusProperty(TimerProperty.sound, .boolean) { .boolean($0.sound) },
        BusProperty(TimerProperty.ringing, .boolean) { .boolean($0.ringing) },
        BusProperty(TimerProperty.warnUSec, .uint64) { .uint64($0.warnUSec) },
        BusProperty(TimerProperty.restSource, .string) { .string($0.restSource) },
        BusProperty(TimerProperty.untilRecovered, .boolean) { .boolean($0.recovery != nil) },
        BusProperty(TimerProperty.endReason, .string) { .string($0.endReason?.rawValue ?? "") },
        BusProperty(TimerProperty.recoveredBPM, .uint32) { .uint32(UInt32(clamping: $0.recoveredBPM ?? 0)) },
    ]

    static let interface = InterfaceDescription(
        name: RestBus.timerInterface, methods: methods.map(\.description), properties: properties.descriptions)

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
            interface, methods: methods, context: Context(id: id, service: service), properties: properties
        ) { service.book.timer(id) }
    }

    // MARK: Signals

    /// A listener of committed timer events: one PropertiesChanged per changed timer per batch
    /// carrying only the values that changed, InterfacesAdded/Removed, and the Manager's Expired.
    /// A pre-alert (`.warning`) has no signal of its own: it is a desktop notification only.
    ///
    /// A batch's Expired signals leave first: they are what subscribers wait for, and each
    /// carries what it needs (id, path, deadline, when it fired). The expired timer's
    /// PropertiesChanged follows in the same wake-up, so that marshalling it, and the bus routing
    /// it, never delay an Expired.
    static func emit(_ events: [TimerEvent], on server: ObjectServer) {
        for case .expired(let id, let deadline, let fired) in events {
            ManagerObject.emitExpired(id, deadlineUSec: deadline, firedUSec: fired, on: server)
        }
        for event in events {
            switch event {
            case .added(let timer):
                server.emitInterfacesAdded(path: RestBus.timerPath(id: timer.id.rawValue))
            case .changed(let old, let new):
                server.emitPropertiesChanged(
                    path: RestBus.timerPath(id: new.id.rawValue), interface: RestBus.timerInterface, properties,
                    from: old, to: new)
            case .removed(let timer):
                server.emitInterfacesRemoved(
                    path: RestBus.timerPath(id: timer.id.rawValue), interfaces: [RestBus.timerInterface])
            case .expired, .warning:
                continue
            }
        }
    }
}
