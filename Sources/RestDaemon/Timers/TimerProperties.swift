import DBusKit
import RestCore
import RestProtocol

/// A timer's io.restd.Rest1.Timer properties.
enum TimerProperties {
    static func all(of timer: RestTimer) -> [String: DBusValue] {
        var values: [String: DBusValue] = [:]
        for name in names { values[name] = value(name, of: timer) }
        return values
    }

    static let names = [
        TimerProperty.id, TimerProperty.label, TimerProperty.next, TimerProperty.state, TimerProperty.durationUSec,
        TimerProperty.startedAtUSec, TimerProperty.endsAtUSec, TimerProperty.remainingUSec,
        TimerProperty.expiredAtUSec, TimerProperty.notify, TimerProperty.warnUSec, TimerProperty.restSource,
        TimerProperty.untilRecovered, TimerProperty.endReason, TimerProperty.recoveredBPM,
    ]

    /// One property's value, without building the others: GetAll and GetManagedObjects ask
    /// for each property by name, so building them all for each would cost eleven times as much.
    static func value(_ name: String, of timer: RestTimer) -> DBusValue? {
        switch name {
        case TimerProperty.id: .string(timer.id.rawValue)
        case TimerProperty.label: .string(timer.label)
        case TimerProperty.next: .string(timer.next)
        case TimerProperty.state: .string(timer.state.rawValue)
        case TimerProperty.durationUSec: .uint64(timer.durationUSec)
        case TimerProperty.startedAtUSec: .uint64(timer.startedAtUSec)
        case TimerProperty.endsAtUSec: .uint64(timer.endsAtUSec)
        case TimerProperty.remainingUSec: .uint64(timer.remainingUSec)
        case TimerProperty.expiredAtUSec: .uint64(timer.expiredAtUSec)
        case TimerProperty.notify: .boolean(timer.notify)
        case TimerProperty.warnUSec: .uint64(timer.warnUSec)
        case TimerProperty.restSource: .string(timer.restSource)
        case TimerProperty.untilRecovered: .boolean(timer.recovery != nil)
        case TimerProperty.endReason: .string(timer.endReason?.rawValue ?? "")
        case TimerProperty.recoveredBPM: .uint32(UInt32(clamping: timer.recoveredBPM ?? 0))
        default: nil
        }
    }

    /// Only the properties whose values differ: what PropertiesChanged carries.
    static func changed(from old: RestTimer, to new: RestTimer) -> [String: DBusValue] {
        let before = all(of: old)
        return all(of: new).filter { before[$0.key] != $0.value }
    }
}
