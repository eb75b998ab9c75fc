import RestCore

/// How restctl writes durations, as a clock shows them (instants: `DateText`).
public enum TimeFormat {
    /// `m:ss` below one hour, `h:mm:ss` from one hour on: 0:05, 1:30, 59:59, 1:00:00.
    public static func clock(seconds: UInt64) -> String {
        DigitText.clock(seconds: seconds)
    }

    /// Time left, rounded up to whole seconds: a fresh 90 s timer reads 1:30, and 0:00
    /// appears only once nothing is left.
    public static func countdown(usec: UInt64) -> String {
        clock(seconds: usec / 1_000_000 + (usec % 1_000_000 > 0 ? 1 : 0))
    }

    /// Time gone by, rounded down to whole seconds: overtime reads +0:01 after a full second.
    public static func elapsed(usec: UInt64) -> String {
        clock(seconds: usec / 1_000_000)
    }
}
