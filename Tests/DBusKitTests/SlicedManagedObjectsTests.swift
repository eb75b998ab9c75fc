import CDBus
import ProcessHarness
import Testing

@testable import DBusKit

/// GetManagedObjects written in slices (`ObjectServer.continueLater`) over a private bus: the
/// reply lists what a reply written at once lists, and what the server sends while a reply is in
/// progress leaves after it, in the order it was made.
@Suite(.serialized) final class SlicedManagedObjectsTests {
    private let bus: PrivateBus
    private let serverConnection: Connection
    private let clientConnection: Connection
    private let server: ObjectServer
    /// Each object's State, read when its slice is written.
    private var states: [String: String] = [:]
    /// The slices the server asked to come back for, run by the test.
    private var continuations: [() -> Void] = []
    /// What the client received from the server (replies and signals), in order.
    private var received: [Message] = []
    /// The method calls the server has read.
    private var callsRead = 0

    private static let interface = InterfaceDescription(
        name: "org.example.Timer", properties: [.init("State", .string), .init("Index", .uint32)])

    init() throws {
        bus = try PrivateBus(prefix: "dbuskit-bus")
        serverConnection = try Connection.open(address: bus.address)
        clientConnection = try Connection.open(address: bus.address)
        server = try ObjectServer(connection: serverConnection)
        server.addObjectManager(at: "/org/example")
        server.objectsPerSlice = 2
        for n in 0..<7 { add(n) }
        try clientConnection.addMatch("type='signal',sender='\(serverConnection.uniqueName)'")
        let serverName = serverConnection.uniqueName
        clientConnection.addFilter { [unowned self] message in
            guard message.sender == serverName else { return false }
            received.append(message)
            return true
        }
        serverConnection.addFilter { [unowned self] message in
            if message.kind == .methodCall { callsRead += 1 }
            return false  // on to the object server
        }
    }

    deinit { bus.stop() }

    private func path(_ n: Int) -> String { "/org/example/t\(n)" }

    private func add(_ n: Int) {
        let path = path(n)
        states[path] = "running"
        server.export(
            path: path,
            interfaces: [
                ExportedInterface(
                    Self.interface,
                    propertyReader: { [unowned self] in
                        { name in
                            switch name {
                            case "State": self.states[path].map { .string($0) }
                            case "Index": .uint32(UInt32(n))
                            default: nil
                            }
                        }
                    })
            ])
    }

    private func change(_ n: Int, to state: String) {
        states[path(n)] = state
        server.emitPropertiesChanged(path: path(n), interface: Self.interface.name, changed: ["State": .string(state)])
    }

    /// Sends GetManagedObjects and lets the server handle it (the first slice, or all of it);
    /// returns the call's serial.
    private func callGetManagedObjects() throws -> UInt32 {
        try call("/org/example", InterfaceDescription.objectManager.name, "GetManagedObjects")
    }

    /// Sends a call and lets the server handle it; returns the call's serial.
    private func call(
        _ path: String, _ interface: String, _ member: String, _ arguments: DBusValue...
    ) throws
        -> UInt32
    {
        let call = try Message.methodCall(
            destination: serverConnection.uniqueName, path: path, interface: interface, member: member)
        try call.append(arguments)
        #expect(clientConnection.send(call))
        clientConnection.flush()
        let readBefore = callsRead
        try waitUntil("the server handled the call", reading: serverConnection) { callsRead > readBefore }
        serverConnection.flush()
        return call.serial
    }

    /// Runs the slices the server asked for, until it asks for none.
    private func runSlices() {
        while !continuations.isEmpty {
            let due = continuations
            continuations.removeAll()
            for work in due { work() }
        }
        serverConnection.flush()
    }

    /// Sends a signal past the object server's queue and waits until the client has it: what
    /// the client received before it is all the server had let out until then.
    private func receiveMarker() throws {
        let marker = try Message.signal(path: "/org/example", interface: "org.example.Test", name: "Marker")
        #expect(serverConnection.send(marker))
        serverConnection.flush()
        try waitUntil("the marker reached the client", reading: clientConnection) {
            received.last?.member == "Marker"
        }
        received.removeLast()
    }

    /// Reads until the client has `count` messages.
    private func receive(_ count: Int) throws {
        try waitUntil("\(count) messages reached the client", reading: clientConnection) { received.count >= count }
    }

