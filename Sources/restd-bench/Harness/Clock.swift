import Glibc
import RestCore

/// The clocks the bench reads: CLOCK_REALTIME to compare with restd's deadlines (which it
/// publishes as CLOCK_REALTIME µs), CLOCK_MONOTONIC for every duration.
enum Clock {
    static func nanoseconds(_ clock: clockid_t) -> Int64 { KernelClock.nanoseconds(clock) }

    /// CLOCK_REALTIME in µs since the epoch, as restd's `*USec` instants.
    static var realtimeUSec: Int64 { nanoseconds(CLOCK_REALTIME) / 1000 }
    /// CLOCK_REALTIME in ns, for lateness below a microsecond.
    static var realtimeNSec: Int64 { nanoseconds(CLOCK_REALTIME) }
    /// CLOCK_MONOTONIC in seconds.
    static var monotonic: Double { Double(nanoseconds(CLOCK_MONOTONIC)) / 1e9 }

    /// Sleeps `seconds` (restarting after signals).
    static func sleep(_ seconds: Double) {
        guard seconds > 0 else { return }
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) < 0 && errno == EINTR { request = remaining }
    }

    /// Sleeps until the CLOCK_MONOTONIC instant `seconds` (as `monotonic` reads it).
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
    let deadline = Clock.monotonic + timeout
    while true {
        if condition() { return true }
        if Clock.monotonic >= deadline { return false }
        Clock.sleep(interval)
    }
}
