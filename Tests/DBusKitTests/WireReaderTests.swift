import CDBus
import Glibc
import SeededRandom
import Testing

@testable import DBusKit

/// `WireReader` (a body read from its bytes) against libdbus's iterator (`Message.arguments`):
/// the same values from the same messages.
@Suite struct WireReaderTests {
    private func signal() throws -> Message {
        try Message.signal(path: "/io/example", interface: "org.example.I", name: "S")
    }

    /// Every value of the body, read from its bytes; nil when the reader gives up (a file
    /// descriptor).
    private func readFromBytes(_ message: Message, types: [DBusType]) -> [DBusValue]? {
        WireReader.withBody(of: message.raw) { reader -> [DBusValue]? in
            var values: [DBusValue] = []
            for type in types {
                guard let value = reader.read(type) else { return nil }
                values.append(value)
            }
            return reader.atEnd ? values : nil
        }
    }

    @Test func randomValuesReadTheSameBothWays() throws {
        var random = SplitMix64(state: 27)
        for _ in 0..<300 {
            let values = (0..<(1 + random.next(upTo: 4))).map { _ in RandomValues.value(&random) }
            let message = try signal()
            try message.append(values)
            #expect(readFromBytes(message, types: values.map(\.type)) == message.arguments(), "\(values)")
            #expect(message.arguments() == values)
        }
    }

    @Test func recordsReadTheSameBothWays() throws {
        var random = SplitMix64(state: 28)
        for _ in 0..<50 {
            let records: [[(key: String, value: DBusValue)]] = (0..<random.next(upTo: 6)).map { _ in
                (0..<random.next(upTo: 8)).map { index in ("key \(index)", RandomValues.value(&random)) }
            }
            let message = try signal()
            try message.appendVardicts(records)
            let fromIterator = try #require(message.arguments().first?.arrayElements).map { record in
                record.vardictEntries ?? [:]
            }
            #expect(message.recordsArgument() == fromIterator)
            #expect(fromIterator.map { $0.count } == records.map { $0.count })

            let vardict = try signal()
            let pairs = records.first ?? []
            try vardict.appendVardicts([pairs])
            let single = try signal()
            try single.append(
                .dictionary(key: .string, value: .variant, pairs.map { .init(.string($0.key), .variant($0.value)) }))
            #expect(single.vardictArgument() == single.arguments().first?.vardictEntries)
        }
    }

    /// A message from a big-endian machine: the reader swaps what libdbus's iterator swaps.
    @Test func aBigEndianBodyReadsTheSame() throws {
        var header = WireWriter(bigEndian: true)
        header.bytes = [UInt8(ascii: "B"), UInt8(CDBUS_MESSAGE_TYPE_SIGNAL), 0, 1, 0, 0, 0, 0, 0, 0, 0, 1]
        let values: [DBusValue] = [
            .int16(-2), .uint64(0x0102_0304_0506_0708), .double(-2.5),
            .array(.dictionary(key: .string, value: .variant), [.vardict(["n": .int32(-7), "s": .string("Bänk")])]),
        ]
        let signature = DBusType.signature(of: values.map(\.type))
        try header.append(
            .array(
                .structure([.byte, .variant]),
                [
                    .structure([.byte(1), .variant(.objectPath("/io/example"))]),
                    .structure([.byte(2), .variant(.string("org.example.I"))]),
                    .structure([.byte(3), .variant(.string("S"))]),
                    .structure([.byte(8), .variant(.signature(signature))]),
                ]))
        header.pad(to: 8)
        let bodyStart = header.bytes.count
        for value in values { try header.append(value) }
        header.setUInt32(UInt32(header.bytes.count - bodyStart), at: 4)
        let error = CErrorBox()
        let raw = header.bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                dbus_message_demarshal($0.baseAddress, Int32($0.count), &error.raw)
            }
        }
        let message = Message(owning: try #require(raw))
        // Read from the bytes first: libdbus's iterator turns the message to this machine's order.
        #expect(wireBytes(message).first == UInt8(ascii: "B"))
        let fromBytes = readFromBytes(message, types: values.map(\.type))
        #expect(fromBytes == values)
        #expect(message.arguments() == values)
    }

    /// A file descriptor is an index into the message's descriptors: the reader leaves such a
    /// body to libdbus's iterator, which gives the reader a descriptor of its own.
    @Test func aBodyWithAFileDescriptorIsReadByTheIterator() throws {
        let message = try signal()
        let descriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { close(descriptor) }
        try message.write { body throws(DBusKit.DBusError) in
            try body.vardict([("n", .uint32(1)), ("fd", .unixFD(descriptor))])
        }
        #expect(readFromBytes(message, types: [.dictionary(key: .string, value: .variant)]) == nil)
        let entries = try #require(message.vardictArgument())
        #expect(entries["n"] == .uint32(1))
        guard case .unixFD(let received) = entries["fd"] else {
            Issue.record("no descriptor: \(entries)")
            return
        }
        #expect(received >= 0 && received != descriptor)
        close(received)
    }
}
