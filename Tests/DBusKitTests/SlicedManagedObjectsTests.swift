import CDBus
import Glibc
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
    /// The GetManagedObjects calls the server has read.
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
            if message.member == "GetManagedObjects" { callsRead += 1 }
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
                    property: { [unowned self] name in
                        switch name {
                        case "State": states[path].map { .string($0) }
                        case "Index": .uint32(UInt32(n))
                        default: nil
                        }
                    })
            ])
    }

    private func remove(_ n: Int) {
        server.unexport(path: path(n))
        server.emitInterfacesRemoved(path: path(n), interfaces: [Self.interface.name])
    }

    private func change(_ n: Int, to state: String) {
        states[path(n)] = state
        server.emitPropertiesChanged(path: path(n), interface: Self.interface.name, changed: ["State": .string(state)])
    }

    /// Sends GetManagedObjects and lets the server handle it (the first slice, or all of it);
    /// returns the call's serial.
    private func callGetManagedObjects() throws -> UInt32 {
        let call = try Message.methodCall(
            destination: serverConnection.uniqueName, path: "/org/example",
            interface: InterfaceDescription.objectManager.name, member: "GetManagedObjects")
        #expect(clientConnection.send(call))
        clientConnection.flush()
        let readBefore = callsRead
        try waitUntil("the server handled the call") {
            serverConnection.dispatchAvailable()
            return callsRead > readBefore
        }
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

    /// Reads until the client has `count` messages.
    private func receive(_ count: Int) throws {
        try waitUntil("\(count) messages reached the client") {
            clientConnection.dispatchAvailable()
            return received.count >= count
        }
    }

    private func waitUntil(_ what: String, _ condition: () -> Bool) throws {
        for _ in 0..<2_000 {
            if condition() { return }
            usleep(5_000)
        }
        Issue.record("timed out waiting: \(what)")
        throw CancellationError()
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
        remove(1)  // already written: listed, then removed
        remove(4)  // not written yet: left out
        change(5, to: "paused")  // written after the change
        let second = try callGetManagedObjects()  // waits behind the first
        change(6, to: "expired")
        #expect(received.isEmpty)
        runSlices()
        try receive(6)

        let order = received.map { message in
            message.kind == .methodReturn
                ? "reply \(message.replySerial == first ? 1 : message.replySerial == second ? 2 : 0)"
                : "\(message.member ?? "") \(message.path ?? "")"
        }
        #expect(
            order == [
                "reply 1", "InterfacesRemoved /org/example", "InterfacesRemoved /org/example",
                "PropertiesChanged /org/example/t5", "reply 2", "PropertiesChanged /org/example/t6",
            ], "\(order)")
        let firstReply = objects(received[0])
        #expect(firstReply.keys.sorted() == [path(0), path(1), path(2), path(3), path(5), path(6)])
        #expect(firstReply[path(5)]?.state == "paused" && firstReply[path(6)]?.state == "expired")
        let secondReply = objects(received[4])
        #expect(secondReply.keys.sorted() == [path(0), path(2), path(3), path(5), path(6)])
    }

    @Test func stoppingFinishesTheReplyInProgress() throws {
        server.continueLater = { [unowned self] work in continuations.append(work) }
        _ = try callGetManagedObjects()
        change(2, to: "paused")
        server.finishReplies()
        serverConnection.flush()
        try receive(2)
        #expect(received.map(\.kind) == [.methodReturn, .signal])
        #expect(objects(received[0]).count == 7)
        continuations.forEach { $0() }  // a slice asked for before: nothing left to do
        serverConnection.flush()
        clientConnection.dispatchAvailable()
        #expect(received.count == 2)
    }
}
