import Clocks
import Glibc

/// The clocks the bench reads: CLOCK_REALTIME to compare with restd's deadlines (which it
/// publishes as CLOCK_REALTIME µs), CLOCK_MONOTONIC for every duration.
enum Clock {
    /// CLOCK_REALTIME in µs since the epoch, as restd's `*USec` instants.
    static var realtimeUSec: Int64 { KernelClock.nanoseconds(CLOCK_REALTIME) / 1000 }

    /// Sleeps `seconds` (restarting after signals).
    static func sleep(_ seconds: Double) {
        guard seconds > 0 else { return }
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) < 0 && errno == EINTR { request = remaining }
    }

    /// Sleeps until the CLOCK_MONOTONIC instant `seconds` (as `KernelClock.monotonicSeconds` reads it).
    static func sleep(untilMonotonic seconds: Double) {
        let total = Int64(seconds * 1e9)
        var target = timespec(tv_sec: Int(total / 1_000_000_000), tv_nsec: Int(total % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, nil) == EINTR {}
    }
}

/// Waits, checking `condition` every `interval` seconds, for at most `timeout` seconds.
/// Only for waits that nothing announces (a process leaving the bus); never inside a
/// measured window.
@discardableResult
func poll(timeout: Double, interval: Double = 0.005, _ condition: () -> Bool) -> Bool {
    let deadline = KernelClock.monotonicSeconds + timeout
    while true {
        if condition() { return true }
        if KernelClock.monotonicSeconds >= deadline { return false }
        Clock.sleep(interval)
    }
}
