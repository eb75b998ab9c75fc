import CDBus
import Testing

@testable import DBusKit

/// The writer against the general path: a message written value by value must carry the same
/// bytes as one built from the `DBusValue` tree `Message.append` takes.
@Suite struct MessageWriterTests {
    private func message() throws -> Message {
        try Message.signal(path: "/io/example", interface: "org.example.I", name: "S")
    }

    /// Properties declared out of name order, one without a value, values of several types.
    private let timer = InterfaceDescription(
        name: "org.example.Timer",
        properties: [
            .init("State", .string), .init("Label", .string), .init("EndsAtUSec", .uint64), .init("Notify", .boolean),
            .init("Missing", .int32), .init("Tags", .array(.string)), .init("Adjust", .int64),
            .init("Pair", .structure([.int32, .double])),
        ])

    private func object(_ n: Int) -> ExportedInterface {
        ExportedInterface(
            timer,
            propertyReader: {
                { name in
                    switch name {
                    case "State": .string(n.isMultiple(of: 2) ? "running" : "paused")
                    case "Label": .string("Bankdrücken \(n) 🏋️")
                    case "EndsAtUSec": .uint64(1_790_000_000_000_000 + UInt64(n))
                    case "Notify": .boolean(n.isMultiple(of: 3))
                    case "Tags": .strings(n == 0 ? [] : ["a", "ß"])
                    case "Adjust": .int64(-Int64(n))
                    case "Pair": .structure([.int32(Int32(n)), .double(0.5)])
                    default: nil
                    }
                }
            })
    }

    /// What the object server used to build before writing: the whole tree.
    private func tree(_ interfaces: [ExportedInterface]) -> DBusValue {
        var entries: [DBusValue.DictEntry] = ObjectServer.standardInterfaceNames.map {
            .init(.string($0), .vardict([:]))
        }
        for interface in interfaces {
            entries.append(.init(.string(interface.description.name), .vardict(interface.allProperties())))
        }
        return .dictionary(key: .string, value: .dictionary(key: .string, value: .variant), entries)
    }

    /// A GetManagedObjects call, and the reply the general path makes to it from `tree`s.
    private func call() throws -> Message {
        let call = try Message.methodCall(
            destination: "org.example", path: "/io/example", interface: InterfaceDescription.objectManager.name,
            member: "GetManagedObjects")
        dbus_message_set_serial(call.raw, 7)
        return call
    }

    private func generalReply(
        to call: Message, _ objects: [(path: String, interfaces: [ExportedInterface])]
    )
        throws -> Message
    {
        let general = call.makeReturn()
        try general.append(
            .dictionary(
                key: .objectPath, value: .dictionary(key: .string, value: .dictionary(key: .string, value: .variant)),
                objects.map { .init(.objectPath($0.path), tree($0.interfaces)) }))
        return general
    }

    @Test func managedObjectsAreTheBytesOfTheirTree() throws {
        let objects = (0..<5).map { (path: "/io/example/t\($0)", interfaces: [object($0), object($0 + 10)]) }
        let call = try call()
        let general = try generalReply(to: call, objects)
        for perSlice in [1, 2, 5, 100] {
            let reply = ManagedObjectsReply(call: call, objects: objects)
            var written: Message?
            for _ in 0..<10 where written == nil { written = reply.writeSlice(perSlice) }
            let message = try #require(written)
            #expect(message.signature == "a{oa{sa{sv}}}")
            #expect(wireBytes(message) == wireBytes(general), "\(perSlice) per slice")
            #expect(message.arguments() == general.arguments())
        }
    }

    @Test func noObjectsAndNoInterfacesToo() throws {
        let call = try call()
        let empty = try #require(ManagedObjectsReply(call: call, objects: []).writeSlice(1))
        #expect(wireBytes(empty) == wireBytes(try generalReply(to: call, [])))

        let general = try message()
        try general.append(.objectPath("/x"), tree([]))
        let written = try message()
        try written.write { body throws(DBusKit.DBusError) in
            try body.append(.objectPath("/x"))
            try ObjectServer.writeInterfacesAndProperties([], to: &body)
        }
        #expect(wireBytes(written) == wireBytes(general))
    }

