import RestClient
import Testing

@Suite("WatchFormat")
struct WatchFormatTests {
    static let now = t0 + 7 * second
    static let fields: Fields = [
        "heart_rate": .int64(142), "progress_done": .int64(3), "progress_total": .int64(5),
        "exercise": .string("Bench press"), "workout": .string("Push"),
    ]
    static let timerJSON =
        #"{"id":"default","state":"running","label":"Squat","next":"Bench press","notify":true,"#
        + #""duration_usec":90000000,"warn_usec":0,"remaining_usec":83000000,"started_at":"2026-11-21T21:10:00.000Z","#
        + #""ends_at":"2026-11-21T21:11:30.000Z","expired_at":null,"rest_source":null,"until_recovered":false,"end_reason":null,"recovered_bpm":null,"sound":true,"ringing":false}"#

    @Test("no timer, no fields: idle, and null with an empty object")
    func idle() {
        #expect(WatchFormat.text.line(.idle, now: Self.now) == "idle")
        #expect(WatchFormat.json.line(.idle, now: Self.now) == #"{"timer":null,"live":{}}"#)
    }

    @Test("a running timer without live fields: its status line, its status object")
    func timerOnly() {
        let state = WatchState(timer: runningTimer())
        #expect(WatchFormat.text.line(state, now: Self.now) == "default  running  1:23  Squat · Next: Bench press")
        #expect(WatchFormat.json.line(state, now: Self.now) == #"{"timer":"# + Self.timerJSON + #","live":{}}"#)
    }

    @Test("a timer with fields: known keys in a fixed order, progress as done/total")
    func timerAndFields() {
        let state = WatchState(timer: runningTimer(), live: Self.fields)
        #expect(
            WatchFormat.text.line(state, now: Self.now) == "default  running  1:23  Squat · Next: Bench press"
                + #" | heart_rate=142 progress=3/5 exercise="Bench press" workout=Push"#)
        #expect(
            WatchFormat.json.line(state, now: Self.now) == #"{"timer":"# + Self.timerJSON
                + #","live":{"heart_rate":142,"progress_done":3,"progress_total":5,"exercise":"Bench press","workout":"Push"}}"#
        )
    }

    @Test("fields without a timer; progress with one half only")
    func fieldsOnly() {
        let state = WatchState(live: ["progress_total": .int64(5), "heart_rate": .int64(90)])
        #expect(WatchFormat.text.line(state, now: Self.now) == "idle | heart_rate=90 progress_total=5")
        #expect(
            WatchFormat.json.line(state, now: Self.now)
                == #"{"timer":null,"live":{"heart_rate":90,"progress_total":5}}"#)
        let done = WatchState(live: ["progress_done": .int64(2)])
        #expect(WatchFormat.text.line(done, now: Self.now) == "idle | progress_done=2")
    }

    @Test("custom keys after the known ones, sorted; each type written so that it reads back the same")
    func customKeys() throws {
        let live: Fields = [
            "x_zone": .int64(3), "x_b": .boolean(true), "x_speed": .double(2.5), "x_whole": .double(142),
            "x_note": .string("easy"), "x_spaced": .string("two words"), "x_num": .string("42"),
            "x_empty": .string(""), "x_quote": .string(#"say "hi" \ "#), "heart_rate": .int64(150),
        ]
        let state = WatchState(timer: pausedTimer(label: "", next: ""), live: live)
        let text = WatchFormat.text.line(state, now: Self.now)
        #expect(
            text == "default  paused   1:02 | heart_rate=150 x_b=true x_empty=\"\" x_note=easy x_num=\"42\" "
                + #"x_quote="say \"hi\" \\ " x_spaced="two words" x_speed=2.5 x_whole=142.0 x_zone=3"#)
        // What watch prints after " | " is a line `restctl live --stdin` takes back unchanged.
        let fieldsPart = String(text.split(separator: "|", maxSplits: 1)[1].dropFirst())
        #expect(try LiveInput.parseLine(fieldsPart) == live)

        #expect(
            WatchFormat.json.line(WatchState(live: live), now: Self.now) == #"{"timer":null,"live":{"heart_rate":150,"#
                + #""x_b":true,"x_empty":"","x_note":"easy","x_num":"42","x_quote":"say \"hi\" \\ ","x_spaced":"two words","#
                + #""x_speed":2.5,"x_whole":142.0,"x_zone":3}}"#)
    }

    @Test("a text that would break the line is quoted and escaped")
    func controlCharacters() {
        let state = WatchState(live: ["exercise": .string("a\nb\u{2028}c")])
        #expect(WatchFormat.text.line(state, now: Self.now) == #"idle | exercise="a\u{A}b\u{2028}c""#)
        #expect(WatchFormat.json.line(state, now: Self.now) == #"{"timer":null,"live":{"exercise":"a\u000ab\u2028c"}}"#)
    }

    @Test("an expired timer shows its overtime")
    func expired() {
        let state = WatchState(timer: expiredTimer(), live: ["heart_rate": .int64(120)])
        #expect(
            WatchFormat.text.line(state, now: t0 + 102 * second)
                == "default  expired  0:00 (+0:12)  Squat · Next: Bench press | heart_rate=120")
    }
}

