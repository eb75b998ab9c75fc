import RestClient
import Testing

@Suite("CountdownLine")
struct CountdownLineTests {
    @Test("running: time, a bar of the rest gone by in eighths of a cell, texts, live fields")
    func running() {
        // 7 s of 90: 12 of 160 eighths, one cell and a half.
        let state = WatchState(timer: runningTimer(), live: ["heart_rate": .int64(142)])
        #expect(
            CountdownLine.render(state, now: t0 + 7 * second, columns: 80)
                == "1:23 [█▌                  ] Squat → Bench press ♥142")
        #expect(
            CountdownLine.render(state, now: t0, columns: 80)
                == "1:30 [                    ] Squat → Bench press ♥142")
        #expect(
            CountdownLine.render(state, now: t0 + 90 * second, columns: 80)
                == "0:00 [████████████████████] Squat → Bench press ♥142")
    }

    @Test("paused, and expired")
    func pausedAndExpired() {
        #expect(
            CountdownLine.render(WatchState(timer: pausedTimer(next: "")), now: t0, columns: 80)
                == "paused 1:02 [██████▏             ] Squat")
        #expect(
            CountdownLine.render(WatchState(timer: expiredTimer()), now: t0 + 95 * second, columns: 80)
                == "+0:05 [████████████████████] Squat → Bench press")
    }

    @Test("narrow terminals: a shorter bar, then none, then the line cut with …; never the last column")
    func narrow() {
        let state = WatchState(timer: runningTimer())
        let now = t0 + 7 * second
        #expect(CountdownLine.render(state, now: now, columns: 59) == "1:23 [▊         ] Squat → Bench press")
        #expect(CountdownLine.render(state, now: now, columns: 39) == "1:23 Squat → Bench press")
        #expect(CountdownLine.render(state, now: now, columns: 20) == "1:23 Squat → Bench…")
        #expect(CountdownLine.render(state, now: now, columns: 25) == "1:23 Squat → Bench press")
        #expect(CountdownLine.render(state, now: now, columns: 1) == "…")
        for columns in 1...100 {
            #expect(CountdownLine.render(state, now: now, columns: columns).count <= max(columns - 1, 1))
        }
    }
}

@Suite("WaitOutcome")
struct WaitOutcomeTests {
    @Test("waiting while the timer runs or is paused; over once it expired; cancelled once it is gone")
    func outcomes() {
        #expect(WaitOutcome(WatchState(timer: runningTimer()), daemonPresent: true, following: true) == .waiting)
        #expect(WaitOutcome(WatchState(timer: pausedTimer()), daemonPresent: true, following: true) == .waiting)
        #expect(WaitOutcome(WatchState(timer: expiredTimer()), daemonPresent: true, following: true) == .over)
        #expect(WaitOutcome(.idle, daemonPresent: true, following: true) == .cancelled)
    }

    @Test("restd gone comes first; a reading still due concludes nothing")
    func daemon() {
        #expect(WaitOutcome(.idle, daemonPresent: false, following: false) == .daemonGone)
        #expect(WaitOutcome(WatchState(timer: expiredTimer()), daemonPresent: false, following: false) == .daemonGone)
        #expect(WaitOutcome(.idle, daemonPresent: true, following: false) == .waiting)
    }
}
