import RestClient
import Testing

@Suite("TimerIDParser")
struct TimerIDParserTests {
    @Test("passes valid ids, dashes included")
    func valid() throws {
        #expect(try TimerIDParser.parse("squats_2") == "squats_2")
        #expect(try TimerIDParser.parse("bench-press") == "bench-press")
        #expect(TimerIDParser.defaultID == "default")
    }

    @Test("refuses an empty --id instead of taking it for the default timer")
    func empty() {
        #expect(throws: InputError(#"--id is empty; give a timer id, or leave --id out for "default""#)) {
            try TimerIDParser.parse("")
        }
    }

    @Test("refuses ids that cannot name a timer, with restd's sentence")
    func invalid() {
        #expect(throws: InputError(#"timer id "x.y" is invalid: use 1 to 64 characters of A-Z, a-z, 0-9, _ and -"#)) {
            try TimerIDParser.parse("x.y")
        }
        #expect(throws: InputError.self) { try TimerIDParser.parse("a/b") }
        #expect(throws: InputError.self) { try TimerIDParser.parse("é") }
        #expect(throws: InputError.self) { try TimerIDParser.parse(String(repeating: "a", count: 65)) }
    }
}
