import RestClient
import Testing

/// Whole lines of every watch format for one scripted timer: 90 s started at t0 with label
/// Squat and next Bench press, seen at t0 + 7 s (1:23 left), paused with 61.2 s left, expired
/// 12 s ago, and no timer.
@Suite("Bar formats")
struct BarFormatTests {
    static let now = t0 + 7 * second
    static let live: Fields = [
        "heart_rate": .int64(142), "progress_done": .int64(3), "progress_total": .int64(5),
        "exercise": .string("Bench press"), "workout": .string("Push"),
    ]

    /// Every format's line for `state` at `now`, in `WatchFormat.allCases` order.
    private func lines(_ state: WatchState, now: UInt64 = now) -> [WatchFormat: String] {
        Dictionary(uniqueKeysWithValues: WatchFormat.allCases.map { ($0, $0.line(state, now: now)) })
    }

    @Test("the formats, by name")
    func names() {
        #expect(
            WatchFormat.allCases.map(\.rawValue) == ["text", "json", "waybar", "polybar", "i3blocks", "i3status-rs"])
    }

    @Test("running, label and next")
    func running() {
        let lines = lines(WatchState(timer: runningTimer()))
        #expect(lines[.text] == "default  running  1:23  Squat · Next: Bench press")
        #expect(
            lines[.waybar] == #"{"text":"1:23 Squat → Bench press","alt":"running","#
                + #""tooltip":"Squat · Next: Bench press\u000a1:23 left of 1:30","class":"running","percentage":7}"#)
        #expect(lines[.polybar] == "1:23 Squat → Bench press")
        #expect(lines[.i3blocks] == "1:23 Squat → Bench press")
        #expect(
            lines[.i3statusRs] == #"{"icon":"pomodoro_break","state":"Good","text":"1:23 Squat → Bench press","#
                + #""short_text":"1:23"}"#)
    }

    @Test("running with a live activity: heart rate and progress in the text, the activity in words in the tooltip")
    func runningLive() {
        let lines = lines(WatchState(timer: runningTimer(), live: Self.live))
        #expect(
            lines[.text] == "default  running  1:23  Squat · Next: Bench press"
                + #" | heart_rate=142 progress=3/5 exercise="Bench press" workout=Push"#)
        #expect(
            lines[.waybar] == #"{"text":"1:23 Squat → Bench press ♥142 3/5","alt":"running","#
                + #""tooltip":"Squat · Next: Bench press\u000a1:23 left of 1:30\u000a"#
                + #"♥142 bpm · 3 of 5 done · Bench press · workout Push","class":"running","percentage":7}"#
        )
        #expect(lines[.polybar] == "1:23 Squat → Bench press ♥142 3/5")
        #expect(lines[.i3blocks] == "1:23 Squat → Bench press ♥142 3/5")
        #expect(
            lines[.i3statusRs] == #"{"icon":"pomodoro_break","state":"Good","#
                + #""text":"1:23 Squat → Bench press ♥142 3/5","short_text":"1:23"}"#)
    }

    @Test("label only, next only, neither; progress needs both halves")
    func texts() {
        let labelOnly = WatchState(timer: runningTimer(next: ""), live: ["progress_done": .int64(2)])
        #expect(WatchFormat.polybar.line(labelOnly, now: Self.now) == "1:23 Squat")
        #expect(
            WatchFormat.waybar.line(labelOnly, now: Self.now) == #"{"text":"1:23 Squat","alt":"running","#
                + #""tooltip":"Squat\u000a1:23 left of 1:30\u000a2 done","class":"running","percentage":7}"#)
        let nextOnly = WatchState(timer: runningTimer(label: ""), live: ["heart_rate": .uint32(99)])
        #expect(WatchFormat.i3blocks.line(nextOnly, now: Self.now) == "1:23 → Bench press ♥99")
        // A workout's "Next: Curl" is not said twice.
        let workout = WatchState(timer: runningTimer(next: "Next: Curl"))
        #expect(WatchFormat.polybar.line(workout, now: Self.now) == "1:23 Squat → Curl")
        #expect(WatchFormat.waybar.line(workout, now: Self.now).contains(#""tooltip":"Squat · Next: Curl\u000a"#))
        let neither = WatchState(timer: runningTimer(label: "", next: ""))
        #expect(WatchFormat.i3blocks.line(neither, now: Self.now) == "1:23")
        #expect(
            WatchFormat.waybar.line(neither, now: Self.now) == #"{"text":"1:23","alt":"running","#
                + #""tooltip":"1:23 left of 1:30","class":"running","percentage":7}"#)
        #expect(
            WatchFormat.i3statusRs.line(neither, now: Self.now)
                == #"{"icon":"pomodoro_break","state":"Good","text":"1:23","short_text":"1:23"}"#)
    }

    @Test("paused: frozen time, percentage of the run gone by in shown seconds")
    func paused() {
        let lines = lines(WatchState(timer: pausedTimer()), now: t0 + 500 * second)
        #expect(lines[.text] == "default  paused   1:02  Squat · Next: Bench press")
        #expect(
            lines[.waybar] == #"{"text":"paused 1:02 Squat → Bench press","alt":"paused","#
                + #""tooltip":"Squat · Next: Bench press\u000apaused, 1:02 left of 1:30","class":"paused","percentage":31}"#
        )
        #expect(lines[.polybar] == "paused 1:02 Squat → Bench press")
        #expect(lines[.i3blocks] == "paused 1:02 Squat → Bench press")
        #expect(
            lines[.i3statusRs] == #"{"icon":"pomodoro_paused","state":"Info","#
                + #""text":"paused 1:02 Squat → Bench press","short_text":"paused 1:02"}"#)
    }

    @Test("expired: overtime, rounded down")
    func expired() {
        let lines = lines(WatchState(timer: expiredTimer(), live: ["heart_rate": .int64(120)]), now: t0 + 102_900_000)
        #expect(lines[.text] == "default  expired  0:00 (+0:12)  Squat · Next: Bench press | heart_rate=120")
        #expect(
            lines[.waybar] == #"{"text":"+0:12 Squat → Bench press ♥120","alt":"expired","#
                + #""tooltip":"Squat · Next: Bench press\u000aover 0:12 ago\u000a♥120 bpm","class":"expired","percentage":100}"#
        )
        #expect(lines[.polybar] == "+0:12 Squat → Bench press ♥120")
        #expect(lines[.i3blocks] == "+0:12 Squat → Bench press ♥120")
        #expect(
            lines[.i3statusRs] == #"{"icon":"bell","state":"Critical","text":"+0:12 Squat → Bench press ♥120","#
                + #""short_text":"+0:12"}"#)
    }

    /// The heart rate at recovery and the live one are both ♥ numbers: the bar shows one, the
    /// live one (it goes on), and the note's only when there is no live one.
    @Test("recovered: one heart rate in the bar, words in the tooltip")
    func recovered() {
        var timer = expiredTimer()
        timer.endReason = "recovered"
        timer.recoveredBPM = 110
        timer.untilRecovered = true
        let live = WatchState(timer: timer, live: ["heart_rate": .int64(108), "exercise": .string("Squat")])
        let now = t0 + 105 * second
        #expect(WatchFormat.polybar.line(live, now: now) == "+0:15 recovered in 1:30 Squat → Bench press ♥108")
        #expect(
            WatchFormat.polybar.line(WatchState(timer: timer), now: now)
                == "+0:15 recovered in 1:30 ♥110 Squat → Bench press")
        #expect(
            WatchFormat.waybar.line(live, now: now).contains(
                #""tooltip":"Squat · Next: Bench press\u000aover 0:15 ago\u000arecovered in 1:30 ♥110\u000a♥108 bpm · Squat""#
            ))
    }

    @Test("the live activity in words: the strap, contact and battery, progress without a total; x_ fields left out")
    func liveWords() {
        #expect(
            BarText.liveWords([
                "heart_rate": .int64(142), "heart_rate_sensor": .string("Polar H10"),
                "heart_rate_contact": .boolean(false), "sensor_battery": .int64(80), "progress_done": .int64(2),
                "x_zone": .int64(3),
            ]) == "♥142 bpm (Polar H10, no skin contact, battery 80%) · 2 done")
        #expect(BarText.liveWords(["x_zone": .int64(3)]).isEmpty)
    }

    @Test("idle: no timer (or no restd), with and without live fields")
    func idle() {
        let lines = lines(.idle)
        #expect(lines[.text] == "idle")
        #expect(lines[.json] == #"{"timer":null,"live":{}}"#)
        #expect(
            lines[.waybar] == #"{"text":"idle","alt":"idle","tooltip":"no rest timer","class":"idle","percentage":0}"#)
        #expect(lines[.polybar] == "idle")
        #expect(lines[.i3blocks] == "idle")
        #expect(lines[.i3statusRs] == #"{"icon":"pomodoro_stopped","state":"Idle","text":"idle","short_text":"idle"}"#)
        let live = WatchState(live: Self.live)
        #expect(WatchFormat.polybar.line(live, now: Self.now) == "idle ♥142 3/5")
        #expect(
            WatchFormat.waybar.line(live, now: Self.now) == #"{"text":"idle ♥142 3/5","alt":"idle","#
                + #""tooltip":"no rest timer\u000a♥142 bpm · 3 of 5 done · Bench press · workout Push","#
                + #""class":"idle","percentage":0}"#)
    }

    @Test("percentage: 0 at the start, up by whole seconds shown, 100 at 0:00; adding time moves it back")
    func percentage() {
        let timer = runningTimer()
        #expect(BarText.percentage(timer, now: t0) == 0)
        #expect(BarText.percentage(timer, now: t0 + 999_999) == 0)  // 1:30 still shown
        #expect(BarText.percentage(timer, now: t0 + second) == 1)
        #expect(BarText.percentage(timer, now: t0 + 45 * second) == 50)
        #expect(BarText.percentage(timer, now: t0 + 90 * second) == 100)
        var longer = timer
        longer.durationUSec = 120 * second  // +30 s at t0 + 7 s: 1:53 left of 2:00
        longer.endsAtUSec += 30 * second
        #expect(BarText.percentage(longer, now: Self.now) == 5)
        #expect(BarText.percentage(nil, now: Self.now) == 0)
    }

    @Test("i3status-rs: Warning from the pre-alert on, counted in shown seconds")
    func warning() {
        var timer = runningTimer()
        timer.warnUSec = 10 * second
        let state = { (left: UInt64) -> String in
            let line = WatchFormat.i3statusRs.line(WatchState(timer: timer), now: timer.endsAtUSec - left)
            return String(line.split(separator: ",")[1])
        }
        #expect(state(10_000_001) == #""state":"Good""#)  // 0:11
        #expect(state(10_000_000) == #""state":"Warning""#)  // 0:10, when restd sends "10 s left"
        #expect(state(1) == #""state":"Warning""#)
        var paused = pausedTimer()
        paused.warnUSec = 90 * second
        #expect(WatchFormat.i3statusRs.line(WatchState(timer: paused), now: Self.now).contains(#""state":"Info""#))
    }

    @Test("texts are escaped for each bar: Pango markup for waybar, polybar's %{ tags, one line always")
    func escaping() {
        let timer = runningTimer(label: "<b>50%{F#f00}</b> & co", next: "a\u{2028}b \"q\"")
        let state = WatchState(timer: timer)
        #expect(
            WatchFormat.waybar.line(state, now: Self.now) == #"{"text":"1:23 &lt;b&gt;50%{F#f00}&lt;/b&gt; &amp; co → "#
                + #"a\\u{2028}b \"q\"","alt":"running","tooltip":"&lt;b&gt;50%{F#f00}&lt;/b&gt; &amp; co · Next: "#
                + #"a\\u{2028}b \"q\"\u000a1:23 left of 1:30","class":"running","percentage":7}"#)
        #expect(WatchFormat.polybar.line(state, now: Self.now) == #"1:23 <b>50% {F#f00}</b> & co → a\u{2028}b "q""#)
        #expect(WatchFormat.i3blocks.line(state, now: Self.now) == #"1:23 <b>50%{F#f00}</b> & co → a\u{2028}b "q""#)
        #expect(
            WatchFormat.i3statusRs.line(state, now: Self.now) == #"{"icon":"pomodoro_break","state":"Good","#
                + #""text":"1:23 <b>50%{F#f00}</b> & co → a\\u{2028}b \"q\"","short_text":"1:23"}"#)
        // "<" with a combining mark is one Character but still a "<" to a markup parser.
        let combining = WatchState(timer: runningTimer(label: "<\u{301}i>", next: ""))
        #expect(WatchFormat.waybar.line(combining, now: Self.now).hasPrefix("{\"text\":\"1:23 &lt;\u{301}i&gt;\""))
    }

    @Test(
        "every format's line changes only at a tick: the same just before, different at it",
        arguments: WatchFormat.allCases.filter { $0 != .json })
    func changesAtTicks(format: WatchFormat) throws {
        var timer = runningTimer()
        timer.endsAtUSec += 250_000  // a deadline off the whole second of the epoch
        timer.warnUSec = 85 * second
        for state in [WatchState(timer: timer, live: Self.live), WatchState(timer: expiredTimer())] {
            var now = t0 + 3_100_000
            for _ in 0..<8 {
                let tick = try #require(WatchTick.next(after: now, state.timer))
                #expect(format.line(state, now: now) == format.line(state, now: tick - 1))
                #expect(format.line(state, now: tick - 1) != format.line(state, now: tick))
                now = tick
            }
        }
    }
}