    /// Reads and dispatches what reaches `connection` until `condition` holds, blocking in the
    /// connection's own read (as the integration tests' SignalWatcher does), at most 10 s.
    private func waitUntil(_ what: String, reading connection: Connection, _ condition: () -> Bool) throws {
        let deadline = Deadline(secondsFromNow: 10)
        while !condition() {
            guard !deadline.hasPassed else {
                Issue.record("timed out waiting: \(what)")
                throw CancellationError()
            }
            _ = connection.readWriteDispatch(timeoutMilliseconds: 100)
        }
    }

    /// A reply's objects: path → State, Index.
    private func objects(_ reply: Message) -> [String: (state: String?, index: UInt32?)] {
        var result: [String: (state: String?, index: UInt32?)] = [:]
        for entry in reply.arguments().first?.dictEntries ?? [] {
            guard case .objectPath(let path) = entry.key else { continue }
            let properties = entry.value.dictEntries?.first { $0.key == .string(Self.interface.name) }?.value
            let values = properties?.vardictEntries ?? [:]
            result[path] = (values["State"]?.string, values["Index"]?.uint64.map { UInt32($0) })
        }
        return result
    }

    @Test func aSlicedReplyListsWhatAReplyWrittenAtOnceLists() throws {
        _ = try callGetManagedObjects()
        try receive(1)
        server.continueLater = { [unowned self] work in continuations.append(work) }
        _ = try callGetManagedObjects()
        #expect(continuations.count == 1)  // 7 objects, 2 per slice: more to come
        runSlices()
        try receive(2)
        #expect(received.map(\.kind) == [.methodReturn, .methodReturn])
        #expect(received[1].signature == "a{oa{sa{sv}}}")
        #expect(received[1].arguments() == received[0].arguments())
        #expect(objects(received[1]).count == 7)
    }

    @Test func whatChangesMeanwhileLeavesAfterTheReply() throws {
        server.continueLater = { [unowned self] work in continuations.append(work) }
        let first = try callGetManagedObjects()  // writes t0, t1
        server.unexport(path: path(1))  // already written: listed
        server.emitInterfacesRemoved(path: path(3), interfaces: [Self.interface.name])  // not yet written: left out
        server.unexport(path: path(4))  // not yet written: left out
        change(5, to: "paused")  // written after the change
        let get = try call(
            path(0), InterfaceDescription.properties.name, "Get", .string(Self.interface.name), .string("State"))
        let unknown = try call(path(0), Self.interface.name, "Nope")
        let second = try callGetManagedObjects()  // waits, and lists its objects when it starts
        server.unexport(path: path(2))  // after the second call arrived: in neither reply
        change(6, to: "expired")
        try receiveMarker()
        #expect(received.isEmpty, "\(received.map(\.member))")  // all of it waits behind the first reply

        runSlices()
        try receive(7)
        let order = received.map { message in
            switch message.replySerial {
            case first: "reply 1"
            case second: "reply 2"
            case get: "Get \(message.kind)"
            case unknown: "Nope \(message.kind)"
            default: "\(message.member ?? "") \(message.path ?? "")"
            }
        }
        #expect(
            order == [
                "reply 1", "InterfacesRemoved /org/example", "PropertiesChanged /org/example/t5", "Get methodReturn",
                "Nope error", "reply 2", "PropertiesChanged /org/example/t6",
            ], "\(order)")
        let firstReply = objects(received[0])
        #expect(firstReply.keys.sorted() == [path(0), path(1), path(5), path(6)])
        #expect(firstReply[path(5)]?.state == "paused" && firstReply[path(6)]?.state == "expired")
        #expect(received[3].arguments() == [.variant(.string("running"))])
        let secondReply = objects(received[5])
        #expect(secondReply.keys.sorted() == [path(0), path(3), path(5), path(6)])
    }

    @Test func turningSlicesOffFinishesTheReplyInProgress() throws {
        server.continueLater = { [unowned self] work in continuations.append(work) }
        _ = try callGetManagedObjects()
        change(2, to: "paused")
        server.continueLater = nil
        serverConnection.flush()
        try receive(2)
        #expect(received.map(\.kind) == [.methodReturn, .signal])
        #expect(objects(received[0]).count == 7)
        continuations.forEach { $0() }  // a slice asked for before: nothing left to do
        try receiveMarker()
        #expect(received.count == 2)
    }
}
