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
        let ping = try Message.methodCall(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
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
    /// Blocks in the connection's own read, not a polling loop; `givingUpIf` (a reason the
    /// signal can no longer come, such as its sender's process having ended) is read at least
    /// every 100 ms.
    @discardableResult
    func waitFor(
        timeout: Double = 30, _ description: String = "signal",
        givingUpIf ended: () -> String? = { nil },
        where predicate: (Message) -> Bool
    ) throws -> Message {
        let deadline = Deadline(secondsFromNow: timeout)
        var checked = 0
        while true {
            let reason = ended()
            while checked < received.count {
                let message = received[checked]
                checked += 1
                if predicate(message) { return message }
            }
            if let reason { throw HarnessError.failed("gave up waiting for \(description): \(reason)") }
            guard !deadline.hasPassed else { throw HarnessError.timedOut("waiting for \(description)") }
            _ = connection.readWriteDispatch(timeoutMilliseconds: 100)
        }
    }
}

extension SignalWatcher {
    /// Watches `name` change hands on `bus`: make it before starting the process that takes the
    /// name, so its NameOwnerChanged cannot pass unseen.
    static func nameOwner(_ name: String, bus: any BusEndpoint) throws -> SignalWatcher {
        try SignalWatcher(bus: bus, rules: [MessageBus.nameOwnerChangedRule(name: name)])
    }

    /// Waits for the NameOwnerChanged that gives the watched name to `child` (the name may
    /// first leave a process that was killed just before); returns the new owner's unique name.
    /// Gives up early, with `details`, if `child` ends first.
    func waitForOwner(
        _ child: ChildProcess, _ description: String, timeout: Double = 30,
        details: () -> String
    ) throws -> String {
        do {
            let acquired = try waitFor(
                timeout: timeout, "\(description) to own its name",
                givingUpIf: { child.termination.map { "it \($0)" } }
            ) { message in
                guard let owner = message.nameOwnerChange?.newOwner, !owner.isEmpty else { return false }
                return processID(of: owner) == UInt32(child.pid)
            }
            return acquired.nameOwnerChange!.newOwner
        } catch {
            throw HarnessError.failed("\(error)\n\(details())")
        }
    }

    /// The process behind a unique name, nil once it has left the bus.
    private func processID(of uniqueName: String) -> UInt32? {
        guard
            let call = try? Message.methodCall(
                destination: MessageBus.name, path: MessageBus.path,
                interface: MessageBus.interface, member: "GetConnectionUnixProcessID"),
            (try? call.append([.string(uniqueName)])) != nil,
            case .uint32(let pid)? = try? connection.callBlocking(call, timeoutMilliseconds: 30_000).arguments().first
        else { return nil }
        return pid
    }
}

extension Message {
    /// For a PropertiesChanged signal: the changed properties.
    var changedProperties: [String: DBusValue] {
        arguments().dropFirst().first?.vardictEntries ?? [:]
    }
}
