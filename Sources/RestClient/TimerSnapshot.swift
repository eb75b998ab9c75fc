import DBusKit
import Localization
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
    /// Whether the rest may end on recovery (false from a restd without it).
    public var untilRecovered: Bool
    /// Why the rest ended (`recovered`, `planned`, `user`, `sensor_lost`); while running,
    /// `sensor_lost` once the strap was lost; "" otherwise (and from a restd without it).
    public var endReason: String
    /// The heart rate when it ended as recovered; 0 otherwise.
    public var recoveredBPM: UInt32
    /// Whether restd plays the rest's cues and alarm (true from a restd without it).
    public var sound: Bool
    /// Whether the rest is over and its alarm rings (false from a restd without it).
    public var ringing: Bool

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
        untilRecovered = properties[TimerProperty.untilRecovered]?.bool ?? false
        endReason = properties[TimerProperty.endReason]?.string ?? ""
        if case .uint32(let bpm)? = properties[TimerProperty.recoveredBPM] {
            recoveredBPM = bpm
        } else {
            recoveredBPM = 0
        }
        sound = properties[TimerProperty.sound]?.bool ?? true
        ringing = properties[TimerProperty.ringing]?.bool ?? false
    }

    /// How a rest that may end on recovery stands, in a few words; "" for any other:
    /// "until recovered" while it runs; "recovered in 1:12 ♥118" once over; "heart rate lost:
    /// full rest" while it runs without heart rate and once it ran its full length so (as
    /// "Rest over" says it).
    public var recoveryNote: String { recoveryNote(withHeartRate: true) }

    /// `recoveryNote`, with the heart rate at recovery or without it (where a live heart rate
    /// is shown beside it).
    public func recoveryNote(withHeartRate: Bool) -> String {
        switch (state, endReason) {
        case ("expired", "recovered"):
            let took = TimeFormat.countdown(usec: expiredAtUSec > startedAtUSec ? expiredAtUSec - startedAtUSec : 0)
            return withHeartRate && recoveredBPM > 0
                ? localized("recovered in %1$s ♥%2$d", took, recoveredBPM) : localized("recovered in %1$s", took)
        case ("expired", "sensor_lost"), ("running", "sensor_lost"): return localized("heart rate lost: full rest")
        case ("running", ""), ("paused", ""): return untilRecovered ? localized("until recovered") : ""
        default: return ""
        }
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