    @Test func vardictsAreTheBytesOfTheirTree() throws {
        let records: [[(key: String, value: DBusValue)]] = [
            [("id", .int64(1)), ("exercise", .string("Squat")), ("weight_kg", .double(60.5))],
            [],
            [("rr_ms", .array(.uint16, [.uint16(800), .uint16(790)])), ("failed", .boolean(true))],
        ]
        let general = try message()
        try general.append(
            .array(
                .dictionary(key: .string, value: .variant),
                records.map { pairs in
                    .dictionary(key: .string, value: .variant, pairs.map { .init(.string($0.key), .variant($0.value)) })
                }))
        let written = try message()
        try written.appendVardicts(records)
        #expect(written.signature == "aa{sv}")
        #expect(wireBytes(written) == wireBytes(general))
        // And libdbus's own iterator, value by value.
        let iterated = try message()
        try iterated.write { body throws(DBusKit.DBusError) in
            try body.array(of: "a{sv}") { array throws(DBusKit.DBusError) in
                for pairs in records { try array.vardict(pairs) }
            }
        }
        #expect(wireBytes(written) == wireBytes(iterated))
        // A record that cannot be written leaves the message as it was.
        let refused = try message()
        #expect(throws: DBusKit.DBusError.self) {
            try refused.appendVardicts([
                [(key: "ok", value: DBusValue.int32(1))], [(key: "bad\u{0}", value: .int32(2))],
            ])
        }
        #expect(refused.signature == "")
    }

    @Test func anInvalidValueIsRefusedNotPassedToLibdbus() throws {
        let written = try message()
        #expect(throws: DBusKit.DBusError.self) {
            try written.appendVardicts([[(key: "label", value: DBusValue.string("a\u{0}b"))]])
        }
        // A reply that cannot be written is an error reply to the call, whichever slice fails.
        let objects = [(path: "/io/example/ok", interfaces: [object(1)]), (path: "/not//valid", interfaces: [])]
        let failed = try #require(
            { () throws -> Message? in
                let reply = ManagedObjectsReply(call: try call(), objects: objects)
                return reply.writeSlice(1) ?? reply.writeSlice(1)
            }())
        #expect(failed.kind == .error && failed.errorName == "org.freedesktop.DBus.Error.Failed")
    }
}

/// `recordsArgument` against libdbus's iterator (the tree it reads, then `vardictEntries`).
@Suite struct RecordsArgumentTests {
    @Test func recordsReadAsTheirTreeIs() throws {
        let records: [[(key: String, value: DBusValue)]] = [
            [("id", .int64(7)), ("exercise", .string("Kniebeuge 🏋️")), ("rr_ms", .array(.uint16, [.uint16(812)]))],
            [],
            [("nested", .variant(.string("v"))), ("pair", .structure([.int32(1), .double(2.5)]))],
        ]
        let message = try Message.signal(path: "/io/example", interface: "org.example.I", name: "S")
        try message.write { body throws(DBusKit.DBusError) in
            try body.array(of: "a{sv}") { array throws(DBusKit.DBusError) in
                for pairs in records { try array.vardict(pairs) }
            }
            try body.append(.string("after"))
        }
        let general = try #require(Marshalling.readBodyWithIterator(of: message.raw).first?.arrayElements).map {
            try #require($0.vardictEntries)
        }
        #expect(message.recordsArgument() == general)
        #expect(general.count == 3 && general[0]["exercise"] == .string("Kniebeuge 🏋️"))
    }

    @Test func anythingElseIsNotRecords() throws {
        for values: [DBusValue] in [
            [], [.string("x")], [.array(.string, [])], [.vardict(["a": .int32(1)])],
            [.array(.dictionary(key: .string, value: .string), [])],
            [.array(.array(.string), [])], [.string("x"), .array(.dictionary(key: .string, value: .variant), [])],
        ] {
            let message = try Message.signal(path: "/io/example", interface: "org.example.I", name: "S")
            try message.append(values)
            #expect(message.recordsArgument() == nil)
        }
    }
}

/// `vardictArgument` against libdbus's iterator (the tree it reads, then `vardictEntries`).
@Suite struct VardictArgumentTests {
    @Test func aDictionaryReadsAsItsTreeDoes() throws {
        let fields: [String: DBusValue] = [
            "heart_rate": .int32(128), "exercise": .string("Kniebeuge 🏋️"), "contact": .boolean(true),
            "battery": .byte(80), "large": .uint64(.max), "weight": .double(62.5), "nested": .variant(.int16(-3)),
            "list": .strings(["a", "b"]),
        ]
        let message = try Message.signal(path: "/io/example", interface: "org.example.I", name: "S")
        try message.append(.vardict(fields), .string("after"))
        let general = try #require(Marshalling.readBodyWithIterator(of: message.raw).first?.vardictEntries)
        #expect(message.vardictArgument() == general)
        #expect(general["heart_rate"] == .int32(128) && general.count == fields.count)
    }

    @Test func anythingElseIsNotADictionary() throws {
        for values: [DBusValue] in [
            [], [.string("x")], [.array(.string, [])], [.dictionary(key: .string, value: .string, [])],
            [.array(.dictionary(key: .string, value: .variant), [])], [.dictionary(key: .string, value: .int32, [])],
            [.string("x"), .vardict(["a": .int32(1)])],
        ] {
            let message = try Message.signal(path: "/io/example", interface: "org.example.I", name: "S")
            try message.append(values)
            #expect(message.vardictArgument() == nil)
        }
    }
}
