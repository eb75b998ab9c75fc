import ProcessHarness
import Testing

@testable import DBusKit

/// Several calls sent at once and waited for together, against a real dbus-daemon: each gets its
/// own answer, in the order of the calls, an error reply as that call's failure.
@Suite struct PipelinedCallsTests {
    @Test func eachCallGetsItsOwnAnswerInOrder() throws {
        let bus = try PrivateBus(prefix: "dbuskit-pipelined")
        defer { bus.stop() }
        let client = try Connection.open(address: bus.address)
        func driverCall(_ member: String, _ name: String) throws -> Message {
            let message = try Message.methodCall(
                destination: MessageBus.name, path: MessageBus.path, interface: MessageBus.interface, member: member)
            try message.append([.string(name)])
            return message
        }
        let replies = client.callBlocking(
            [
                try driverCall("NameHasOwner", MessageBus.name), try driverCall("GetNameOwner", "org.example.Nobody"),
                try driverCall("NameHasOwner", "org.example.Nobody"),
            ], timeoutMilliseconds: 5_000)
        #expect(replies.count == 3)
        #expect((try? replies[0].get().arguments()) == [.boolean(true)])
        #expect(throws: DBusError.self) { try replies[1].get() }
        if case .failure(let error) = replies[1] { #expect(error.hasName(.nameHasNoOwner), "\(error)") }
        #expect((try? replies[2].get().arguments()) == [.boolean(false)])

        // A closed connection fails every call, without waiting.
        client.close()
        let closed = client.callBlocking([try driverCall("NameHasOwner", MessageBus.name)], timeoutMilliseconds: 5_000)
        if case .failure(let error) = closed.first {
            #expect(error.hasName(.disconnected))
        } else {
            Issue.record("a call on a closed connection answered: \(closed)")
        }
    }
}
