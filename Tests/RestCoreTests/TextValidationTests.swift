import RestCore
import Testing

@Suite struct TextValidationTests {
    let limits = TimerLimits.standard

    @Test func acceptsTextUpToTheByteLimit() throws {
        try TimerOptions.validateText("", field: "label", limits: limits)
        try TimerOptions.validateText(String(repeating: "x", count: 256), field: "label", limits: limits)
        // 64 four-byte scalars are exactly 256 bytes; multi-byte text is fine.
        try TimerOptions.validateText(String(repeating: "🍵", count: 64), field: "next", limits: limits)
    }

    @Test func rejectsTooManyBytesWithSentence() {
        #expect(
            thrown { try TimerOptions.validateText(String(repeating: "x", count: 300), field: "label", limits: limits) }
                == .invalidArgs("label is 300 bytes long; at most 256 are allowed"))
        // Bytes, not characters: 65 four-byte emoji are 260 bytes.
        #expect(
            thrown { try TimerOptions.validateText(String(repeating: "🍵", count: 65), field: "next", limits: limits) }
                == .invalidArgs("next is 260 bytes long; at most 256 are allowed"))
    }

    @Test("isControlCharacter is exactly Unicode's general category Cc, over every scalar")
    func controlCharacterIsCategoryCc() {
        var mismatches: [UInt32] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if scalar.isControlCharacter != (scalar.properties.generalCategory == .control) { mismatches.append(value) }
        }
        #expect(mismatches.isEmpty)
    }

    @Test func rejectsControlCharacterWithPosition() {
        #expect(
            thrown { try TimerOptions.validateText("ab\u{7}c", field: "label", limits: limits) }
                == .invalidArgs("label contains a control character (U+0007) at position 3"))
    }

    @Test(arguments: [
        ("\0", "U+0000"), ("\n", "U+000A"), ("\r\n", "U+000D"), ("\u{7F}", "U+007F"), ("\u{85}", "U+0085"),
        ("\u{9F}", "U+009F"),
    ])
    func rejectsEveryKindOfControlCharacter(_ text: String, _ codePoint: String) {
        #expect(
            thrown { try TimerOptions.validateText("é" + text, field: "next", limits: limits) }
                == .invalidArgs("next contains a control character (\(codePoint)) at position 2"))
    }

    @Test func acceptsFormatCharactersThatAreNotControls() throws {
        // U+200D (zero-width joiner, category Cf) builds emoji sequences; only Cc is refused.
        try TimerOptions.validateText("👩\u{200D}💻", field: "label", limits: limits)
    }

    static let durations: [(USec, String)] = [
        (0, "0 s"), (1, "1 µs"), (1_500, "1.5 ms"), (250_000, "250 ms"), (second, "1 s"), (1_500_000, "1.5 s"),
        (90 * second, "1 min 30 s"), (60 * minute, "1 h"), (hour + 5 * minute + 1, "1 h 5 min 0.000001 s"),
        (24 * hour, "24 h"), (48 * hour + 30 * second, "48 h 30 s"),
    ]

    @Test(arguments: durations)
    func describesDurations(_ usec: USec, _ text: String) {
        #expect(DurationText.describe(usec) == text)
    }

    @Test("durations in refusals read as a person would say them")
    func readableDurations() {
        #expect(DurationText.readable(24 * hour + 59 * minute + 59_989_794) == "25 h")  // was "24 h 59 min 59.989794 s"
        #expect(DurationText.readable(59 * minute + 59_600_000) == "1 h")
        #expect(DurationText.readable(59 * minute + 59_989_794, roundingDown: true) == "59 min 59 s")
        #expect(DurationText.readable(23 * hour + 5 * minute + 40 * second) == "23 h 6 min")
        #expect(DurationText.readable(90 * second + 400_000) == "1 min 30 s")
        #expect(DurationText.readable(1_500) == "1 ms")
        #expect(DurationText.readable(12) == "12 µs")
    }

    @Test func describesSignedDurations() {
        #expect(DurationText.describe(signed: 30_000_000) == "+30 s")
        #expect(DurationText.describe(signed: -90_000_000) == "-1 min 30 s")
        #expect(DurationText.describe(signed: .min) == "-2562047788 h 54.775808 s")  // no trap on Int64.min
    }
}
