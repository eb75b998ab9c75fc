#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How restctl writes times: clock durations for people, ISO 8601 instants for programs.
public enum TimeFormat {
    /// `m:ss` below one hour, `h:mm:ss` from one hour on: 0:05, 1:30, 59:59, 1:00:00.
    public static func clock(seconds: UInt64) -> String {
        let hours = seconds / 3_600
        let minutes = seconds / 60 % 60
        let secs = seconds % 60
        if hours > 0 { return "\(hours):\(twoDigits(minutes)):\(twoDigits(secs))" }
        return "\(seconds / 60):\(twoDigits(secs))"
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

    /// An instant in µs since the epoch as ISO 8601 UTC with milliseconds (truncated):
    /// `2026-11-21T21:10:00.000Z`.
    public static func iso8601(usec: UInt64) -> String {
        var seconds = time_t(clamping: usec / 1_000_000)
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return "9999-12-31T23:59:59.999Z" }
        let year = Int(parts.tm_year) + 1900
        let yearText = String(year)
        return String(repeating: "0", count: max(0, 4 - yearText.count)) + yearText
            + "-" + twoDigits(UInt64(parts.tm_mon + 1)) + "-" + twoDigits(UInt64(parts.tm_mday))
            + "T" + twoDigits(UInt64(parts.tm_hour)) + ":" + twoDigits(UInt64(parts.tm_min))
            + ":" + twoDigits(UInt64(parts.tm_sec)) + "." + threeDigits(usec / 1_000 % 1_000) + "Z"
    }

    private static func twoDigits(_ value: UInt64) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }

    private static func threeDigits(_ value: UInt64) -> String {
        value < 10 ? "00\(value)" : value < 100 ? "0\(value)" : "\(value)"
    }
}
