import DBusKit
import RestProtocol

/// What `restctl watch` shows: one timer (nil when there is no such timer, or no restd) and
/// the live fields as the last Changed signal gave them.
public struct WatchState: Equatable, Sendable {
    public var timer: TimerSnapshot?
    public var live: [String: DBusValue]

    public init(timer: TimerSnapshot? = nil, live: [String: DBusValue] = [:]) {
        self.timer = timer
        self.live = live
    }

    /// Nothing to show: no timer, no fields.
    public static let idle = WatchState()
}

/// A change restd announced, as the watch applies it to its state.
public enum WatchEvent: Equatable, Sendable {
    /// PropertiesChanged of the timer: the changed values, and the names of invalidated ones.
    case timerChanged([String: DBusValue], invalidated: [String])
    /// InterfacesAdded for the timer: all its properties.
    case timerAdded([String: DBusValue])
    /// InterfacesRemoved for the timer.
    case timerRemoved
    /// The live fields, in full (the Changed signal).
    case liveChanged([String: DBusValue])
    /// restd left the bus: nothing is known any more.
    case daemonGone
}

extension WatchState {
    /// Applies `event`. Returns false when the event cannot be applied to what is known
    /// (a change to a timer the state does not have, an invalidated property, a malformed
    /// signal): the caller should read the timer again.
    @discardableResult
    public mutating func apply(_ event: WatchEvent) -> Bool {
        switch event {
        case .timerChanged(let changed, let invalidated):
            guard var timer, invalidated.isEmpty else { return false }
            let applied = timer.apply(changed)
            self.timer = timer
            return applied
        case .timerAdded(let properties):
            guard let snapshot = try? TimerSnapshot(properties: properties) else { return false }
            timer = snapshot
        case .timerRemoved:
            timer = nil
        case .liveChanged(let fields):
            live = fields
        case .daemonGone:
            self = .idle
        }
        return true
    }
}

extension TimerSnapshot {
    /// Takes the values of a PropertiesChanged; false when one has an unexpected type
    /// (the values of the others are taken all the same).
    mutating func apply(_ changed: [String: DBusValue]) -> Bool {
        var understood = true
        for (name, value) in changed {
            switch (name, value) {
            case (TimerProperty.id, .string(let text)): id = text
            case (TimerProperty.label, .string(let text)): label = text
            case (TimerProperty.next, .string(let text)): next = text
            case (TimerProperty.state, .string(let text)): state = text
            case (TimerProperty.durationUSec, .uint64(let usec)): durationUSec = usec
            case (TimerProperty.startedAtUSec, .uint64(let usec)): startedAtUSec = usec
            case (TimerProperty.endsAtUSec, .uint64(let usec)): endsAtUSec = usec
            case (TimerProperty.remainingUSec, .uint64(let usec)): remainingUSec = usec
            case (TimerProperty.expiredAtUSec, .uint64(let usec)): expiredAtUSec = usec
            case (TimerProperty.notify, .boolean(let flag)): notify = flag
            case (TimerProperty.warnUSec, .uint64(let usec)): warnUSec = usec
            case (TimerProperty.restSource, .string(let text)): restSource = text
            case (TimerProperty.untilRecovered, .boolean(let flag)): untilRecovered = flag
            case (TimerProperty.endReason, .string(let text)): endReason = text
            case (TimerProperty.recoveredBPM, .uint32(let bpm)): recoveredBPM = bpm
            case (TimerProperty.sound, .boolean(let flag)): sound = flag
            case (TimerProperty.ringing, .boolean(let flag)): ringing = flag
            case (TimerProperty.id, _), (TimerProperty.label, _), (TimerProperty.next, _), (TimerProperty.state, _),
                (TimerProperty.durationUSec, _), (TimerProperty.startedAtUSec, _), (TimerProperty.endsAtUSec, _),
                (TimerProperty.remainingUSec, _), (TimerProperty.expiredAtUSec, _), (TimerProperty.notify, _),
                (TimerProperty.warnUSec, _), (TimerProperty.restSource, _), (TimerProperty.untilRecovered, _),
                (TimerProperty.endReason, _), (TimerProperty.recoveredBPM, _), (TimerProperty.sound, _),
                (TimerProperty.ringing, _):
                understood = false
            default:
                break  // a property a newer restd added
            }
        }
        return understood
    }
}
