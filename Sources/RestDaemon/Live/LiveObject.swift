import DBusKit
import RestCore
import RestProtocol

/// io.restd.Rest1.Live at /io/restd/Rest1/live: producers update, widgets subscribe.
enum LiveObject {
    static let options = BusArguments.optionsType

    static let methods: [BusMethod<LiveService>] = [
        BusMethod(LiveMember.update, in: [.init("fields", options)]) { live, call throws(DBusError) in
            try live.update(try LiveArguments.entries(call.message.vardictArgument()))
            return []
        },
        BusMethod(LiveMember.end) { live, _ throws(DBusError) in
            live.end()
            return []
        },
        BusMethod(LiveMember.subscribe, in: [.init("max_rate_hz", .double)]) { live, call throws(DBusError) in
            try live.subscribe(call.sender, rateHz: call.arguments[0].double ?? 0)
            return []
        },
        BusMethod(LiveMember.unsubscribe) { live, call throws(DBusError) in
            live.unsubscribe(call.sender)
            return []
        },
        BusMethod(LiveMember.sensors, out: [.init("sensors", .array(options))]) { live, _ throws(DBusError) in
            [.array(options, live.listSensors().map { .vardict($0) })]
        },
        BusMethod(LiveMember.sensorsProblem, out: [.init("problem", .string)]) { live, _ throws(DBusError) in
            [.string(live.sensorsProblem())]
        },
    ]

    static let interface = InterfaceDescription(
        name: RestBus.liveInterface, methods: methods.map(\.description),
        signals: [.init(LiveMember.changed, [.init("fields", options), .init("at_usec", .uint64)])],
        properties: properties.descriptions)

    /// Fields and Active are the broadcast as last published, not the fields as they are now.
    static let properties: PropertyTable<LiveService> = [
        BusProperty(LiveProperty.fields, options) { LiveArguments.dictionary($0.publishedFields) },
        BusProperty(LiveProperty.active, .boolean) { .boolean(!$0.publishedFields.isEmpty) },
        BusProperty(LiveProperty.updatedAtUSec, .uint64) { .uint64($0.updatedAtUSec) },
        BusProperty(LiveProperty.maxRateHz, .double, annotations: [.emitsChangedSignal("true")]) {
            .double($0.broadcastRateHz)
        },
    ]

    static func make(live: LiveService) -> ExportedInterface {
        ExportedInterface(interface, methods: methods, context: live, properties: properties) { live }
    }

    // MARK: Signals

    /// The broadcast: PropertiesChanged of `names` as `live` has them now.
    static func emitChanged(_ names: [String], of live: LiveService, on server: ObjectServer) {
        server.emitPropertiesChanged(
            path: RestBus.livePath, interface: RestBus.liveInterface, properties, names, of: live)
    }

    /// One subscriber's stream: the unicast Changed signal.
    static func emitChanged(
        _ fields: [String: LiveValue], atUSec: USec, to subscriber: String, on server: ObjectServer
    ) {
        server.emitSignal(
            path: RestBus.livePath, interface: RestBus.liveInterface, name: LiveMember.changed,
            arguments: [LiveArguments.dictionary(fields), .uint64(atUSec)], destination: subscriber)
    }
}
