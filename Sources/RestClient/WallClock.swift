import RestCore

/// The wall clock, read the way restd stamps its timers.
public enum WallClock {
    /// CLOCK_REALTIME in µs since the Unix epoch (0 if the clock cannot be read).
    public static func nowUSec() -> UInt64 { KernelClock.realtimeUSec }
}
