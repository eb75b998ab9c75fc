#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The wall clock, read the way restd stamps its timers.
public enum WallClock {
    /// CLOCK_REALTIME in µs since the Unix epoch (0 if the clock cannot be read).
    public static func nowUSec() -> UInt64 {
        var spec = timespec()
        guard clock_gettime(CLOCK_REALTIME, &spec) == 0, spec.tv_sec >= 0 else { return 0 }
        return UInt64(spec.tv_sec) * 1_000_000 + UInt64(spec.tv_nsec / 1_000)
    }
}
