import RestCore
import Testing

@Suite struct TimerIDTests {
    @Test func emptyStringMeansDefault() throws {
        #expect(try TimerID(parsing: "") == .default)
        #expect(TimerID.default.rawValue == "default")
        #expect(try TimerID(parsing: "default") == .default)
    }

    @Test(arguments: ["a", "Z", "tea_2", "_", "bench-press", "-", String(repeating: "x", count: 64)])
    func acceptsValidIDs(_ text: String) throws {
        #expect(try TimerID(parsing: text).rawValue == text)
    }

    @Test func rejectsPunctuationWithSentence() {
        #expect(
            thrown { _ = try TimerID(parsing: "a.b") }
                == .invalidArgs(
                    "timer id \"a.b\" is invalid: use 1 to 64 characters of A-Z, a-z, 0-9, _ and -"))
    }

    @Test(arguments: ["é", "１", "a b", "a/b", "tea\0", "ÿ"])
    func rejectsNonASCIIAndSeparators(_ text: String) {
        #expect(thrown { _ = try TimerID(parsing: text) }?.kind == "invalidArgs")
    }

    @Test func tooLongIsTruncatedInTheMessage() throws {
        let text = String(repeating: "a", count: 65)
        let message = try #require(thrown { _ = try TimerID(parsing: text) }).message
        #expect(message.hasPrefix("timer id \"" + String(repeating: "a", count: 40) + "…\" (65 characters) is invalid"))
    }

    @Test func controlCharactersAreEscapedInTheMessage() throws {
        let message = try #require(thrown { _ = try TimerID(parsing: "a\u{7}b\n\"") }).message
        #expect(message.hasPrefix(#"timer id "a\u{7}b\n\"" is invalid"#))
        #expect(!message.unicodeScalars.contains { $0.properties.generalCategory == .control })
    }

    @Test func ordersByName() {
        #expect(tid("A") < tid("a"))
        #expect(tid("tea") < tid("tea2"))
        // Byte order: "A" (0x41) < "_" (0x5F) < "a" (0x61).
        #expect([tid("b"), tid("a"), tid("_"), tid("A")].sorted() == [tid("A"), tid("_"), tid("a"), tid("b")])
    }
}
