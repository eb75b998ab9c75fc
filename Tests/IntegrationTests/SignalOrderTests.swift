import DBusKit
import Foundation
import ProcessHarness
import RestClient
import RestProtocol
import Testing

/// The order a caller sees: every signal of a change comes before the reply of the call that
/// made it (documented in dbus/io.restd.Rest1.xml). Checked on one connection, in the order
/// messages arrive on its socket.
@Suite("Signals before replies", .tags(.everyBus))
struct SignalOrderTests {
    @Test(
        "a method's PropertiesChanged, InterfacesAdded and Expired arrive before its reply",
        arguments: ["Pause", "Start", "Adjust"])
    func signalsBeforeReply(_ method: String) throws {
        let daemon = try RunningDaemon()
        try daemon.client.start(id: "tea", durationUSec: 600_000_000)
        let connection = try Connection.open(address: daemon.bus.address)
        try connection.addMatch("type='signal',sender='\(RestBus.name)'")
        var arrivals: [String] = []
        _ = connection.addFilter { message in
            switch message.kind {
            case .signal where message.sender != MessageBus.name: arrivals.append(message.member ?? "?")
            case .methodReturn: arrivals.append("reply")
            case .error: arrivals.append("error \(message.errorName ?? "")")
            default: break
            }
            return true
        }
        let call: Message
        let expected: [String]
        switch method {
        case "Pause":
            call = try Message.methodCall(
                destination: RestBus.name, path: RestBus.managerPath,
                interface: RestBus.managerInterface, member: "Pause")
            try call.append(.string("tea"))
            expected = ["PropertiesChanged", "reply"]
        case "Start":
            call = try Message.methodCall(
                destination: RestBus.name, path: RestBus.managerPath,
                interface: RestBus.managerInterface, member: "Start")
            try call.append(.string("new"), .uint64(60_000_000), .dictionary(key: .string, value: .variant, []))
            expected = ["InterfacesAdded", "reply"]
        default:
            // Shortened to nothing: the timer expires within the call. Expired leaves before
            // the timer's PropertiesChanged (TimerObject.emit).
            call = try Message.methodCall(
                destination: RestBus.name, path: RestBus.managerPath,
                interface: RestBus.managerInterface, member: "Adjust")
            try call.append(.string("tea"), .int64(-600_000_000))
            expected = ["Expired", "PropertiesChanged", "reply"]
        }
        #expect(connection.send(call))
        let deadline = Deadline(secondsFromNow: 30)
        while !arrivals.contains(where: { $0 == "reply" || $0.hasPrefix("error") }), !deadline.hasPassed {
            _ = connection.readWriteDispatch(timeoutMilliseconds: 100)
        }
        #expect(arrivals == expected)
    }
}
