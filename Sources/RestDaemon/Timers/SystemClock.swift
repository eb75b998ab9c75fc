import Glibc
import RestCore

/// The kernel's clocks: CLOCK_REALTIME for what people see, CLOCK_BOOTTIME for deadlines.
struct SystemClock: TimeSource {
    func now() -> Instant {
        Instant(realtime: Self.read(CLOCK_REALTIME), boottime: Self.read(CLOCK_BOOTTIME))
    }

    static func read(_ clock: clockid_t) -> USec {
        var now = timespec()
        clock_gettime(clock, &now)
        return USec(now.tv_sec) * 1_000_000 + USec(now.tv_nsec) / 1000
    }
}
