import RestCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The kernel's clocks, read in this one place by restd, restctl, the bench and the test
/// harness (an sd-event loop's sources read theirs through `EventLoop.now`). The core itself
/// never reads them: it is handed an `Instant` by a `TimeSource`, which in the daemon is this.
public struct KernelClock: TimeSource {
    public init() {}

    /// Both clocks of an `Instant`: CLOCK_REALTIME, and CLOCK_BOOTTIME for deadlines.
    public func now() -> Instant {
        Instant(realtime: Self.usec(CLOCK_REALTIME), boottime: Self.usec(CLOCK_BOOTTIME))
    }

    /// `clock` in ns; 0 if it cannot be read.
    public static func nanoseconds(_ clock: clockid_t) -> Int64 {
        var now = timespec()
        guard clock_gettime(clock, &now) == 0 else { return 0 }
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// `clock` in µs; 0 if it cannot be read (or reads before 1970).
    public static func usec(_ clock: clockid_t) -> USec {
        USec(max(0, nanoseconds(clock) / 1000))
    }

    /// CLOCK_REALTIME in µs since the Unix epoch: what people see, and what survives a reboot.
    public static var realtimeUSec: USec { usec(CLOCK_REALTIME) }

    /// CLOCK_MONOTONIC in seconds: for elapsed time, which the wall clock is not.
    public static var monotonicSeconds: Double { Double(nanoseconds(CLOCK_MONOTONIC)) / 1e9 }
}
