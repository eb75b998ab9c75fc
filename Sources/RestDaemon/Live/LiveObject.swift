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
    ]

    static let interface = InterfaceDescription(
        name: RestBus.liveInterface, methods: methods.map(\.description),
        signals: [.init(LiveMember.changed, [.init("fields", options), .init("at_usec", .uint64)])],
        properties: [
            .init(LiveProperty.fields, options),
            .init(LiveProperty.active, .boolean),
            .init(LiveProperty.updatedAtUSec, .uint64),
            .init(LiveProperty.maxRateHz, .double, annotations: [.emitsChangedSignal("true")]),
        ])

    static func make(live: LiveService) -> ExportedInterface {
        ExportedInterface(
            interface, methods: methods, context: live,
            property: { name in
                switch name {
                case LiveProperty.fields: LiveArguments.dictionary(live.publishedFields)
                case LiveProperty.active: .boolean(!live.publishedFields.isEmpty)
                case LiveProperty.updatedAtUSec: .uint64(live.updatedAtUSec)
                case LiveProperty.maxRateHz: .double(live.broadcastRateHz)
                default: nil
                }
            })
    }
}
