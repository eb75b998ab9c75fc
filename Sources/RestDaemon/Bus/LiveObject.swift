import DBusKit
import RestCore
import RestProtocol

/// io.restd.Rest1.Live at /io/restd/Rest1/live: producers update, widgets subscribe.
enum LiveObject {
    static func make(live: LiveService) -> ExportedInterface {
        ExportedInterface(
            BusInterfaces.live,
            call: { call throws(DBusError) in
                switch call.member {
                case "Update":
                    try live.update(try LiveArguments.entries(call.arguments[0]))
                case "End":
                    live.end()
                case "Subscribe":
                    try live.subscribe(call.sender, rateHz: call.arguments[0].double ?? 0)
                case "Unsubscribe":
                    live.unsubscribe(call.sender)
                case "Sensors":
                    return [.array(BusInterfaces.options, live.listSensors().map { .vardict($0) })]
                default:
                    throw DBusError(.unknownMethod, "no method \(call.member)")
                }
                return []
            },
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
