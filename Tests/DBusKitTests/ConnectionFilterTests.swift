import ProcessHarness
import Testing

@testable import DBusKit

/// What a connection's filters see, over a private bus: a filter of every message sees method
/// calls and signals; a signal filter sees only the signals, and a call passes it on to the
/// object server unwrapped.
@Suite(.serialized) final class ConnectionFilterTests {
    private let bus: PrivateBus
    private let server: Connection
    private let client: Connection
    private let objects: ObjectServer
    /// The members each kind of filter saw, in order.
    private var seenByFilter: [String] = []
    private var seenBySignalFilter: [String] = []
    private var callsAnswered = 0

    init() throws {
        bus = try PrivateBus(prefix: "dbuskit-filter")
        server = try Connection.open(address: bus.address)
        client = try Connection.open(address: bus.address)
        objects = try ObjectServer(connection: server)
        objects.export(
            path: "/org/example/thing",
            interfaces: [
                ExportedInterface(
                    InterfaceDescription(name: "org.example.Thing", methods: [.init("Poke")]),
                    call: { [unowned self] _ throws(DBusError) in
                        callsAnswered += 1
                        return []
                    })
            ])
        server.addFilter { [unowned self] message in
            seenByFilter.append(message.member ?? "?")
            return false
        }
        server.addSignalFilter { [unowned self] message in
            #expect(message.kind == .signal)
            seenBySignalFilter.append(message.member ?? "?")
            return false
        }
        try server.addMatch("type='signal',interface='org.example.Thing'")
    }

    deinit { bus.stop() }

    @Test func aSignalFilterSeesSignalsAndNotTheCallsServed() throws {
        let call = try Message.methodCall(
            destination: server.uniqueName, path: "/org/example/thing", interface: "org.example.Thing", member: "Poke")
        let signal = try Message.signal(path: "/org/example/thing", interface: "org.example.Thing", name: "Poked")
        #expect(client.send(call))
        #expect(client.send(signal))
        client.flush()

        let deadline = Deadline(secondsFromNow: 10)
        while !seenBySignalFilter.contains("Poked") || callsAnswered == 0 {
            guard !deadline.hasPassed else {
                Issue.record("timed out waiting for the call and the signal")
                return
            }
            _ = server.readWriteDispatch(timeoutMilliseconds: 100)
        }
        #expect(callsAnswered == 1)
        #expect(seenByFilter.filter { $0 != "NameAcquired" } == ["Poke", "Poked"])
        #expect(seenBySignalFilter.filter { $0 != "NameAcquired" } == ["Poked"])
    }

    @Test func libdbusDisconnectedReachesASignalFilter() throws {
        bus.kill()
        let deadline = Deadline(secondsFromNow: 10)
        while server.readWriteDispatch(timeoutMilliseconds: 100) {
            guard !deadline.hasPassed else {
                Issue.record("the connection did not notice the bus going away")
                return
            }
        }
        #expect(seenBySignalFilter.last == "Disconnected")
    }

    @Test func aRemovedSignalFilterSeesNothingMore() throws {
        var seen = 0
        let token = server.addSignalFilter { message in
            if message.member == "Poked" { seen += 1 }
            return false
        }
        server.removeFilter(token)
        let signal = try Message.signal(path: "/org/example/thing", interface: "org.example.Thing", name: "Poked")
        #expect(client.send(signal))
        client.flush()
        let deadline = Deadline(secondsFromNow: 10)
        while !seenBySignalFilter.contains("Poked") {
            guard !deadline.hasPassed else {
                Issue.record("timed out waiting for the signal")
                return
            }
            _ = server.readWriteDispatch(timeoutMilliseconds: 100)
        }
        #expect(seen == 0)
    }
}
