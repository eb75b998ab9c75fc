import RestCore

/// Local dates and zones for tests that need "today": computed from now, never written in.
enum LocalTime {
    /// `YYYY-MM-DD` of the local day (this process's TZ, which restd and restctl inherit) that
    /// holds `usec`.
    static func date(ofUSec usec: UInt64) -> String {
        LocalCalendar.parts(of: usec)?.dateText ?? ""
    }

    /// A POSIX TZ value in which it is between 11:30 and 12:30 at `usec`: given to a restd whose
    /// "today" a test counts on, it puts local midnight half a day away from the test.
    static func zoneAtNoon(atUSec usec: UInt64 = RunningDaemon.realtimeNow()) -> String {
        let minutesOfDay = Int(usec / 60_000_000 % 1440)
        // POSIX offsets are west of UTC: local = UTC - offset.
        var offsetHours = Int(((Double(minutesOfDay) / 60) - 12).rounded())
        if offsetHours > 12 { offsetHours -= 24 }
        return "NOON\(offsetHours >= 0 ? "+" : "")\(offsetHours)"
    }
}
