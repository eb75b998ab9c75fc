import DBusKit
import Foundation
import ProcessHarness

/// Listens on the test bus with the project's own binding and waits for signals, so that
/// tests wait for events instead of sleeping.
final class SignalWatcher {
    let connection: Connection
    private(set) var received: [Message] = []

    init(bus: any BusEndpoint, rules: [String]) throws {
        connection = try Connection.open(address: bus.address)
        for rule in rules { try connection.addMatch(rule) }
        connection.addFilter { [unowned self] message in
            if message.kind == .signal { self.received.append(message) }
            return false
        }
        // Make sure the bus has processed the match rules before the test acts.
        let ping = try Message.methodCall(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                          interface: "org.freedesktop.DBus.Peer", member: "Ping")
        _ = try connection.callBlocking(ping, timeoutMilliseconds: 30_000)
    }

    /// Signals from restd's objects, in arrival order.
    static func restd(bus: any BusEndpoint) throws -> SignalWatcher {
        try SignalWatcher(bus: bus, rules: ["type='signal',sender='io.restd.Rest1'"])
    }

    /// Reads what has arrived and forgets it: for long tests whose peer only has to keep reading.
    func discardReceived() {
        connection.dispatchAvailable()
        received.removeAll()
    }

    /// Waits until a received signal satisfies `predicate` (generous timeout); returns it.
    @discardableResult
    func waitFor(timeout: Double = 30, _ description: String = "signal",
                 where predicate: (Message) -> Bool) throws -> Message {
        let deadline = Date().addingTimeInterval(timeout)
        var checked = 0
        while true {
            while checked < received.count {
                let message = received[checked]
                checked += 1
                if predicate(message) { return message }
            }
            guard Date() < deadline else { throw HarnessError.timedOut("waiting for \(description)") }
            _ = connection.readWriteDispatch(timeoutMilliseconds: 100)
        }
    }
}

extension Message {
    /// For a PropertiesChanged signal: the changed properties.
    var changedProperties: [String: DBusValue] {
        arguments().dropFirst().first?.vardictEntries ?? [:]
    }
}
