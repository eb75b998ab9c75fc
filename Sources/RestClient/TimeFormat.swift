import RestCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How restctl writes times: clock durations for people, ISO 8601 instants for programs.
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

    /// An instant in µs since the epoch as ISO 8601 UTC with milliseconds (truncated):
    /// `2026-11-21T21:10:00.000Z`.
    public static func iso8601(usec: UInt64) -> String {
        var seconds = time_t(clamping: usec / 1_000_000)
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return "9999-12-31T23:59:59.999Z" }
        return DigitText.make(capacity: 64) { text in
            text.number(UInt64(clamping: Int(parts.tm_year) + 1900), minimumDigits: 4)
            text.character("-")
            text.number(UInt64(clamping: parts.tm_mon + 1), minimumDigits: 2)
            text.character("-")
            text.number(UInt64(clamping: parts.tm_mday), minimumDigits: 2)
            text.character("T")
            text.number(UInt64(clamping: parts.tm_hour), minimumDigits: 2)
            text.character(":")
            text.number(UInt64(clamping: parts.tm_min), minimumDigits: 2)
            text.character(":")
            text.number(UInt64(clamping: parts.tm_sec), minimumDigits: 2)
            text.character(".")
            text.number(usec / 1_000 % 1_000, minimumDigits: 3)
            text.character("Z")
        }
    }
}
