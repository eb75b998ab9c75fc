import RestClient
import Testing

@Suite("WatchTick")
struct WatchTickTests {
    @Test(
        "running: the next instant EndsAtUSec − k s, where the time shown (rounded up) changes",
        arguments: [
            // (ends after t0, now after t0, next after t0), µs
            (90_000_000, 0, 1_000_000),  // 1:30 until exactly 89 s are left
            (90_000_000, 7_000_000, 8_000_000),  // on a boundary: the next one, a second on
            (90_000_000, 7_300_000, 8_000_000),
            (90_000_000, 89_500_000, 90_000_000),  // 0:01 until the deadline, then 0:00
            (90_250_000, 0, 250_000),  // aligned to the deadline, not to the epoch's seconds
            (90_250_000, 250_000, 1_250_000),
            (90_250_000, 90_249_999, 90_250_000),
        ] as [(UInt64, UInt64, UInt64)])
    func running(ends: UInt64, now: UInt64, next: UInt64) {
        var timer = runningTimer()
        timer.endsAtUSec = t0 + ends
        #expect(WatchTick.next(after: t0 + now, timer) == t0 + next)
        #expect(TimeFormat.countdown(usec: ends - now) != TimeFormat.countdown(usec: ends - next))
        #expect(TimeFormat.countdown(usec: ends - now) == TimeFormat.countdown(usec: ends - (next - 1)))
    }

    @Test("running at or past its deadline: nothing until restd's Expired")
    func pastDeadline() {
        let timer = runningTimer()
        #expect(WatchTick.next(after: timer.endsAtUSec, timer) == nil)
        #expect(WatchTick.next(after: timer.endsAtUSec + 5 * second, timer) == nil)
    }

    @Test(
        "expired: the next instant ExpiredAtUSec + k s, where the overtime shown (rounded down) changes",
        arguments: [
            (90_000_000, 90_000_000, 91_000_000),
            (90_000_000, 102_000_000, 103_000_000),
            (90_000_000, 102_999_999, 103_000_000),
            (90_400_000, 102_500_000, 103_400_000),
            (90_000_000, 89_000_000, 91_000_000),  // a clock behind restd's: +0:00 until a second after
        ] as [(UInt64, UInt64, UInt64)])
    func expired(expiredAt: UInt64, now: UInt64, next: UInt64) {
        var timer = expiredTimer()
        timer.expiredAtUSec = t0 + expiredAt
        #expect(WatchTick.next(after: t0 + now, timer) == t0 + next)
    }

    @Test("paused, expired without an instant, no timer, a state restctl does not know: no ticks")
    func none() {
        #expect(WatchTick.next(after: t0, pausedTimer()) == nil)
        var unknownExpiry = expiredTimer()
        unknownExpiry.expiredAtUSec = 0
        #expect(WatchTick.next(after: t0, unknownExpiry) == nil)
        #expect(WatchTick.next(after: t0, nil) == nil)
        var future = runningTimer()
        future.state = "resting"
        #expect(WatchTick.next(after: t0, future) == nil)
    }

    @Test("overtime near the end of the clock does not overflow")
    func overflow() {
        var timer = expiredTimer()
        timer.expiredAtUSec = UInt64.max - 10
        #expect(WatchTick.next(after: UInt64.max - 5, timer) == UInt64.max)
    }

    @Test(
        "poll timeouts never end before the tick: milliseconds rounded up",
        arguments: [
            (0, 0), (1, 1), (999, 1), (1_000, 1), (1_001, 2), (1_000_000, 1_000), (UInt64.max / 2, Int32.max),
        ] as [(UInt64, Int32)])
    func timeout(usec: UInt64, milliseconds: Int32) {
        #expect(WatchTick.timeoutMilliseconds(from: t0, to: t0 + usec) == milliseconds)
    }

    @Test("a tick that has come: timeout 0")
    func timeoutPast() {
        #expect(WatchTick.timeoutMilliseconds(from: t0 + 5, to: t0) == 0)
    }
}
