import DBusKit
import RestCore
import Testing

@testable import RestDaemon

/// Update's values as the live activity takes them, and the sentence for each one refused.
@Suite struct LiveArgumentsTests {
    @Test func everyIntegerTypeDoubleStringAndBooleanIsTaken() throws {
        let entries = try LiveArguments.entries([
            "a": .byte(1), "b": .int16(-2), "c": .uint16(3), "d": .int32(-4), "e": .uint32(5), "f": .int64(-6),
            "g": .uint64(7), "h": .double(2.5), "i": .string("Squat"), "j": .boolean(true),
        ])
        #expect(
            entries == [
                "a": .integer(1), "b": .integer(-2), "c": .integer(3), "d": .integer(-4), "e": .integer(5),
                "f": .integer(-6), "g": .integer(7), "h": .double(2.5), "i": .string("Squat"), "j": .boolean(true),
            ])
    }

    @Test func refusedValuesAreNamed() {
        let cases: [(DBusValue, String)] = [
            (.uint64(UInt64(Int64.max) + 1), "\"x_big\" is too large: 9223372036854775808"),
            (.strings(["a"]), "\"x_big\" has type as; values are integers, doubles, strings or booleans"),
            (.variant(.int32(1)), "\"x_big\" has type v; values are integers, doubles, strings or booleans"),
        ]
        for (value, sentence) in cases {
            #expect(throws: DBusError(.invalidArgs, sentence)) { try LiveArguments.entries(["x_big": value]) }
        }
        #expect(throws: DBusError.self) { try LiveArguments.entries(nil) }
    }
}
