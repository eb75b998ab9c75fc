#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Days as the person sees them, in the process's time zone (TZ, else /etc/localtime): where
/// "today" starts for restd's sets of the day and restctl's `--since today`, and the local date
/// and time of an instant. The one place that turns CLOCK_REALTIME µs into local days; it reads
/// no clock: every instant is given.
///
/// Days are found with mktime(3), never by subtracting hours: on a daylight-saving change day a
/// day is 23 or 25 hours long, and in some zones midnight itself is skipped (the day then starts
/// at the first instant that exists, 01:00).
public enum LocalCalendar {
    /// A local date and time, as the person reads it.
    public struct Parts: Equatable, Sendable {
        public var year: Int
        public var month: Int
        public var day: Int
        public var hour: Int
        public var minute: Int
        public var second: Int

        public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
            self.year = year
            self.month = month
            self.day = day
            self.hour = hour
            self.minute = minute
            self.second = second
        }

        /// `2026-11-23` (`DateText` writes every date and time).
        public var dateText: String { DigitText.make(capacity: 64) { $0.date(self, separated: true) } }
        /// `2026-11-23 18:02`.
        public var minuteText: String {
            DigitText.make(capacity: 112) { text in
                text.date(self, separated: true)
                text.character(" ")
                text.number(UInt64(clamping: hour), minimumDigits: 2)
                text.character(":")
                text.number(UInt64(clamping: minute), minimumDigits: 2)
            }
        }
    }

    /// The local date and time of `usec`; nil only for an instant the C library cannot place.
    public static func parts(of usec: USec) -> Parts? {
        var seconds = time_t(clamping: usec / 1_000_000)
        var fields = tm()
        guard localtime_r(&seconds, &fields) != nil else { return nil }
        return Parts(fields)
    }

    /// The first instant of the local day that holds `usec` (its midnight, or the first instant
    /// after a midnight that a daylight-saving change skipped).
    public static func startOfDay(containing usec: USec) -> USec {
        guard let day = parts(of: usec), let midnight = instant(Parts(year: day.year, month: day.month, day: day.day)),
            midnight <= usec
        else { return usec / 86_400_000_000 * 86_400_000_000 }
        func isSameDay(_ instant: USec) -> Bool {
            guard let other = parts(of: instant) else { return false }
            return (other.year, other.month, other.day) == (day.year, day.month, day.day)
        }
        if isSameDay(midnight) { return midnight }
        // Midnight was skipped and mktime placed it in the day before: the day starts at the
        // change, found to the second between that instant and `usec`.
        var before = midnight / 1_000_000
        var within = usec / 1_000_000
        while within - before > 1 {
            let middle = before + (within - before) / 2
            if isSameDay(middle * 1_000_000) { within = middle } else { before = middle }
        }
        return within * 1_000_000
    }

    /// The first instant of the local week (from Monday, as ISO 8601 counts) that holds `usec`.
    public static func startOfWeek(containing usec: USec) -> USec {
        var start = startOfDay(containing: usec)
        var seconds = time_t(clamping: start / 1_000_000)
        var fields = tm()
        guard localtime_r(&seconds, &fields) != nil else { return start }
        // tm_wday: 0 is Sunday; days back to Monday, one local day at a time (each may be 23 or 25 h).
        for _ in 0..<((Int(fields.tm_wday) + 6) % 7) { start = startOfPreviousDay(before: start) }
        return start
    }

    /// The first instant of the local day before the one that holds `usec`.
    public static func startOfPreviousDay(before usec: USec) -> USec {
        let today = startOfDay(containing: usec)
        return today == 0 ? 0 : startOfDay(containing: today - 1)
    }

    /// The instant of a local date and time, or nil when there is no such date (2026-02-30, a
    /// month 13) or it lies before 1970. A time a daylight-saving change skipped is read with
    /// the offset before the change (02:30 on a spring-forward day is 03:30).
    public static func instant(_ local: Parts) -> USec? {
        guard (1...12).contains(local.month), (1...31).contains(local.day), (0..<24).contains(local.hour),
            (0..<60).contains(local.minute), (0..<60).contains(local.second),
            let year = Int32(exactly: local.year - 1900)
        else { return nil }
        var fields = tm()
        fields.tm_year = year
        fields.tm_mon = Int32(local.month - 1)
        fields.tm_mday = Int32(local.day)
        fields.tm_hour = Int32(local.hour)
        fields.tm_min = Int32(local.minute)
        fields.tm_sec = Int32(local.second)
        fields.tm_isdst = -1
        let seconds = mktime(&fields)
        // mktime normalises 2026-02-31 to March: a day that does not exist is refused.
        guard seconds >= 0, fields.tm_mday == Int32(local.day), fields.tm_mon == Int32(local.month - 1) else {
            return nil
        }
        return USec(seconds) * 1_000_000
    }
}
