import RestCore
import Testing

@Suite("DurationParser")
struct DurationParserTests {
    static let forms = "seconds (90), units (1h2m3s, 1m30s, 90s, 2min, 1.5m) or a clock time (1:30, 1:02:03)"

    @Test(
        "accepts seconds, units and clock times",
        arguments: [
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
        #expect(sentence("9223372036855") == #"duration "9223372036855" is too long to count"#)
    }

    @Test("refuses an empty duration")
    func empty() {
        #expect(sentence("") == "duration is empty; give \(Self.forms)")
    }

    @Test("refuses negative durations", arguments: ["-5", "-1m", "-1:30", "-"])
    func negative(text: String) {
        #expect(sentence(text) == "duration \"\(text)\" is negative; give \(Self.forms)")
    }

    @Test("the error tells a negative amount apart, and names the value as the caller calls it")
    func reasonAndName() {
        #expect(throws: DurationError(.negative, #"--warn "-5" is negative; give "# + Self.forms)) {
            try DurationParser.parse("-5", name: "--warn")
        }
        #expect(throws: DurationError(.notUnderstood, #"default_duration "1x" is not understood; give "# + Self.forms))
        {
            try DurationParser.parse("1x", name: "default_duration")
        }
        #expect(throws: DurationError(.empty, "duration is empty; give " + Self.forms)) { try DurationParser.parse("") }
        #expect(throws: DurationError(.tooLong, #"duration "9223372036855" is too long to count"#)) {
            try DurationParser.parse("9223372036855")
        }
    }

    @Test(
        "refuses what it does not understand",
        arguments: [
            "abc", "m", "1x", "1m30", "1,5", " 90", "90 ", "1 m", "+5", "1M", "1H", "1ms", "1:2:3:4", ":30",
            "1:", "1::30", "1h:30", "1:30s", "٣", "１", "0x10", "1.", ".5m", "1.5.5m", "1.1234567m", "2mn", "1:30.5",
        ])
    func garbage(text: String) {
        #expect(sentence(text) == "duration \"\(text)\" is not understood; give \(Self.forms)")
    }

    @Test(
        "the unit words people type, in English whatever the language; decimals that make whole seconds",
        arguments: [
            ("2min", 120), ("2mins", 120), ("90sec", 90), ("90secs", 90), ("1min30sec", 90), ("1hr", 3_600),
            ("2hours", 7_200), ("1hour5minutes", 3_900), ("1second", 1), ("1.5m", 90), ("1.5min", 90),
            ("0.5h", 1_800), ("1.25m", 75), ("2.0s", 2), ("1h0.5m", 3_630), ("1.0", 1),
        ] as [(String, UInt64)])
    func unitWordsAndDecimals(text: String, seconds: UInt64) throws {
        #expect(try DurationParser.parse(text) == seconds * 1_000_000)
    }

    @Test("decimals that make no whole second, a unit given twice, units out of order: each said as it is")
    func saidAsItIs() {
        #expect(
            sentence("0.5s")
                == #"duration "0.5s" is not a whole number of seconds; give whole seconds, as in 1.5m (90 s)"#)
        #expect(
            sentence("1.5")
                == #"duration "1.5" is not a whole number of seconds; give whole seconds, as in 1.5m (90 s)"#)
        #expect(
            sentence("1h2m3s4s") == #"duration "1h2m3s4s" gives the seconds twice; give each unit once, as in 1h2m3s"#)
        #expect(sentence("1m2min") == #"duration "1m2min" gives the minutes twice; give each unit once, as in 1h2m3s"#)
        for text in ["30s1m", "1s1m", "5m1h"] {
            #expect(
                sentence(text)
                    == "duration \"\(text)\" has its units out of order; give hours, then minutes, then seconds, as in 1h2m3s"
            )
        }
    }

    @Test("control characters are escaped in the sentence")
    func controlEscaped() {
        #expect(sentence("1\u{7}") == #"duration "1\u{7}" is not understood; give "# + Self.forms)
        #expect(sentence("1\n") == #"duration "1\n" is not understood; give "# + Self.forms)
    }

    @Test("clock fields after a colon are two digits below 60")
    func clockFields() {
        #expect(sentence("1:5") == #"duration "1:5" needs two digits after each colon, as in 1:05"#)
        #expect(sentence("1:075") == #"duration "1:075" needs two digits after each colon, as in 1:05"#)
        #expect(sentence("1:75") == #"duration "1:75" has 75 seconds; after a colon use 00 to 59"#)
        #expect(sentence("1:60:00") == #"duration "1:60:00" has 60 minutes; after a colon use 00 to 59"#)
    }

    @Test(
        "zero is a duration: the caller's range decides",
        arguments: ["0", "00", "0s", "0m0s", "0h0m0s", "0:00", "0:00:00"])
    func zero(text: String) throws {
        #expect(try DurationParser.parse(text) == 0)
    }

    @Test(
        "refuses amounts too large to count",
        arguments: [
            "18446744073709551616", "99999999999999999999999", "18446744073709551615", "5124095576030432h",
            "99999999999999999999h", "1:99999999999999999999:00", "99999999999999999:00", "9223372036854775807s",
        ])
    func overflow(text: String) {
        #expect(sentence(text) == "duration \"\(text)\" is too long to count")
    }
}

/// The sentence `DurationParser` refuses `text` with, nil when it accepts it.
private func sentence(_ text: String) -> String? {
    do {
        _ = try DurationParser.parse(text)
        return nil
    } catch {
        return error.message
    }
}
