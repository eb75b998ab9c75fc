import RestProtocol

/// The JSON form of timers: one object per timer, keys always present and in this order:
///
///     {"id":"default","state":"running","label":"Squat","next":"Bench press","notify":true,
///      "duration_usec":90000000,"warn_usec":0,"remaining_usec":83000000,"started_at":"2026-11-21T21:10:00.000Z",
///      "ends_at":"2026-11-21T21:11:30.000Z","expired_at":null,"rest_source":null,
///      "until_recovered":false,"end_reason":null,"recovered_bpm":null,"sound":true,"ringing":false}
///
/// `label` and `next` are null when unset; `warn_usec` is the pre-alert (0 when none);
/// `remaining_usec` is computed at `now`, like the human line; `rest_source` says which rule
/// chose a rest `restctl set` started (`last_used`, `exercise`, …), null for a timer started
/// otherwise. `until_recovered` says whether the rest may end on recovery; `end_reason` why it
/// ended (`recovered`, `planned`, `user`, `sensor_lost`; `sensor_lost` already while a rest whose
/// strap was lost runs on), null while it runs otherwise; `recovered_bpm` the heart rate when it
/// ended as recovered, null otherwise; `sound` whether restd plays the rest's cues and alarm;
/// `ringing` whether it is over and its alarm rings (until `restctl silence`).
public enum TimerJSON {
    /// One timer as a JSON object on one line.
    public static func object(_ snapshot: TimerSnapshot, now: UInt64) -> String {
        json(snapshot, now: now).text
    }

    /// What `status --json` prints: the timer's object with `notification_server` last (restd's
    /// `NotificationServer`: `running`, `activatable` or `missing`; null from a restd too old to say).
    public static func statusObject(
        _ snapshot: TimerSnapshot, now: UInt64, notificationServer: NotificationServerState?
    ) -> String {
        var object = json(snapshot, now: now)
        object.text("notification_server", notificationServer?.rawValue)
        return object.text
    }

    /// Timers as a JSON array on one line; `[]` when there are none.
    public static func array(_ snapshots: [TimerSnapshot], now: UInt64) -> String {
        JSONText.array(snapshots.map { json($0, now: now) })
    }

    static func json(_ snapshot: TimerSnapshot, now: UInt64) -> JSONObject {
        var object = JSONObject()
        object.text("id", snapshot.id)
        object.text("state", snapshot.state)
        object.text("label", snapshot.label)
        object.text("next", snapshot.next)
        object.bool("notify", snapshot.notify)
        object.duration("duration_usec", usec: snapshot.durationUSec)
        object.duration("warn_usec", usec: snapshot.warnUSec)
        object.duration("remaining_usec", usec: snapshot.remaining(at: now))
        object.instant("started_at", usec: snapshot.startedAtUSec)
        object.instant("ends_at", usec: snapshot.endsAtUSec)
        object.instant("expired_at", usec: snapshot.expiredAtUSec)
        object.text("rest_source", snapshot.restSource)
        object.bool("until_recovered", snapshot.untilRecovered)
        object.text("end_reason", snapshot.endReason)
        object.integer("recovered_bpm", snapshot.recoveredBPM == 0 ? nil : snapshot.recoveredBPM)
        object.bool("sound", snapshot.sound)
        object.bool("ringing", snapshot.ringing)
        return object
    }
}
