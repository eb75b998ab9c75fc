import DBusKit
import RestCore
import RestProtocol

/// Everything restd says on the bus without being asked, in one place: timers' PropertiesChanged,
/// InterfacesAdded/Removed and Expired; the Manager's and the live object's PropertiesChanged;
/// the live Changed signal to each subscriber; the MPRIS player's PropertiesChanged and Seeked.
///
/// Signals caused by a method call are queued before that call's reply (listeners run while the
/// call is handled): a caller that sees the reply has already been sent every signal of its
/// change. The interface XML says so, and a test checks it.
struct BusSignals {
    let server: ObjectServer

    // MARK: Timers

    /// A listener of committed timer events: one PropertiesChanged per changed timer per batch
    /// carrying only the values that changed, InterfacesAdded/Removed, and Expired. A pre-alert
    /// (`.warning`) has no signal of its own: it is a desktop notification only.
    ///
    /// A batch's Expired signals leave first: they are what subscribers wait for, and each
    /// carries what it needs (id, path, deadline, when it fired). The expired timer's
    /// PropertiesChanged follows in the same wake-up, so that marshalling it, and the bus routing
    /// it, never delay an Expired.
    func timersChanged(_ events: [TimerEvent]) {
        for case .expired(let id, let deadline, let fired) in events {
            server.emitSignal(
                path: RestBus.managerPath, interface: RestBus.managerInterface, name: ManagerMember.expired,
                arguments: [
                    .string(id.rawValue), .objectPath(RestBus.timerPath(id: id.rawValue)), .uint64(deadline),
                    .uint64(fired),
                ])
        }
        for event in events {
            switch event {
            case .added(let timer):
                server.emitInterfacesAdded(path: RestBus.timerPath(id: timer.id.rawValue))
            case .changed(let old, let new):
                let changed = TimerProperties.changed(from: old, to: new)
                guard !changed.isEmpty else { continue }
                server.emitPropertiesChanged(
                    path: RestBus.timerPath(id: new.id.rawValue),
                    interface: RestBus.timerInterface, changed: changed)
            case .removed(let timer):
                server.emitInterfacesRemoved(
                    path: RestBus.timerPath(id: timer.id.rawValue),
                    interfaces: [RestBus.timerInterface])
            case .expired, .warning:
                continue
            }
        }
    }

    // MARK: The Manager

    /// DefaultDurationUSec after a reload changed it.
    func defaultDurationChanged(_ usec: USec) {
        server.emitPropertiesChanged(
            path: RestBus.managerPath, interface: RestBus.managerInterface,
            changed: [ManagerProperty.defaultDurationUSec: .uint64(usec)])
    }

    /// NotificationServer when a notification server came, left, or could not be started.
    func notificationServerChanged(_ notificationServer: NotificationServerState) {
        server.emitPropertiesChanged(
            path: RestBus.managerPath, interface: RestBus.managerInterface,
            changed: [ManagerProperty.notificationServer: .string(notificationServer.rawValue)])
    }

    // MARK: The history

    /// A listener of committed sets: SetRecorded, with the set and the rest it started.
    func setRecorded(_ set: PlannedSet) {
        server.emitSignal(
            path: RestBus.historyPath, interface: RestBus.historyInterface, name: HistoryMember.setRecorded,
            arguments: [HistoryEntries.recorded(set)])
    }

    // MARK: The workout

    /// The workout started, moved or ended: PropertiesChanged of the workout object, with
    /// every property (they change together).
    func workoutChanged(_ properties: [String: DBusValue]) {
        server.emitPropertiesChanged(
            path: RestBus.workoutPath, interface: RestBus.workoutInterface, changed: properties)
    }

    // MARK: The live activity

    /// The broadcast: PropertiesChanged of the live object.
    func liveChanged(_ properties: [String: DBusValue]) {
        server.emitPropertiesChanged(path: RestBus.livePath, interface: RestBus.liveInterface, changed: properties)
    }

    /// One subscriber's stream: the unicast Changed signal.
    func liveChanged(_ fields: [String: LiveValue], atUSec: USec, to subscriber: String) {
        server.emitSignal(
            path: RestBus.livePath, interface: RestBus.liveInterface, name: LiveMember.changed,
            arguments: [LiveArguments.dictionary(fields), .uint64(atUSec)], destination: subscriber)
    }

    // MARK: The MPRIS player

    /// PropertiesChanged of org.mpris.MediaPlayer2.Player: the values that changed (never Position).
    func mediaPlayerChanged(_ properties: [String: DBusValue]) {
        server.emitPropertiesChanged(
            path: MediaPlayerBus.path, interface: MediaPlayerBus.playerInterface,
            changed: properties)
    }

    /// Seeked: the position moved other than by playing (time added or removed, a run restarted).
    func mediaPlayerSeeked(positionUSec: USec) {
        server.emitSignal(
            path: MediaPlayerBus.path, interface: MediaPlayerBus.playerInterface, name: MediaPlayerMember.seeked,
            arguments: [.int64(Int64(clamping: positionUSec))])
    }
}