@Suite("WatchState")
struct WatchStateTests {
    @Test("PropertiesChanged updates the values it carries, and nothing else")
    func changed() {
        var state = WatchState(timer: runningTimer(), live: ["heart_rate": .int64(120)])
        #expect(
            applying(
                &state,
                .timerChanged(
                    [
                        "State": .string("paused"), "RemainingUSec": .uint64(61_200_000),
                        "EndsAtUSec": .uint64(0),
                    ], invalidated: [])))
        var expected = runningTimer()
        expected.state = "paused"
        expected.remainingUSec = 61_200_000
        expected.endsAtUSec = 0
        #expect(state == WatchState(timer: expected, live: ["heart_rate": .int64(120)]))
    }

    @Test("a rest that ended on recovery: the end reason and the heart rate come with PropertiesChanged")
    func recoveredByPropertiesChanged() {
        var state = WatchState(timer: runningTimer())
        let change: Fields = [
            "State": .string("expired"), "ExpiredAtUSec": .uint64(t0 + 72 * second), "RemainingUSec": .uint64(0),
            "EndsAtUSec": .uint64(0), "EndReason": .string("recovered"), "RecoveredBPM": .uint32(118),
            "UntilRecovered": .boolean(true), "RestSource": .string("exercise"),
        ]
        #expect(applying(&state, .timerChanged(change, invalidated: [])))
        #expect(state.timer?.endReason == "recovered" && state.timer?.recoveredBPM == 118)
        #expect(state.timer?.untilRecovered == true && state.timer?.restSource == "exercise")
        #expect(state.timer?.recoveryNote == "recovered in 1:12 ♥118")
        #expect(!applying(&state, .timerChanged(["EndReason": .uint32(1)], invalidated: [])))
    }

    @Test("a change it cannot apply asks for a reading: no timer, invalidated values, a wrong type")
    func cannotApply() {
        var idle = WatchState.idle
        #expect(!applying(&idle, .timerChanged(["State": .string("paused")], invalidated: [])))
        #expect(idle == .idle)
        var state = WatchState(timer: runningTimer())
        #expect(!applying(&state, .timerChanged([:], invalidated: ["State"])))
        #expect(!applying(&state, .timerChanged(["State": .uint32(1)], invalidated: [])))
        #expect(applying(&state, .timerChanged(["SomethingNew": .uint32(1)], invalidated: [])))
        #expect(state.timer == runningTimer())
    }

    @Test("added, expired, removed; live fields replaced whole; restd gone clears everything")
    func lifecycle() {
        var state = WatchState.idle
        let properties: Fields = [
            "Id": .string("default"), "Label": .string("Squat"), "Next": .string("Bench press"),
            "State": .string("running"), "DurationUSec": .uint64(90 * second), "StartedAtUSec": .uint64(t0),
            "EndsAtUSec": .uint64(t0 + 90 * second), "RemainingUSec": .uint64(90 * second),
            "ExpiredAtUSec": .uint64(0), "Notify": .boolean(true),
        ]
        #expect(applying(&state, .timerAdded(properties)))
        #expect(state.timer == runningTimer())
        let expiry: Fields = [
            "State": .string("expired"), "ExpiredAtUSec": .uint64(t0 + 90 * second), "RemainingUSec": .uint64(0),
            "EndsAtUSec": .uint64(0),
        ]
        #expect(applying(&state, .timerChanged(expiry, invalidated: [])))
        #expect(
            state.timer
                == timerSnapshot(
                    id: "default", label: "Squat", next: "Bench press", state: "expired",
                    durationUSec: 90 * second, startedAtUSec: t0,
                    expiredAtUSec: t0 + 90 * second))
        #expect(applying(&state, .liveChanged(["heart_rate": .int64(120), "x_a": .boolean(true)])))
        #expect(applying(&state, .liveChanged(["heart_rate": .int64(121)])))
        #expect(state.live == ["heart_rate": .int64(121)])
        #expect(applying(&state, .timerRemoved))
        #expect(state.timer == nil && state.live == ["heart_rate": .int64(121)])
        #expect(applying(&state, .timerAdded(properties)))
        #expect(applying(&state, .daemonGone))
        #expect(state == .idle)
        #expect(!applying(&state, .timerAdded(["Id": .string("default")])))
    }
}

/// `state.apply(event)`, outside the #expect macro (which cannot mutate).
private func applying(_ state: inout WatchState, _ event: WatchEvent) -> Bool {
    state.apply(event)
}
