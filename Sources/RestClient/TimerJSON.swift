/// The JSON form of timers: one object per timer, keys always present and in this order:
///
///     {"id":"default","state":"running","label":"Squat","next":"Bench press","notify":true,
///      "duration_usec":90000000,"warn_usec":0,"remaining_usec":83000000,"started_at":"2026-11-21T21:10:00.000Z",
///      "ends_at":"2026-11-21T21:11:30.000Z","expired_at":null,"rest_source":null}
///
/// Texts are strings ("" when unset); instants are ISO 8601 UTC with milliseconds, or null
/// when unset; `warn_usec` is the pre-alert (0 when none); `remaining_usec` is computed at `now`,
/// like the human line; `rest_source` says which rule chose a rest `restctl set` started
/// (`last_used`, `exercise`, …), null for a timer started otherwise.
public enum TimerJSON {
    /// One timer as a JSON object on one line.
    public static func object(_ snapshot: TimerSnapshot, now: UInt64) -> String {
        "{\"id\":" + JSONText.quoted(snapshot.id)
            + ",\"state\":" + JSONText.quoted(snapshot.state)
            + ",\"label\":" + JSONText.quoted(snapshot.label)
            + ",\"next\":" + JSONText.quoted(snapshot.next)
            + ",\"notify\":" + (snapshot.notify ? "true" : "false")
            + ",\"duration_usec\":" + String(snapshot.durationUSec)
            + ",\"warn_usec\":" + String(snapshot.warnUSec)
            + ",\"remaining_usec\":" + String(snapshot.remaining(at: now))
            + ",\"started_at\":" + instant(snapshot.startedAtUSec)
            + ",\"ends_at\":" + instant(snapshot.endsAtUSec)
            + ",\"expired_at\":" + instant(snapshot.expiredAtUSec)
            + ",\"rest_source\":" + (snapshot.restSource.isEmpty ? "null" : JSONText.quoted(snapshot.restSource))
            + "}"
    }

    /// Timers as a JSON array on one line; `[]` when there are none.
    public static func array(_ snapshots: [TimerSnapshot], now: UInt64) -> String {
        "[" + snapshots.map { object($0, now: now) }.joined(separator: ",") + "]"
    }

    private static func instant(_ usec: UInt64) -> String {
        usec == 0 ? "null" : "\"" + TimeFormat.iso8601(usec: usec) + "\""
    }
}
