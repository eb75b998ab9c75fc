import DBusKit
import RestCore
import RestProtocol

/// A timer's io.restd.Rest1.Timer properties.
enum TimerProperties {
    static func all(of timer: RestTimer) -> [String: DBusValue] {
        [
            TimerProperty.id: .string(timer.id.rawValue),
            TimerProperty.label: .string(timer.label),
            TimerProperty.next: .string(timer.next),
            TimerProperty.state: .string(timer.state.rawValue),
            TimerProperty.durationUSec: .uint64(timer.durationUSec),
            TimerProperty.startedAtUSec: .uint64(timer.startedAtUSec),
            TimerProperty.endsAtUSec: .uint64(timer.endsAtUSec),
            TimerProperty.remainingUSec: .uint64(timer.remainingUSec),
            TimerProperty.expiredAtUSec: .uint64(timer.expiredAtUSec),
            TimerProperty.notify: .boolean(timer.notify),
            TimerProperty.warnUSec: .uint64(timer.warnUSec),
        ]
    }

    /// Only the properties whose values differ: what PropertiesChanged carries.
    static func changed(from old: RestTimer, to new: RestTimer) -> [String: DBusValue] {
        let before = all(of: old)
        return all(of: new).filter { before[$0.key] != $0.value }
    }
}
