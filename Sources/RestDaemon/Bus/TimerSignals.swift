import DBusKit
import RestCore
import RestProtocol

/// Announces committed timer events on the bus: one PropertiesChanged per changed timer per
/// batch carrying only the values that changed, InterfacesAdded/Removed, and Expired.
/// A pre-alert (`.warning`) has no signal of its own: it is a desktop notification only.
struct TimerSignals {
    let server: ObjectServer

    func publish(_ events: [TimerEvent]) {
        for event in events {
            switch event {
            case .added(let timer):
                server.emitInterfacesAdded(path: RestBus.timerPath(id: timer.id.rawValue))
            case .changed(let old, let new):
                let changed = TimerProperties.changed(from: old, to: new)
                guard !changed.isEmpty else { continue }
                server.emitPropertiesChanged(path: RestBus.timerPath(id: new.id.rawValue),
                                             interface: RestBus.timerInterface, changed: changed)
            case .removed(let timer):
                server.emitInterfacesRemoved(path: RestBus.timerPath(id: timer.id.rawValue),
                                             interfaces: [RestBus.timerInterface])
            case .expired(let id, let deadline, let fired):
                let path = RestBus.timerPath(id: id.rawValue)
                server.emitSignal(path: RestBus.managerPath, interface: RestBus.managerInterface, name: "Expired",
                                  arguments: [.string(id.rawValue), .objectPath(path), .uint64(deadline), .uint64(fired)])
            case .warning:
                continue
            }
        }
    }
}
