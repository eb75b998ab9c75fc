import RestClient
import Testing

@Suite("DurationParser")
struct DurationParserTests {
    static let forms = "seconds (90), units (1h2m3s, 1m30s, 90s) or a clock time (1:30, 1:02:03)"

    @Test("accepts seconds, units and clock times", arguments: [
        ("90", 90), ("1", 1), ("090", 90), ("90s", 90), ("1m30s", 90), ("1:30", 90), ("2m", 120),
        ("1h", 3_600), ("1h2m3s", 3_723), ("1:02:03", 3_723), ("1h30s", 3_630), ("1h5m", 3_900),
        ("90m", 5_400), ("1m90s", 150), ("0:01", 1), ("0:00:01", 1), ("90:00", 5_400),
        ("24:00:00", 86_400), ("100h", 360_000),
    ] as [(String, UInt64)])
    func accepts(text: String, seconds: UInt64) throws {
        #expect(try DurationParser.parse(text) == seconds * 1_000_000)
    }

    @Test("the largest amount still fits an Int64 of microseconds")
    func largest() throws {
        #expect(try DurationParser.parse("9223372036854") == 9_223_372_036_854_000_000)
        #expect(throws: InputError(#"duration "9223372036855" is too long to count"#)) {
            try DurationParser.parse("9223372036855")
        }
    }

    @Test("refuses an empty duration")
    func empty() {
        #expect(throws: InputError("duration is empty; give \(Self.forms)")) { try DurationParser.parse("") }
    }

    @Test("refuses negative durations", arguments: ["-5", "-1m", "-1:30", "-"])
    func negative(text: String) {
        #expect(throws: InputError("duration \"\(text)\" is negative; give \(Self.forms)")) {
            try DurationParser.parse(text)
        }
    }

    @Test("refuses what it does not understand", arguments: [
        "abc", "m", "1x", "1m30", "30s1m", "1s1m", "1m1m", "1.5", "1,5", " 90", "90 ", "1 m", "+5",
        "1M", "1H", "1ms", "1:2:3:4", ":30", "1:", "1::30", "1h:30", "1:30s", "٣", "１", "0x10",
    ])
    func garbage(text: String) {
        #expect(throws: InputError("duration \"\(text)\" is not understood; give \(Self.forms)")) {
            try DurationParser.parse(text)
        }
    }

    @Test("control characters are escaped in the sentence")
    func controlEscaped() {
        #expect(throws: InputError(#"duration "1\u{7}" is not understood; give "# + Self.forms)) {
            try DurationParser.parse("1\u{7}")
        }
        #expect(throws: InputError(#"duration "1\n" is not understood; give "# + Self.forms)) {
            try DurationParser.parse("1\n")
        }
    }

    @Test("clock fields after a colon are two digits below 60")
    func clockFields() {
        #expect(throws: InputError(#"duration "1:5" needs two digits after each colon, as in 1:05"#)) {
            try DurationParser.parse("1:5")
        }
        #expect(throws: InputError(#"duration "1:075" needs two digits after each colon, as in 1:05"#)) {
            try DurationParser.parse("1:075")
        }
        #expect(throws: InputError(#"duration "1:75" has 75 seconds; after a colon use 00 to 59"#)) {
            try DurationParser.parse("1:75")
        }
        #expect(throws: InputError(#"duration "1:60:00" has 60 minutes; after a colon use 00 to 59"#)) {
            try DurationParser.parse("1:60:00")
        }
    }

    @Test("refuses zero", arguments: ["0", "00", "0s", "0m0s", "0h0m0s", "0:00", "0:00:00"])
    func zero(text: String) {
        #expect(throws: InputError("duration \"\(text)\" is zero; give at least 1 second")) {
            try DurationParser.parse(text)
        }
    }

    @Test("refuses amounts too large to count", arguments: [
        "18446744073709551616", "99999999999999999999999", "18446744073709551615", "5124095576030432h",
        "99999999999999999999h", "1:99999999999999999999:00", "99999999999999999:00", "9223372036854775807s",
    ])
    func overflow(text: String) {
        #expect(throws: InputError("duration \"\(text)\" is too long to count")) {
            try DurationParser.parse(text)
        }
    }
}

@Suite("TimerIDParser")
struct TimerIDParserTests {
    @Test("passes valid ids and maps the empty one to default")
    func valid() throws {
        #expect(try TimerIDParser.parse("squats_2") == "squats_2")
        #expect(try TimerIDParser.parse("") == "default")
        #expect(TimerIDParser.defaultID == "default")
    }

    @Test("refuses ids that cannot be part of an object path, with restd's sentence")
    func invalid() {
        #expect(throws: InputError(#"timer id "x-y" is invalid: use 1–64 characters of A–Z, a–z, 0–9 and _"#)) {
            try TimerIDParser.parse("x-y")
        }
        #expect(throws: InputError.self) { try TimerIDParser.parse("a/b") }
        #expect(throws: InputError.self) { try TimerIDParser.parse("é") }
        #expect(throws: InputError.self) { try TimerIDParser.parse(String(repeating: "a", count: 65)) }
    }
}
