import DBusKit
import RestCore
import RestProtocol

/// A timer's io.restd.Rest1.Timer properties.
enum TimerProperties {
    static func all(of timer: RestTimer) -> [String: DBusValue] {
        var values: [String: DBusValue] = [:]
        for property in properties { values[property.name] = property.value(timer) }
        return values
    }

    static let names = properties.map(\.name)

    /// Each property with how to read it from a timer, in the interface's order.
    private static let properties: [(name: String, value: @Sendable (RestTimer) -> DBusValue)] = [
        (TimerProperty.id, { .string($0.id.rawValue) }),
        (TimerProperty.label, { .string($0.label) }),
        (TimerProperty.next, { .string($0.next) }),
        (TimerProperty.state, { .string($0.state.rawValue) }),
        (TimerProperty.durationUSec, { .uint64($0.durationUSec) }),
        (TimerProperty.startedAtUSec, { .uint64($0.startedAtUSec) }),
        (TimerProperty.endsAtUSec, { .uint64($0.endsAtUSec) }),
        (TimerProperty.remainingUSec, { .uint64($0.remainingUSec) }),
        (TimerProperty.expiredAtUSec, { .uint64($0.expiredAtUSec) }),
        (TimerProperty.notify, { .boolean($0.notify) }),
        (TimerProperty.warnUSec, { .uint64($0.warnUSec) }),
        (TimerProperty.restSource, { .string($0.restSource) }),
        (TimerProperty.untilRecovered, { .boolean($0.recovery != nil) }),
        (TimerProperty.endReason, { .string($0.endReason?.rawValue ?? "") }),
        (TimerProperty.recoveredBPM, { .uint32(UInt32(clamping: $0.recoveredBPM ?? 0)) }),
    ]

    /// One property's value, without building the others: GetAll and GetManagedObjects ask
    /// for each property by name, so building them all for each would cost eleven times as much.
    static func value(_ name: String, of timer: RestTimer) -> DBusValue? {
        properties.first { $0.name == name }?.value(timer)
    }

    /// Only the properties whose values differ: what PropertiesChanged carries.
    static func changed(from old: RestTimer, to new: RestTimer) -> [String: DBusValue] {
        var changed: [String: DBusValue] = [:]
        for property in properties {
            let value = property.value(new)
            if value != property.value(old) { changed[property.name] = value }
        }
        return changed
    }
}
