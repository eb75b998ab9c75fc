import SeededRandom
import Testing

@testable import DBusKit

@Suite struct MarshallingTests {
    private func roundTrip(_ values: [DBusValue]) throws -> [DBusValue] {
        let message = try Message.methodCall(
            destination: "org.example.Test", path: "/org/example", interface: "org.example.I", member: "M")
        try message.append(values)
        return message.arguments()
    }

    @Test func everyBasicTypeSurvivesARoundTrip() throws {
        let values: [DBusValue] = [
            .byte(255), .boolean(true), .boolean(false), .int16(-32768), .uint16(65535), .int32(-7), .uint32(7),
            .int64(.min), .uint64(.max), .double(-1.5), .string("Bankdrücken ✓"), .objectPath("/io/restd/Rest1"),
            .signature("a{sv}"),
        ]
        #expect(try roundTrip(values) == values)
    }

    @Test func containersSurviveARoundTrip() throws {
        let values: [DBusValue] = [
            .array(.string, []),
            .array(.int32, [.int32(1), .int32(2)]),
            .vardict(["label": .string("Squat"), "notify": .boolean(false), "n": .uint64(3)]),
            .dictionary(key: .objectPath, value: .array(.string), [.init(.objectPath("/a"), .strings(["x", "y"]))]),
            .structure([.string("s"), .variant(.structure([.int32(1), .double(2)]))]),
            .variant(.variant(.byte(1))),
            .array(.array(.byte), [.array(.byte, [.byte(1)]), .array(.byte, [])]),
        ]
        #expect(try roundTrip(values) == values)
    }

    @Test func theMessageSignatureMatchesTheValues() throws {
        let message = try Message.signal(path: "/a", interface: "org.example.I", name: "S")
        try message.append(.string("x"), .uint64(1), .vardict([:]))
        #expect(message.signature == "sta{sv}")
    }

    @Test("hasType answers as comparing the value's type does, for 2,000 random pairs of value and type")
    func hasTypeMatchesTheValuesType() {
        var random = SplitMix64(state: 2026)
        var matches = 0
        for _ in 0..<2_000 {
            let value = RandomValues.value(&random)
            // Half the time a type the value has, else another value's (sometimes the same).
            let type = random.next() & 1 == 0 ? value.type : RandomValues.value(&random).type
            #expect(value.hasType(type) == (value.type == type), "\(value) against \(type)")
            if value.type == type { matches += 1 }
            // And the value's own type with one leaf changed, deep inside: a near miss.
            let nearMiss = Self.changingOneLeaf(of: value.type)
            #expect(!value.hasType(nearMiss), "\(value) against \(nearMiss)")
        }
        #expect(matches > 900 && matches < 2_000)
    }

    /// `type` with its last leaf (the innermost, last field or element type) made another one.
    private static func changingOneLeaf(of type: DBusType) -> DBusType {
        switch type {
        case .array(let element): .array(changingOneLeaf(of: element))
        case .dictionary(let key, let value): .dictionary(key: key, value: changingOneLeaf(of: value))
        case .structure(let fields): .structure(fields.dropLast() + [changingOneLeaf(of: fields.last!)])
        case .string: .objectPath
        default: .string
        }
    }

    @Test func invalidValuesAreRefusedBeforeAnythingIsWritten() throws {
        let message = try Message.signal(path: "/a", interface: "org.example.I", name: "S")
        let refused: [DBusValue] = [
            .string("nul\u{0}inside"),
            .objectPath("/trailing/"),
            .objectPath("no-slash"),
            .objectPath("/a//b"),
            .signature("a{vs}"),
            .array(.string, [.int32(1)]),
            .dictionary(key: .variant, value: .string, []),
            .structure([]),
        ]
        for value in refused {
            #expect(throws: DBusError.self) { try message.append(.int32(1), value) }
        }
        #expect(message.signature == "", "a refused append leaves the body untouched")
    }

