import TOML
import Testing

// The classes of documents toml-test's TOML 1.0.0 suite found the reader wrong on (`make
// toml-conformance` runs the whole suite); a few of each here, with the line and the sentence.

private func refusal(_ text: String) -> TOMLSyntaxError? {
    do {
        _ = try TOMLParser.parse(text)
        return nil
    } catch {
        return error
    }
}

private func refusal(utf8 bytes: [UInt8]) -> TOMLSyntaxError? {
    do {
        _ = try TOMLParser.parse(utf8: bytes)
        return nil
    } catch {
        return error
    }
}

@Suite struct TOMLConformanceTests {
    @Test(arguments: [
        ("d = 1979-02-29\n", 1, "1979-02-29 is not a valid date or time: the month 1979-02 has 28 days"),
        (
            "a = 1\nd = 2100-02-29T00:00:00Z\n", 2,
            "2100-02-29T00:00:00Z is not a valid date or time: the month 2100-02 has 28 days"
        ),
        ("d = 1979-04-31\n", 1, "1979-04-31 is not a valid date or time: the month 1979-04 has 30 days"),
        ("d = 1979-01-00\n", 1, "1979-01-00 is not a valid date or time: there is no day 00"),
        ("d = 1979-13-01\n", 1, "1979-13-01 is not a valid date or time: there is no month 13"),
        ("t = 25:00:00\n", 1, "25:00:00 is not a valid date or time: the hour must be 00 to 23"),
        ("t = 07:60:00\n", 1, "07:60:00 is not a valid date or time: the minute must be 00 to 59"),
        ("t = 07:00:61\n", 1, "07:00:61 is not a valid date or time: the second must be 00 to 60"),
        (
            "d = 1979-05-27T07:32:00+24:00\n", 1,
            "1979-05-27T07:32:00+24:00 is not a valid date or time: an offset is Z or ±HH:MM, from -23:59 to +23:59"
        ),
        (
            "d = 1979-05-27 07:32:00-05:60\n", 1,
            "1979-05-27 07:32:00-05:60 is not a valid date or time: an offset is Z or ±HH:MM, from -23:59 to +23:59"
        ),
        (
            "d = 1979-05-27T07:32\n", 1,
            "1979-05-27T07:32 is not a valid date or time: a time is HH:MM:SS, two digits each"
        ),
        ("t = 07:32:00Z\n", 1, "07:32:00Z is not a valid date or time: a time without a date has no offset"),
        ("d = 1979-05-27T\n", 1, "1979-05-27T is not a valid date or time: a time is HH:MM:SS, two digits each"),
        ("t = 07:32:00.\n", 1, "07:32:00. is not a valid date or time: the decimal point must be followed by digits"),
    ])
    func refusesImpossibleDatesAndTimes(_ text: String, _ line: Int, _ reason: String) {
        #expect(refusal(text) == TOMLSyntaxError(line: line, reason: reason), "\(text)")
    }

    @Test func acceptsTheEdgesOfTheCalendarAndTheClock() throws {
        let table = try TOMLParser.parse(
            """
            leap = 2000-02-29
            leap4 = 2024-02-29T15:15:15
            leapSecond = 1990-12-31T23:59:60Z
            east = 1979-05-27T07:32:00.999+23:59
            west = 1979-05-27t07:32:00-00:00
            last = 9999-12-31 23:59:59z
            midnight = 00:00:00.000001

            """)
        #expect(table["leap"]?.kind == .dateTime("2000-02-29"))
        #expect(table["leapSecond"]?.kind == .dateTime("1990-12-31T23:59:60Z"))
        #expect(table["west"]?.kind == .dateTime("1979-05-27t07:32:00-00:00"))
        #expect(table["last"]?.kind == .dateTime("9999-12-31 23:59:59z"))
        #expect(table.keys.count == 7)
    }

    @Test func skipsAByteOrderMarkAtTheStartOnly() throws {
        #expect(try TOMLParser.parse(utf8: [0xEF, 0xBB, 0xBF] + Array("a = 1\n".utf8))["a"]?.integer == 1)
        #expect(try TOMLParser.parse("\u{FEFF}# comment\na = 1\n")["a"]?.line == 2)
        #expect(refusal("a = 1\n\u{FEFF}b = 2\n")?.line == 2)
        #expect(refusal(utf8: [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array("a = 1\n".utf8))?.line == 1)
    }

    @Test func eachTableOfAnArrayOfTablesHasItsOwnSubtables() throws {
        let table = try TOMLParser.parse(
            """
            [[arr]]
            [arr.subtab]
            val = 1

            [[arr]]
            [arr.subtab]
            val = 2

            """)
        let elements = try #require(table["arr"]?.array)
        #expect(elements.compactMap { $0.table?["subtab"]?.table?["val"]?.integer } == [1, 2])
        #expect(elements.compactMap { $0.table?["subtab"]?.line } == [2, 6])
    }

    @Test func aSubtableOfOneTableOfAnArrayIsStillDefinedOnce() {
        #expect(
            refusal("[[arr]]\n[arr.subtab]\n[[arr]]\n[arr.subtab]\n[arr.subtab]\n")
                == TOMLSyntaxError(line: 5, reason: "table [arr.subtab] is defined twice"))
    }

    @Test(arguments: [
        ("# a bare\rCR\na = 1\n", 1, "control character byte 0xD in a comment"),
        ("a = 1\n# \u{01}\n", 2, "control character byte 0x1 in a comment"),
        ("\n# \u{7F}\n", 2, "control character byte 0x7F in a comment"),
        ("a = 1 # \u{1F}\n", 1, "control character byte 0x1F in a comment"),
        ("s = \"\"\"one\rtwo\"\"\"\n", 1, "control character byte 0xD in a string; write it as an escape"),
        ("s = '''one\rtwo'''\n", 1, "control character byte 0xD in a string; write it as an escape"),
    ])
    func refusesControlCharactersInCommentsAndABareCarriageReturn(_ text: String, _ line: Int, _ reason: String) {
        #expect(refusal(text) == TOMLSyntaxError(line: line, reason: reason), "\(text)")
    }

    @Test func acceptsCRLFLineEndsInCommentsAndStrings() throws {
        let table = try TOMLParser.parse("# comment\r\na = 1 # more\r\ns = \"\"\"x\r\ny\"\"\"\r\n")
        #expect(table["a"]?.integer == 1)
        #expect(table["s"]?.line == 3)
    }

    @Test(arguments: [
        ("a = 0x-1\n", 1, "0x-1 is not a TOML value (strings need quotes)"),
        ("a = 0x+1\n", 1, "0x+1 is not a TOML value (strings need quotes)"),
        ("a = 0o-7\n", 1, "0o-7 is not a TOML value (strings need quotes)"),
        ("\na = 0b+1\n", 2, "0b+1 is not a TOML value (strings need quotes)"),
        ("a = 9223372036854775808\n", 1, "9223372036854775808 does not fit in a 64-bit integer"),
        ("a = 0x1_0000_0000_0000_0000\n", 1, "0x1_0000_0000_0000_0000 does not fit in a 64-bit integer"),
    ])
    func refusesSignsAfterARadixPrefixAndIntegersTooLarge(_ text: String, _ line: Int, _ reason: String) {
        #expect(refusal(text) == TOMLSyntaxError(line: line, reason: reason), "\(text)")
    }

    @Test func readsTheExtremeIntegers() throws {
        let table = try TOMLParser.parse("min = -9223372036854775808\nmax = 0x7FFF_ffff_FFFF_FFFF\n")
        #expect(table["min"]?.integer == .min)
        #expect(table["max"]?.integer == .max)
    }
}
