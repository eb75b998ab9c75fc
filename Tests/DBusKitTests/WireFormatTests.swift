import CDBus
import SeededRandom
import Testing

@testable import DBusKit

/// `Message.append` (the body written in the wire format, loaded by libdbus) against libdbus's
/// own append iterator (`MessageWriter`, value by value): the same message, byte for byte.
@Suite struct WireFormatTests {
    private func signal() throws -> Message {
        try Message.signal(path: "/io/example", interface: "org.example.I", name: "S")
    }

    /// `values` written both ways into messages made by `make`: their bytes on the wire.
    private func bothWays(
        _ values: [DBusValue], _ make: () throws -> Message
    ) throws -> (wire: [UInt8], iterator: [UInt8]) {
        let whole = try make()
        try whole.append(values)
        let byValue = try make()
        try byValue.write { body throws(DBusKit.DBusError) in
            for value in values { try body.append(value) }
        }
        return (wireBytes(whole), wireBytes(byValue))
    }

    @Test func alignmentAndPaddingAreLibdbusOwn() throws {
        let cases: [[DBusValue]] = [
            [.byte(1), .uint64(2)],
            [.byte(1), .int16(-2), .boolean(true), .double(0.5), .signature("a{sv}"), .objectPath("/a")],
            // An empty array still pads to its elements' alignment.
            [.byte(1), .array(.uint64, []), .byte(2), .array(.structure([.byte]), [])],
            [.byte(1), .dictionary(key: .int64, value: .variant, [.init(.int64(-1), .variant(.byte(3)))])],
            [.variant(.array(.structure([.byte, .uint64]), [.structure([.byte(1), .uint64(2)])]))],
            [.string(""), .array(.byte, [.byte(0)]), .variant(.variant(.string("Kniebeuge 🏋️")))],
            [.structure([.byte(9), .structure([.uint16(1), .array(.double, [.double(1), .double(2)])])])],
            [.vardict(["label": .string("Squat"), "ends": .uint64(.max), "tags": .strings(["a", "b"])]), .int32(-1)],
        ]
        for values in cases {
            let (fromWire, fromIterator) = try bothWays(values, signal)
            #expect(fromWire == fromIterator, "\(values)")
        }
    }

    @Test func theHeaderKeepsEveryFieldAndFlagLibdbusSet() throws {
        let values: [DBusValue] = [.string("restd"), .uint32(0), .array(.string, []), .int32(-1)]
        let call = {
            let call = try Message.methodCall(
                destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                interface: "org.freedesktop.Notifications", member: "Notify")
            call.noReplyExpected = true
            dbus_message_set_auto_start(call.raw, 0)
            return call
        }
        let (callWire, callIterator) = try bothWays(values, call)
        #expect(callWire == callIterator)

        let incoming = try call()
        dbus_message_set_serial(incoming.raw, 42)
        dbus_message_set_sender(incoming.raw, ":1.7")
        let (replyWire, replyIterator) = try bothWays(values) { incoming.makeReturn() }
        #expect(replyWire == replyIterator)
        let reply = incoming.makeReturn()
        try reply.append(values)
        #expect(reply.replySerial == 42 && reply.destination == ":1.7" && reply.kind == .methodReturn)
        #expect(reply.serial == 0, "the connection numbers the message when it sends it")

        let unicast = {
            let signal = try signal()
            try signal.setDestination(":1.9")
            return signal
        }
        let (signalWire, signalIterator) = try bothWays(values, unicast)
        #expect(signalWire == signalIterator)
    }

    /// Many values of random shape (a fixed seed, so every run checks the same ones).
    @Test func randomValuesAreTheSameBytes() throws {
        var random = SplitMix64(state: 26)
        for _ in 0..<300 {
            let values = (0..<random.next(upTo: 5)).map { _ in RandomValues.value(&random) }
            let (fromWire, fromIterator) = try bothWays(values, signal)
            #expect(fromWire == fromIterator, "\(values)")
        }
    }

    @Test func whatLibdbusWouldRefuseIsAnErrorAndLeavesTheMessageEmpty() throws {
        let message = try signal()
        // A signature past 255 bytes.
        #expect(throws: DBusKit.DBusError.self) { try message.append(Array(repeating: .byte(1), count: 256)) }
        // Arrays nested deeper than D-Bus's 32.
        var deep = DBusValue.array(.byte, [])
        for _ in 0..<33 { deep = .array(deep.type, [deep]) }
        #expect(throws: DBusKit.DBusError.self) { try message.append([deep]) }
        // File descriptors cannot travel in bytes alone.
        #expect(throws: DBusKit.DBusError.self) { try message.append([.unixFD(0)]) }
        // A variant whose signature is past 255 bytes.
        let wide = DBusValue.structure(Array(repeating: .byte(1), count: 254))
        #expect(throws: DBusKit.DBusError.self) { try message.append([.variant(wide)]) }
        #expect(message.signature == "")

        try message.append([.string("first")])
        #expect(throws: DBusKit.DBusError.self) { try message.append([.string("second")]) }
        #expect(message.arguments() == [.string("first")])
    }

    /// Values of the wrong type whose bytes libdbus would load without complaint: only
    /// validation stands between them and the wire.
    @Test func mistypedValuesAreRefusedThoughTheirBytesWouldLoad() throws {
        let mistyped: [DBusValue] = [
            .array(.int32, [.uint32(1)]),
            .array(.byte, [.boolean(true)]),
            .dictionary(key: .string, value: .int32, [.init(.string("a"), .uint32(1))]),
        ]
        for value in mistyped {
            let message = try signal()
            #expect(throws: DBusKit.DBusError.self, "\(value)") { try message.append([value]) }
            #expect(throws: DBusKit.DBusError.self, "\(value)") {
                try message.appendVardicts([[(key: "field", value: value)]])
            }
            #expect(message.signature == "")
        }
    }

    @Test func aMessageWrittenInPiecesIsNotGivenABodyWhole() throws {
        let message = try signal()
        var writer = MessageWriter(appendingTo: message)
        var array = try writer.openArray(of: "s")
        #expect(throws: DBusKit.DBusError.self) { try message.append([.string("whole")]) }
        try array.append(.string("piece"))
        try writer.close(&array)
        #expect(message.arguments() == [.strings(["piece"])])
    }

    /// A message in big-endian byte order (as libdbus loaded it): its body is written big-endian
    /// too. libdbus's own iterator turns a message to this machine's order before it writes, so
    /// the comparison is with our message after libdbus has turned it the same way.
    @Test func aBigEndianHeaderGetsABigEndianBody() throws {
        let values: [DBusValue] = [
            .byte(1), .uint64(0x0102_0304_0506_0708), .double(-2.5), .vardict(["n": .int16(-2)]),
        ]
        let whole = try bigEndianSignal()
        try whole.append(values)
        #expect(wireBytes(whole).first == UInt8(ascii: "B"))
        #expect(whole.arguments() == values)

        var turn = DBusMessageIter()
        dbus_message_iter_init_append(whole.raw, &turn)
        let byValue = try bigEndianSignal()
        try byValue.write { body throws(DBusKit.DBusError) in
            for value in values { try body.append(value) }
        }
        #expect(wireBytes(byValue).first == UInt8(ascii: "l"))
        #expect(wireBytes(whole) == wireBytes(byValue))
    }
}