    /// `append` checks a body once, as it is written and loaded: what it refuses is described as
    /// validating the values first would (the general path), and what validation accepts is
    /// appended — each refused value alone, nested in every container, and beside 300 random
    /// valid bodies.
    @Test("append refuses what validation refuses, with validation's sentence, and nothing else")
    func appendRefusesAsValidationDoes() throws {
        let leaves: [DBusValue] = [
            .string("nul\u{0}inside"), .objectPath("/trailing/"), .objectPath("/a//b"), .signature("a{vs}"),
            .array(.string, [.int32(1)]), .array(.int32, [.uint32(1)]), .array(.byte, [.boolean(true)]),
            .dictionary(key: .string, value: .int32, [.init(.string("a"), .uint32(1))]),
            .dictionary(key: .variant, value: .string, []), .structure([]),
            .dictionary(key: .int32, value: .string, [.init(.uint32(1), .string("v"))]),
            .array(.structure([.int32]), [.structure([.uint32(1)])]),
            .array(.int16, [.uint16(1)]), .array(.uint64, [.int64(1)]), .array(.double, [.uint64(1)]),
            .signature(String(repeating: "i", count: 256)),
        ]
        var refused: [DBusValue] = []
        for leaf in leaves {
            refused += [
                leaf, .variant(leaf), .array(leaf.type, [leaf]), .structure([.int32(1), leaf]),
                .dictionary(key: .string, value: leaf.type, [.init(.string("k"), leaf)]),
                .array(.variant, [.variant(.string("fine")), .variant(leaf)]),
            ]
        }
        var random = SplitMix64(state: 126)
        for index in 0..<300 {
            var values = (0..<random.next(upTo: 4)).map { _ in RandomValues.value(&random) }
            if index < refused.count { values.insert(refused[index], at: random.next(upTo: values.count + 1)) }
            let validation = Result { () throws(DBusError) in for value in values { try Marshalling.validate(value) } }
            let message = try Message.signal(path: "/a", interface: "org.example.I", name: "S")
            let appended = Result { () throws(DBusError) in try message.append(values) }
            switch (validation, appended) {
            case (.success, .success):
                #expect(message.arguments() == values)
            case (.failure(let expected), .failure(let got)):
                #expect(got.name == expected.name && got.message == expected.message, "\(values)")
                #expect(message.signature == "")
            default:
                Issue.record("validation \(validation), append \(appended): \(values)")
            }
        }
    }

    @Test func invalidNamesAreRefusedInsteadOfAbortingInLibdbus() {
        #expect(throws: DBusError.self) {
            try Message.methodCall(destination: nil, path: "/a/", interface: nil, member: "M")
        }
        #expect(throws: DBusError.self) {
            try Message.methodCall(destination: nil, path: "/a", interface: "noDots", member: "M")
        }
        #expect(throws: DBusError.self) {
            try Message.methodCall(destination: nil, path: "/a", interface: nil, member: "1bad")
        }
        #expect(throws: DBusError.self) {
            try Message.methodCall(destination: "bad..name", path: "/a", interface: nil, member: "M")
        }
        #expect(throws: DBusError.self) { try Message.signal(path: "/a", interface: "a.b", name: "bad-member") }
    }

    @Test func errorRepliesWithInvalidTextAreMadeSafe() {
        let safe = DBusError(name: "not an error name", message: "with\u{0}nul").safeForWire
        #expect(safe.name == DBusError.Name.failed.rawValue)
        #expect(safe.message == "with\\u{0}nul")
        let fine = DBusError(name: "io.restd.Rest1.Error.NoSuchTimer", message: "no timer \"x\"")
        #expect(fine.safeForWire == fine)
    }
}

@Suite struct TypeTests {
    @Test func signaturesParseAndPrint() throws {
        let types = try DBusType.parse("sta{sv}a(ii)av")
        #expect(
            types == [
                .string, .uint64, .dictionary(key: .string, value: .variant),
                .array(.structure([.int32, .int32])), .array(.variant),
            ])
        #expect(DBusType.signature(of: types) == "sta{sv}a(ii)av")
    }

    @Test func badSignaturesAreRefused() {
        for bad in ["a", "(", "a{vs}", "{ss}", "z", "s\u{0}"] {
            #expect(throws: DBusError.self) { try DBusType.parse(bad) }
        }
    }

    @Test func objectPathRules() {
        #expect(DBusValidation.isValidObjectPath("/"))
        #expect(DBusValidation.isValidObjectPath("/io/restd/Rest1/timer/default_1"))
        for bad in ["", "io", "/io/", "//", "/a//b", "/a-b", "/ä"] {
            #expect(!DBusValidation.isValidObjectPath(bad), "\(bad)")
        }
    }
}
