import TOML
import Testing

private func parse(_ text: String) throws -> TOMLTable { try TOMLParser.parse(text) }

private func syntaxError(_ text: String) -> TOMLSyntaxError? {
    do {
        _ = try TOMLParser.parse(text)
        return nil
    } catch {
        return error
    }
}

@Suite struct TOMLParserTests {
    @Test func readsScalarsWithTheirLines() throws {
        let table = try parse(
            """
            # a comment
            name = "Push day"   # trailing comment
            sets = 5
            rate = 2.5
            on = true
            hex = 0xff
            big = 1_000
            negative = -3
            exp = 1e3

            """)
        #expect(table.keys == ["name", "sets", "rate", "on", "hex", "big", "negative", "exp"])
        #expect(table["name"] == TOMLValue(.string("Push day"), line: 2))
        #expect(table["sets"]?.integer == 5 && table["sets"]?.line == 3)
        #expect(table["rate"]?.float == 2.5)
        #expect(table["on"]?.boolean == true)
        #expect(table["hex"]?.integer == 255)
        #expect(table["big"]?.integer == 1000)
        #expect(table["negative"]?.integer == -3)
        #expect(table["exp"]?.float == 1000)
    }

    @Test func readsStrings() throws {
        let table = try parse(
            #"""
            basic = "tab\there \"quoted\" \u00e9 \U0001F375"
            literal = 'C:\path\no escapes'
            multi = """
            first
            second \
              joined"""
            raw = '''
            keep \n as is'''
            key."quoted key" = 1

            """#)
        #expect(table["basic"]?.string == "tab\there \"quoted\" é 🍵")
        #expect(table["literal"]?.string == #"C:\path\no escapes"#)
        #expect(table["multi"]?.string == "first\nsecond joined")
        #expect(table["raw"]?.string == #"keep \n as is"#)
        #expect(table["key"]?.table?["quoted key"]?.integer == 1)
    }

    @Test func readsTablesArraysAndInlineTables() throws {
        let table = try parse(
            """
            [notifications]
            actions = ["add_30s",
              "restart",  # trailing comma and comments inside
            ]

            [exercises."Bench press"]
            rest = "2m30s"

            [[exercise]]
            name = "Squat"
            superset = { with = "Curl", rest = 90 }

            [[exercise]]
            name = "Rows"

            """)
        let notifications = try #require(table["notifications"])
        #expect(notifications.line == 1)
        #expect(notifications.table?["actions"]?.array?.compactMap(\.string) == ["add_30s", "restart"])
        #expect(table["exercises"]?.table?["Bench press"]?.table?["rest"]?.string == "2m30s")
        let exercises = try #require(table["exercise"]?.array)
        #expect(exercises.map(\.line) == [9, 13])
        #expect(exercises.compactMap { $0.table?["name"]?.string } == ["Squat", "Rows"])
        #expect(exercises[0].table?["superset"]?.table?["rest"]?.integer == 90)
    }

    @Test func keepsDateTimesAsText() throws {
        let table = try parse("when = 1979-05-27T07:32:00Z\nday = 1979-05-27\nspaced = 1979-05-27 07:32:00\n")
        #expect(table["when"]?.kind == .dateTime("1979-05-27T07:32:00Z"))
        #expect(table["day"]?.kind == .dateTime("1979-05-27"))
        #expect(table["spaced"]?.kind == .dateTime("1979-05-27 07:32:00"))
        #expect(table["day"]?.typeDescription == "a date or time")
    }

    @Test(arguments: [
        ("a = 1\na = 2\n", 2, "the key a is defined twice"),
        ("[t]\nx = 1\n[t]\n", 3, "table [t] is defined twice"),
        ("a = 1\n[a]\n", 2, "a is already defined"),
        ("a = \"open\n", 1, "the string is not closed with \""),
        ("a = [1, 2\n", 1, "the list is not closed with ]"),
        ("\nx = \"\"\"\nopen\n", 2, "the string is not closed with \"\"\""),
        ("a = hello\n", 1, "hello is not a TOML value (strings need quotes)"),
        ("a = 1 b = 2\n", 1, "expected the end of the line, found \"b\""),
        ("= 1\n", 1, "expected a key, found \"=\""),
        ("a = \"\\q\"\n", 1, "\\q is not a TOML escape"),
        ("a = \"\\\u{1}\"\n", 1, "a backslash followed by byte 0x1 is not a TOML escape"),
        ("a = 012\n", 1, "012 is not a TOML value (strings need quotes)"),
        ("[a\n", 1, "expected ] to close the table header"),
        ("t = {x = 1}\n[t]\n", 2, "t is already defined"),
        ("\n\nx = 1_\n", 3, "1_ is not a TOML value (strings need quotes)"),
    ])
    func refusesInvalidDocuments(_ text: String, _ line: Int, _ reason: String) {
        let error = syntaxError(text)
        #expect(error == TOMLSyntaxError(line: line, reason: reason), "\(text)")
    }

    @Test func anImplicitTableMayBeDefinedLater() throws {
        let table = try parse("[a.b]\nx = 1\n[a]\ny = 2\n")
        #expect(table["a"]?.table?["y"]?.integer == 2)
        #expect(table["a"]?.table?["b"]?.table?["x"]?.integer == 1)
    }
}
