#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Instants as text, the one date and time formatter of restd, restctl and the bench: ISO 8601 in
/// UTC for programs (JSON, CSV, file names, the bench's report), the local date and time for
/// people (`LocalCalendar.Parts`, and restd's lines on stderr). Written digit by digit into the
/// string (`DigitText`); it reads no clock: every instant is given.
public enum DateText {
    /// `2026-11-21T21:10:00.000Z`: UTC with milliseconds (truncated).
    public static func iso8601(usec: USec) -> String { utc(usec, extended: true) }

    /// `20261121T211000Z`: UTC to the second in ISO 8601's basic format (no separators), for
    /// file names.
    public static func basicISO8601(usec: USec) -> String { utc(usec, extended: false) }

    private static func utc(_ usec: USec, extended: Bool) -> String {
        guard let utc = utcParts(of: usec) else { return extended ? "9999-12-31T23:59:59.999Z" : "99991231T235959Z" }
        return DigitText.make(capacity: 128) { text in
            text.date(utc, separated: extended)
            text.character("T")
            text.time(utc, separated: extended)
            if extended { text.milliseconds(of: usec) }
            text.character("Z")
        }
    }

    /// `18:02:07.123`: the local time of day with milliseconds (truncated).
    public static func localTimeOfDay(usec: USec) -> String {
        let local = LocalCalendar.parts(of: usec) ?? LocalCalendar.Parts(year: 1970, month: 1, day: 1)
        return DigitText.make(capacity: 96) { text in
            text.time(local, separated: true)
            text.milliseconds(of: usec)
        }
    }

    private static func utcParts(of usec: USec) -> LocalCalendar.Parts? {
        var seconds = time_t(clamping: usec / 1_000_000)
        var fields = tm()
        guard gmtime_r(&seconds, &fields) != nil else { return nil }
        return LocalCalendar.Parts(fields)
    }
}

extension LocalCalendar.Parts {
    /// The fields of a broken-down time from the C library (gmtime_r, localtime_r).
    init(_ fields: tm) {
        self.init(
            year: Int(fields.tm_year) + 1900, month: Int(fields.tm_mon) + 1, day: Int(fields.tm_mday),
            hour: Int(fields.tm_hour), minute: Int(fields.tm_min), second: Int(fields.tm_sec))
    }
}

extension DigitText {
    /// `2026-11-23`, or `20261123` without separators; a year of at least four digits.
    // A sign and 19 digits for the year, 20 digits for each other field: 64 bytes for any date.
    mutating func date(_ parts: LocalCalendar.Parts, separated: Bool) {
        if parts.year < 0 { character("-") }
        number(UInt64(parts.year.magnitude), minimumDigits: 4)
        if separated { character("-") }
        number(UInt64(clamping: parts.month), minimumDigits: 2)
        if separated { character("-") }
        number(UInt64(clamping: parts.day), minimumDigits: 2)
    }

    /// `18:02:07`, or `180207` without separators.
    mutating func time(_ parts: LocalCalendar.Parts, separated: Bool) {
        number(UInt64(clamping: parts.hour), minimumDigits: 2)
        if separated { character(":") }
        number(UInt64(clamping: parts.minute), minimumDigits: 2)
        if separated { character(":") }
        number(UInt64(clamping: parts.second), minimumDigits: 2)
    }

    /// `.123`: the milliseconds of `usec`, truncated.
    mutating func milliseconds(of usec: USec) {
        character(".")
        number(usec / 1_000 % 1_000, minimumDigits: 3)
    }
}
