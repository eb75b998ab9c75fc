import CDBus
import Glibc
import SeededRandom
import Testing

@testable import DBusKit

/// `WireReader` (a body read from its bytes, how `Message.arguments` reads) against libdbus's
/// iterator (`Marshalling.readBodyWithIterator`): the same values from the same messages.
@Suite struct WireReaderTests {
    private func signal() throws -> Message {
        try Message.signal(path: "/io/example", interface: "org.example.I", name: "S")
    }

    /// Every value of the body, read from its bytes; nil when the reader gives up (a file
    /// descriptor).
    private func readFromBytes(_ message: Message, types: [DBusType]) -> [DBusValue]? {
        WireReader.withBody(of: message.raw) { reader -> [DBusValue]? in
            let values = reader.read(types)
            return reader.atEnd ? values : nil
        }
    }

    private func readWithIterator(_ message: Message) -> [DBusValue] {
        Marshalling.readBodyWithIterator(of: message.raw)
    }

    @Test func randomValuesReadTheSameBothWays() throws {
        var random = SplitMix64(state: 27)
        for _ in 0..<300 {
            let values = (0..<(1 + random.next(upTo: 4))).map { _ in RandomValues.value(&random) }
            let message = try signal()
            try message.append(values)
            #expect(readFromBytes(message, types: values.map(\.type)) == readWithIterator(message), "\(values)")
            #expect(readWithIterator(message) == values)
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
            let fromIterator = try #require(readWithIterator(message).first?.arrayElements).map { record in
                try #require(record.vardictEntries)
            }
            #expect(fromIterator.map(\.count) == records.map(\.count))
            let fromBytes = try #require(WireReader.withBody(of: message.raw) { $0.readRecords() })
            #expect(fromBytes == fromIterator)
            #expect(message.recordsArgument() == fromIterator)

            let single = try signal()
            try single.append(.vardict(fromIterator.first ?? [:]))
            let vardict = try #require(WireReader.withBody(of: single.raw) { $0.readVardict() })
            #expect(vardict == readWithIterator(single).first?.vardictEntries)
            #expect(single.vardictArgument() == vardict)
        }
    }

    /// Messages from a big-endian machine: the reader swaps what libdbus's iterator swaps.
    @Test func bigEndianBodiesReadTheSame() throws {
        var random = SplitMix64(state: 29)
        for round in 0..<100 {
            var values = (0..<(1 + random.next(upTo: 3))).map { _ in RandomValues.value(&random) }
            if round % 4 == 0 {
                values.insert(.array(.dictionary(key: .string, value: .variant), [.vardict(["n": .int16(-2)])]), at: 0)
            }
            let message = try bigEndianSignal(values)
            // Read from the bytes first: libdbus's iterator turns the message to this machine's order.
            #expect(wireBytes(message).first == UInt8(ascii: "B"))
            #expect(readFromBytes(message, types: values.map(\.type)) == values, "\(values)")
            if round % 4 == 0 {
                let records = try #require(WireReader.withBody(of: message.raw) { $0.readRecords() })
                #expect(records == [["n": .int16(-2)]])
            }
            #expect(wireBytes(message).first == UInt8(ascii: "B"))
            #expect(message.arguments() == values)
            #expect(readWithIterator(message) == values)
        }
    }

    /// A file descriptor is an index into the message's descriptors: the reader leaves such a
    /// body to libdbus's iterator, which gives the reader a descriptor of its own for the same
    /// file, whichever way the body is read.
    @Test(arguments: ["arguments", "vardictArgument", "recordsArgument"])
    func aBodyWithAFileDescriptorIsReadByTheIterator(reading: String) throws {
        let message = try signal()
        let descriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { close(descriptor) }
        let pairs: [(key: String, value: DBusValue)] = [("n", .uint32(1)), ("fd", .unixFD(descriptor))]
        try message.write { body throws(DBusKit.DBusError) in
            if reading == "recordsArgument" {
                try body.array(of: "a{sv}") { records throws(DBusKit.DBusError) in try records.vardict(pairs) }
            } else {
                try body.vardict(pairs)
            }
        }
        let type = DBusType.dictionary(key: .string, value: .variant)
        #expect(readFromBytes(message, types: [reading == "recordsArgument" ? .array(type) : type]) == nil)
        let entries: [String: DBusValue]? =
            switch reading {
            case "arguments": message.arguments().first?.vardictEntries
            case "vardictArgument": message.vardictArgument()
            default: message.recordsArgument()?.first
            }
        #expect(entries?["n"] == .uint32(1))
        guard case .unixFD(let received) = entries?["fd"] else {
            Issue.record("no descriptor: \(String(describing: entries))")
            return
        }
        var sent = stat()
        var got = stat()
        #expect(received != descriptor && fstat(descriptor, &sent) == 0 && fstat(received, &got) == 0)
        #expect(sent.st_dev == got.st_dev && sent.st_ino == got.st_ino)
        if received > 2 { close(received) }
    }
}
