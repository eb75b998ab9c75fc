import DBusKit
import RestClient
import RestProtocol
import Testing

@Suite("TimerJSON")
struct TimerJSONTests {
    @Test("a running timer: keys in order, remaining computed at now")
    func running() {
        #expect(
            TimerJSON.object(runningTimer(), now: t0 + 7 * second) == #"""
                {"id":"default","state":"running","label":"Squat","next":"Bench press","notify":true,\#
                "duration_usec":90000000,"warn_usec":0,"remaining_usec":83000000,"started_at":"2026-11-21T21:10:00.000Z",\#
                "ends_at":"2026-11-21T21:11:30.000Z","expired_at":null,"rest_source":null,"until_recovered":false,"end_reason":null,"recovered_bpm":null,"sound":true,"ringing":false}
                """#)
    }

    @Test("a paused timer: no end, frozen remaining, notify false")
    func paused() {
        #expect(
            TimerJSON.object(pausedTimer(label: "", next: ""), now: t0 + 3_600 * second) == #"""
                {"id":"default","state":"paused","label":null,"next":null,"notify":false,\#
                "duration_usec":90000000,"warn_usec":0,"remaining_usec":61200000,"started_at":"2026-11-21T21:10:00.000Z",\#
                "ends_at":null,"expired_at":null,"rest_source":null,"until_recovered":false,"end_reason":null,"recovered_bpm":null,"sound":true,"ringing":false}
                """#)
    }

    @Test("an expired timer: nothing left, expired_at set")
    func expired() {
        #expect(
            TimerJSON.object(expiredTimer(), now: t0 + 102 * second) == #"""
                {"id":"default","state":"expired","label":"Squat","next":"Bench press","notify":true,\#
                "duration_usec":90000000,"warn_usec":0,"remaining_usec":0,"started_at":"2026-11-21T21:10:00.000Z",\#
                "ends_at":null,"expired_at":"2026-11-21T21:11:30.000Z","rest_source":null,"until_recovered":false,"end_reason":null,"recovered_bpm":null,"sound":true,"ringing":false}
                """#)
    }

    @Test("an unset instant is null")
    func unsetInstants() {
        let blank = timerSnapshot(id: "x", state: "paused", durationUSec: 0)
        #expect(
            TimerJSON.object(blank, now: t0) == #"""
                {"id":"x","state":"paused","label":null,"next":null,"notify":true,"duration_usec":0,\#
                "warn_usec":0,"remaining_usec":0,"started_at":null,"ends_at":null,"expired_at":null,"rest_source":null,"until_recovered":false,"end_reason":null,"recovered_bpm":null,"sound":true,"ringing":false}
                """#)
    }

    @Test("an array is one line, [] when empty")
    func array() {
        #expect(TimerJSON.array([], now: t0) == "[]")
        let timers = [runningTimer(id: "a"), expiredTimer()]
        let now = t0 + 7 * second
        #expect(
            TimerJSON.array(timers, now: now)
                == "[" + TimerJSON.object(timers[0], now: now) + "," + TimerJSON.object(timers[1], now: now) + "]")
    }

    @Test("strings escape quotes, backslashes and control characters, and keep non-ASCII")
    func escaping() {
        #expect(JSONText.quoted("") == #""""#)
        #expect(JSONText.quoted(#"say "hi" \ back"#) == #""say \"hi\" \\ back""#)
        #expect(
            JSONText.quoted("a\u{0}b\u{1}c\nd\te\rf\u{1B}g\u{1F}h\u{7F}i\u{85}j")
                == #""a\u0000b\u0001c\u000ad\u0009e\u000df\u001bg\u001fh\u007fi\u0085j""#)
        #expect(JSONText.quoted("Étirement ☕ 🧘 /") == "\"Étirement ☕ 🧘 /\"")
        #expect(JSONText.quoted("a\u{2028}b\u{2029}c") == #""a\u2028b\u2029c""#)
    }

    @Test("every ASCII character, alone and inside printable text, is quoted as the rules say")
    func everyASCIICharacter() {
        for value in UInt8(0)..<128 {
            let character = String(UnicodeScalar(value))
            let expected =
                switch value {
                case 0x22: #"\""#
                case 0x5C: #"\\"#
                case 0x00..<0x20, 0x7F: "\\u00" + (value < 0x10 ? "0" : "") + String(value, radix: 16)
                default: character
                }
            #expect(JSONText.quoted(character) == "\"" + expected + "\"", "\(value)")
            #expect(JSONText.quoted("Squat " + character + " 5") == "\"Squat " + expected + " 5\"", "\(value)")
        }
    }

    @Test("texts are escaped inside the object")
    func escapedInObject() {
        let object = TimerJSON.object(runningTimer(label: "\"Squat\"\\", next: "Étirement\n"), now: t0)
        #expect(object.hasPrefix(#"{"id":"default","state":"running","label":"\"Squat\"\\","next":"Étirement\u000a","#))
    }
}

@Suite("sensors --json")
struct SensorJSONTests {
    @Test("the last value's instant is ISO 8601 under heart_rate_at; what is unknown is null")
    func style() throws {
        let reading = try SensorSnapshot(entry: [
            SensorKey.address: .string("A0:9E:1A:12:34:56"), SensorKey.alias: .string("Polar H10 1234"),
            SensorKey.paired: .boolean(true), SensorKey.connected: .boolean(true), SensorKey.reading: .boolean(true),
            SensorKey.heartRate: .int64(72), SensorKey.heartRateAtUSec: .uint64(1_795_295_400_250_000),
        ])
        let away = try SensorSnapshot(entry: [SensorKey.address: .string("00:11:22:33:44:55")])
        #expect(
            SensorList.json([reading, away])
                == #"[{"address":"A0:9E:1A:12:34:56","alias":"Polar H10 1234","paired":true,"connected":true,"#
                + #""reading":true,"battery":null,"heart_rate":72,"heart_rate_at":"2026-11-21T21:10:00.250Z"},"#
                + #"{"address":"00:11:22:33:44:55","alias":null,"paired":false,"connected":false,"reading":false,"#
                + #""battery":null,"heart_rate":null,"heart_rate_at":null}]"#)
    }
}
