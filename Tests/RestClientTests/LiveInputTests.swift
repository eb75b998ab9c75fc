import RestClient
import Testing

typealias Fields = [String: LiveInput.Value]

private func parse(_ line: String) throws(InputError) -> Fields {
    try LiveInput.parseLine(line)
}

@Suite("LiveInput: key=value lines")
struct LiveInputLineTests {
    @Test("known keys: integers for heart rate and progress, texts for exercise and workout")
    func knownKeys() throws {
        #expect(
            try parse("heart_rate=142 progress_done=3 progress_total=5") == [
                "heart_rate": .int64(142), "progress_done": .int64(3), "progress_total": .int64(5),
            ])
        #expect(
            try parse(#"exercise="Bench press" workout=Push"#) == [
                "exercise": .string("Bench press"), "workout": .string("Push"),
            ])
        // A text key stays a text whatever it looks like.
        #expect(try parse("exercise=42 workout=true") == ["exercise": .string("42"), "workout": .string("true")])
        // Range is restd's decision: a negative or huge heart rate is still an integer here.
        #expect(try parse("heart_rate=-5") == ["heart_rate": .int64(-5)])
        #expect(try parse("heart_rate=0142") == ["heart_rate": .int64(142)])
    }

    @Test("custom keys are typed by their value")
    func customKeys() throws {
        #expect(
            try parse("x_on=true x_off=false x_n=-12 x_d=2.5 x_e=1e3 x_E=-2.5E-3 x_word=easy x_q=\"42\"") == [
                "x_on": .boolean(true), "x_off": .boolean(false), "x_n": .int64(-12), "x_d": .double(2.5),
                "x_e": .double(1000), "x_E": .double(-0.0025), "x_word": .string("easy"), "x_q": .string("42"),
            ])
        // Not JSON numbers, so texts: leading zeros, a plus sign, a bare dot, words.
        #expect(
            try parse("x_a=007 x_b=+5 x_c=.5 x_d=1. x_e=nan x_f=True") == [
                "x_a": .string("007"), "x_b": .string("+5"), "x_c": .string(".5"), "x_d": .string("1."),
                "x_e": .string("nan"), "x_f": .string("True"),
            ])
        // Unknown keys go to restd typed the same way; it says what it thinks of them.
        #expect(try parse("mood=3") == ["mood": .int64(3)])
    }

    @Test("quoting: spaces, escaped quotes and backslashes, empty texts, = inside values")
    func quoting() throws {
        #expect(try parse(#"exercise="say \"hi\" \\ now""#) == ["exercise": .string(#"say "hi" \ now"#)])
        #expect(try parse(#"x_note="""#) == ["x_note": .string("")])
        #expect(
            try parse(#"x_eq=a=b x_uni="Étirement ☕""#) == ["x_eq": .string("a=b"), "x_uni": .string("Étirement ☕")])
        #expect(try parse("  heart_rate=142\t x_a=1  ") == ["heart_rate": .int64(142), "x_a": .int64(1)])
    }

    @Test("blank lines and comments give no fields")
    func ignored() throws {
        for line in ["", "   ", "\t", "# heart_rate=300", "  # a comment", "#"] {
            #expect(try parse(line).isEmpty, "\(line)")
        }
    }

    @Test(
        "bad lines are refused with a sentence",
        arguments: [
            ("heart", #"expected key=value, found "heart""#),
            ("heart_rate=142 beats", #"expected key=value, found "beats""#),
            ("heart rate=142", #"expected key=value, found "heart""#),
            ("=142", #""=142" has no key before ="#),
            ("heart_rate=", "heart_rate has no value"),
            ("exercise= workout=Legs", #"exercise has no value; write exercise="" for an empty text"#),
            ("heart_rate=fast", #"heart_rate "fast" is not an integer"#),
            ("heart_rate=142.0", #"heart_rate "142.0" is not an integer"#),
            (#"heart_rate="142""#, #"heart_rate must be an integer, not the text "142""#),
            ("heart_rate=99999999999999999999", "heart_rate 99999999999999999999 is too large for a 64-bit integer"),
            ("x_big=99999999999999999999", "x_big 99999999999999999999 is too large for a 64-bit integer"),
            ("x_big=1e999", "x_big 1e999 is out of range for a number"),
            (#"exercise="Bench press"#, #"exercise: the quoted value has no closing ""#),
            (
                #"exercise="Bench"press"#,
                #"exercise: put a space after the closing " of its value, before the next field"#
            ),
            (
                #"exercise=Bench"press""#,
                #"exercise: a " inside an unquoted value; quote the whole value and write the quote as \""#
            ),
            (#"exercise="a\nb""#, #"exercise: unknown escape \n in its quoted value; only \" and \\ are escapes"#),
            ("heart_rate=142 heart_rate=143", "heart_rate is given twice"),
            (#""heart_rate"=142"#, #"expected key=value, found "\"heart_rate\"=142""#),
        ])
    func refused(line: String, message: String) {
        #expect(throws: InputError(message)) { try parse(line) }
    }
}

@Suite("LiveInput: JSON lines")
struct LiveInputJSONTests {
    @Test("a flat object: keys typed like key=value, integers and decimals as JSON writes them")
    func valid() throws {
        #expect(
            try parse(#"{"heart_rate":142,"exercise":"Bench press"}"#) == [
                "heart_rate": .int64(142), "exercise": .string("Bench press"),
            ])
        #expect(
            try parse(#" { "x_i" : -3 , "x_d" : 142.0 , "x_e" : 2e2 , "x_b" : false , "x_s" : "42" } "#) == [
                "x_i": .int64(-3), "x_d": .double(142), "x_e": .double(200), "x_b": .boolean(false),
                "x_s": .string("42"),
            ])
        #expect(
            try parse(#"{"x_neg":-0.5,"x_exp":-1.5E+2,"x_zero":0,"x_min":-9223372036854775808}"#) == [
                "x_neg": .double(-0.5), "x_exp": .double(-150), "x_zero": .int64(0), "x_min": .int64(Int64.min),
            ])
    }

    @Test("string escapes, \\u included, surrogate pairs joined")
    func escapes() throws {
        #expect(try parse(#"{"exercise":"a\"b\\c\/d\te"}"#) == ["exercise": .string("a\"b\\c/d\te")])
        #expect(try parse(#"{"exercise":"\u00c9tirement \u2615"}"#) == ["exercise": .string("Étirement ☕")])
        #expect(try parse(#"{"exercise":"\uD83D\uDCAA curls"}"#) == ["exercise": .string("💪 curls")])
        #expect(try parse(#"{"ex\u0065rcise":"x"}"#) == ["exercise": .string("x")])
        #expect(try parse(#"{"x_raw":"Étirement 💪"}"#) == ["x_raw": .string("Étirement 💪")])
    }

    @Test(
        "bad objects are refused with a sentence and a position",
        arguments: [
            (
                #"{"heart_rate":{"bpm":142}}"#,
                "JSON: heart_rate is an object; values are strings, numbers, true or false"
            ),
            (#"{"x_list":[1,2]}"#, "JSON: x_list is an array; values are strings, numbers, true or false"),
            (#"{"heart_rate":null}"#, "JSON: heart_rate is null; leave the key out instead"),
            ("{}", "JSON: the object sets no field"),
            (#"{"heart_rate":142} x"#, "JSON: unexpected text after the object at character 20"),
            (#"{"heart_rate":142}}"#, "JSON: unexpected text after the object at character 19"),
            (#"{"heart_rate":142"#, #"JSON: expected "," or "}" after the value of heart_rate at character 18"#),
            (#"{"heart_rate":142,}"#, "JSON: expected a key in double quotes at character 19"),
            (#"{heart_rate:142}"#, "JSON: expected a key in double quotes at character 2"),
            (#"{"heart_rate" 142}"#, #"JSON: expected ":" after the key heart_rate at character 15"#),
            (#"{"heart_rate":}"#, "JSON: invalid value for heart_rate at character 15"),
            (#"{"heart_rate":"#, "JSON: the value of heart_rate is missing at character 15"),
            (#"{"x_a":tru}"#, "JSON: invalid value for x_a at character 8"),
            (#"{"x_a":truex}"#, "JSON: invalid value for x_a at character 8"),
            (#"{"x_a":01}"#, #"JSON: expected "," or "}" after the value of x_a at character 9"#),
            (#"{"x_a":-}"#, "JSON: invalid number for x_a at character 8"),
            (#"{"x_a":1.}"#, "JSON: invalid number for x_a at character 8"),
            (#"{"x_a":1e}"#, "JSON: invalid number for x_a at character 8"),
            (#"{"x_a":+1}"#, "JSON: invalid value for x_a at character 8"),
            (#"{"x_a":"\x"}"#, #"JSON: invalid escape; use \" \\ \/ \b \f \n \r \t or \uXXXX at character 9"#),
            (#"{"x_a":"\u12"}"#, #"JSON: \u needs four hex digits at character 9"#),
            (#"{"x_a":"\uD83D"}"#, #"JSON: \uD83D is a high surrogate without its low surrogate at character 9"#),
            (#"{"x_a":"\uD83Dx"}"#, #"JSON: \uD83D is a high surrogate without its low surrogate at character 9"#),
            (#"{"x_a":"\uD83D\u0041"}"#, #"JSON: \uD83D is a high surrogate without its low surrogate at character 9"#),
            (#"{"x_a":"\uDCAA"}"#, #"JSON: \uDCAA is a lone low surrogate at character 9"#),
            (#"{"x_a":"\u0000"}"#, #"JSON: \u0000 cannot be sent over D-Bus at character 9"#),
            ("{\"x_a\":\"a\tb\"}", "JSON: a control character in a string must be escaped at character 10"),
            (#"{"x_a":"open}"#, "JSON: the string at character 8 has no closing quote"),
            (#"{"x_a":"é\q"}"#, #"JSON: invalid escape; use \" \\ \/ \b \f \n \r \t or \uXXXX at character 10"#),
            (#"{"x_a":1,"x_a":2}"#, "JSON: x_a is given twice"),
            (#"{"heart_rate":"142"}"#, #"heart_rate must be an integer, not the text "142""#),
            (#"{"heart_rate":142.0}"#, #"heart_rate "142.0" is not an integer"#),
            (#"{"heart_rate":1e2}"#, #"heart_rate "1e2" is not an integer"#),
            (#"{"heart_rate":true}"#, "heart_rate must be an integer, not true"),
            (
                #"{"heart_rate":123456789012345678901234567890}"#,
                "heart_rate 123456789012345678901234567890 is too large for a 64-bit integer"
            ),
            (
                #"{"x_huge":123456789012345678901234567890}"#,
                "x_huge 123456789012345678901234567890 is too large for a 64-bit integer"
            ),
            (#"{"x_huge":1e400}"#, "x_huge 1e400 is out of range for a number"),
            (#"{"x_huge":-1e400}"#, "x_huge -1e400 is out of range for a number"),
            (#"{"exercise":42}"#, "exercise must be a text, not the number 42"),
            (#"{"workout":false}"#, "workout must be a text, not false"),
        ])
    func refused(line: String, message: String) {
        #expect(throws: InputError(message)) { try parse(line) }
    }

    @Test("a tiny number becomes zero, as strtod reads it")
    func underflow() throws {
        #expect(try parse(#"{"x_tiny":1e-400}"#) == ["x_tiny": .double(0)])
    }
}

@Suite("LiveInput: command-line fields")
struct LiveInputArgumentTests {
    @Test("--set takes the shell's word as it is; a leading quote reads a quoted text")
    func assignments() throws {
        #expect(try LiveInput.parseAssignment("exercise=Bench press") == ("exercise", .string("Bench press")))
        #expect(try LiveInput.parseAssignment("x_zone=3") == ("x_zone", .int64(3)))
        #expect(try LiveInput.parseAssignment(#"x_zone="3""#) == ("x_zone", .string("3")))
        #expect(try LiveInput.parseAssignment("x_f=a=b c") == ("x_f", .string("a=b c")))
        #expect(throws: InputError(#""x_zone" is not key=value"#)) { try LiveInput.parseAssignment("x_zone") }
        #expect(throws: InputError(#""=3" has no key before ="#)) { try LiveInput.parseAssignment("=3") }
        #expect(throws: InputError(#"x_a has no value; write x_a="" for an empty text"#)) {
            try LiveInput.parseAssignment("x_a=")
        }
        #expect(throws: InputError(#"x_a: text after the closing " of its quoted value"#)) {
            try LiveInput.parseAssignment(#"x_a="b"c"#)
        }
    }

    @Test("options and --set together; a key given twice is refused")
    func fields() throws {
        #expect(
            try LiveInput.fields(
                heartRate: 142, done: 3, total: 5, exercise: "Bench press", workout: "Push",
                assignments: ["x_zone=3"]) == [
                    "heart_rate": .int64(142), "progress_done": .int64(3), "progress_total": .int64(5),
                    "exercise": .string("Bench press"), "workout": .string("Push"), "x_zone": .int64(3),
                ])
        #expect(throws: InputError("heart_rate is given twice")) {
            try LiveInput.fields(heartRate: 142, assignments: ["heart_rate=150"])
        }
        #expect(try LiveInput.fields().isEmpty)
    }
}
