import Glibc
import RestCore

/// Days as the person sees them: "sets today" counts from local midnight (restd's time zone).
enum LocalDay {
    /// CLOCK_REALTIME µs of the last local midnight at or before `realtime`.
    static func startUSec(of realtime: USec) -> USec {
        let seconds = realtime / 1_000_000
        var clock = time_t(seconds)
        var parts = tm()
        guard localtime_r(&clock, &parts) != nil else { return seconds / 86_400 * 86_400_000_000 }
        let sinceMidnight = USec(parts.tm_hour) * 3_600 + USec(parts.tm_min) * 60 + USec(parts.tm_sec)
        return (seconds >= sinceMidnight ? seconds - sinceMidnight : 0) * 1_000_000
    }
}
