import DBusKit
import RestProtocol

/// A timer as restd reports it over D-Bus (io.restd.Rest1.Timer properties).
public struct TimerSnapshot: Equatable, Sendable {
    public var id: String
    public var label: String
    public var next: String
    public var state: String
    public var durationUSec: UInt64
    public var startedAtUSec: UInt64
    public var endsAtUSec: UInt64
    public var remainingUSec: UInt64
    public var expiredAtUSec: UInt64
    public var notify: Bool
    /// How long before the end the pre-alert comes; 0 for none (and from a restd without it).
    public var warnUSec: UInt64
    /// Which rule chose the rest when `restctl set` started it; "" otherwise (and from a restd without it).
    public var restSource: String

    /// Reads the properties of one timer object.
    public init(properties: [String: DBusValue]) throws(ClientError) {
        func string(_ name: String) throws(ClientError) -> String {
            guard case .string(let value)? = properties[name] else { throw .badReply("property \(name) missing") }
            return value
        }
        func usec(_ name: String) throws(ClientError) -> UInt64 {
            guard case .uint64(let value)? = properties[name] else { throw .badReply("property \(name) missing") }
            return value
        }
        id = try string(TimerProperty.id)
        label = try string(TimerProperty.label)
        next = try string(TimerProperty.next)
        state = try string(TimerProperty.state)
        durationUSec = try usec(TimerProperty.durationUSec)
        startedAtUSec = try usec(TimerProperty.startedAtUSec)
        endsAtUSec = try usec(TimerProperty.endsAtUSec)
        remainingUSec = try usec(TimerProperty.remainingUSec)
        expiredAtUSec = try usec(TimerProperty.expiredAtUSec)
        notify = properties[TimerProperty.notify]?.bool ?? true
        warnUSec = properties[TimerProperty.warnUSec]?.uint64 ?? 0
        restSource = properties[TimerProperty.restSource]?.string ?? ""
    }

    /// Time left at the wall-clock instant `now`: counted down from EndsAtUSec while running,
    /// frozen while paused, zero once expired.
    public func remaining(at now: UInt64) -> UInt64 {
        switch state {
        case "running": return endsAtUSec > now ? endsAtUSec - now : 0
        case "paused": return remainingUSec
        default: return 0
        }
    }

    /// How long ago the rest ended, for expired timers.
    public func overtime(at now: UInt64) -> UInt64 {
        guard state == "expired", expiredAtUSec > 0, now > expiredAtUSec else { return 0 }
        return now - expiredAtUSec
    }
}
