import RestClient
import Testing

@Suite("TimerLine")
struct TimerLineTests {
    @Test("a running timer counts down from its end, rounding up")
    func running() {
        #expect(
            TimerLine.format(runningTimer(), now: t0 + 7 * second)
                == "default  running  1:23  Squat · Next: Bench press")
        #expect(
            TimerLine.format(runningTimer(), now: t0 + 6_500_000)
                == "default  running  1:24  Squat · Next: Bench press")
        #expect(TimerLine.format(runningTimer(), now: t0) == "default  running  1:30  Squat · Next: Bench press")
    }

    @Test("label and next are each optional")
    func texts() {
        let now = t0 + 7 * second
        #expect(TimerLine.format(runningTimer(label: "", next: ""), now: now) == "default  running  1:23")
        #expect(TimerLine.format(runningTimer(next: ""), now: now) == "default  running  1:23  Squat")
        #expect(TimerLine.format(runningTimer(label: ""), now: now) == "default  running  1:23  Next: Bench press")
        // A workout's "Next: Curl" is not said twice.
        #expect(
            TimerLine.format(runningTimer(next: "Next: Curl"), now: now) == "default  running  1:23  Squat · Next: Curl"
        )
    }

    @Test("a rest that may end on recovery says how it stands")
    func recovery() {
        let now = t0 + 7 * second
        #expect(
            TimerLine.format(runningTimer(next: "", untilRecovered: true), now: now)
                == "default  running  1:23  until recovered  Squat")
        #expect(
            TimerLine.format(runningTimer(next: "", untilRecovered: true, endReason: "sensor_lost"), now: now)
                == "default  running  1:23  heart rate lost: full rest  Squat")
        let recovered = timerSnapshot(
            id: "default", label: "Squat", state: "expired", durationUSec: 90 * second, startedAtUSec: t0,
            expiredAtUSec: t0 + 72 * second, untilRecovered: true, endReason: "recovered", recoveredBPM: 118)
        #expect(
            TimerLine.format(recovered, now: t0 + 75 * second)
                == "default  expired  0:00 (+0:03)  recovered in 1:12 ♥118  Squat")
        #expect(
            TimerJSON.object(recovered, now: t0 + 75 * second).hasSuffix(
                #""rest_source":null,"until_recovered":true,"end_reason":"recovered","recovered_bpm":118,"sound":true,"ringing":false}"#
            ))
        // Run its full length without heart rate: said as "Rest over" says it.
        let lost = timerSnapshot(
            id: "default", label: "Squat", state: "expired", durationUSec: 90 * second, startedAtUSec: t0,
            expiredAtUSec: t0 + 90 * second, untilRecovered: true, endReason: "sensor_lost")
        #expect(
            TimerLine.format(lost, now: t0 + 93 * second)
                == "default  expired  0:00 (+0:03)  heart rate lost: full rest  Squat")
    }

    @Test("a paused timer shows its frozen time, whatever the clock says")
    func paused() {
        for now in [t0, t0 + 3_600 * second] {
            #expect(TimerLine.format(pausedTimer(), now: now) == "default  paused   1:02  Squat · Next: Bench press")
        }
        #expect(TimerLine.format(pausedTimer(label: "", next: ""), now: t0) == "default  paused   1:02")
    }

    @Test("an expired timer shows 0:00 and its overtime")
    func expired() {
        let end = t0 + 90 * second
        #expect(
            TimerLine.format(expiredTimer(), now: end + 12 * second)
                == "default  expired  0:00 (+0:12)  Squat · Next: Bench press")
        #expect(TimerLine.format(expiredTimer(label: "", next: ""), now: end) == "default  expired  0:00 (+0:00)")
        #expect(
            TimerLine.format(expiredTimer(label: ""), now: end + 3_723_900_000)
                == "default  expired  0:00 (+1:02:03)  Next: Bench press")
    }

    @Test("a running timer past its end that restd has not expired yet reads 0:00")
    func runningPastEnd() {
        #expect(
            TimerLine.format(runningTimer(), now: t0 + 95 * second)
                == "default  running  0:00  Squat · Next: Bench press")
    }

    @Test("an hour or more reads h:mm:ss")
    func hours() {
        var long = runningTimer(label: "Nap", next: "")
        long.durationUSec = 7_200 * second
        long.endsAtUSec = t0 + 7_200 * second
        #expect(TimerLine.format(long, now: t0 + 3_477 * second) == "default  running  1:02:03  Nap")
    }

    @Test("a list pads ids so that the columns line up")
    func lines() {
        let timers = [runningTimer(id: "a"), runningTimer(label: "", next: "", id: "plank_2")]
        #expect(
            TimerLine.lines(timers, now: t0 + 7 * second) == [
                "a        running  1:23  Squat · Next: Bench press",
                "plank_2  running  1:23",
            ])
        #expect(TimerLine.lines([], now: t0).isEmpty)
    }

    @Test("texts keep non-ASCII and escape line breaks")
    func textsEscaped() {
        #expect(
            TimerLine.format(runningTimer(label: "Étirement ☕", next: "a\u{2028}b\nc"), now: t0)
                == #"default  running  1:30  Étirement ☕ · Next: a\u{2028}b\u{A}c"#)
    }
}
