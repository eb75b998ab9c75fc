import DBusKit
import RestClient
import RestProtocol

/// A timer as restd would report it: its properties read by `TimerSnapshot(properties:)`, the
/// one way a snapshot is made.
func timerSnapshot(
    id: String, label: String = "", next: String = "", state: String,
    durationUSec: UInt64, startedAtUSec: UInt64 = 0, endsAtUSec: UInt64 = 0,
    remainingUSec: UInt64 = 0, expiredAtUSec: UInt64 = 0, notify: Bool = true, warnUSec: UInt64 = 0,
    restSource: String = "", untilRecovered: Bool = false, endReason: String = "", recoveredBPM: UInt32 = 0
) -> TimerSnapshot {
    let properties: [String: DBusValue] = [
        TimerProperty.id: .string(id), TimerProperty.label: .string(label), TimerProperty.next: .string(next),
        TimerProperty.state: .string(state), TimerProperty.durationUSec: .uint64(durationUSec),
        TimerProperty.startedAtUSec: .uint64(startedAtUSec), TimerProperty.endsAtUSec: .uint64(endsAtUSec),
        TimerProperty.remainingUSec: .uint64(remainingUSec), TimerProperty.expiredAtUSec: .uint64(expiredAtUSec),
        TimerProperty.notify: .boolean(notify), TimerProperty.warnUSec: .uint64(warnUSec),
        TimerProperty.restSource: .string(restSource), TimerProperty.untilRecovered: .boolean(untilRecovered),
        TimerProperty.endReason: .string(endReason), TimerProperty.recoveredBPM: .uint32(recoveredBPM),
    ]
    do {
        return try TimerSnapshot(properties: properties)
    } catch {
        fatalError("a complete set of timer properties was refused: \(error)")
    }
}

/// 2026-11-21T21:10:00.000Z in µs.
let t0: UInt64 = 1_795_295_400_000_000
let second: UInt64 = 1_000_000

/// A 90 s timer started at t0, running.
func runningTimer(
    label: String = "Squat", next: String = "Bench press", id: String = "default", untilRecovered: Bool = false,
    endReason: String = ""
) -> TimerSnapshot {
    timerSnapshot(
        id: id, label: label, next: next, state: "running", durationUSec: 90 * second,
        startedAtUSec: t0, endsAtUSec: t0 + 90 * second, remainingUSec: 90 * second, untilRecovered: untilRecovered,
        endReason: endReason)
}

/// The same timer paused with 61.2 s left.
func pausedTimer(label: String = "Squat", next: String = "Bench press") -> TimerSnapshot {
    timerSnapshot(
        id: "default", label: label, next: next, state: "paused", durationUSec: 90 * second,
        startedAtUSec: t0, remainingUSec: 61_200_000, notify: false)
}

/// The same timer run out at t0 + 90 s.
func expiredTimer(label: String = "Squat", next: String = "Bench press") -> TimerSnapshot {
    timerSnapshot(
        id: "default", label: label, next: next, state: "expired", durationUSec: 90 * second,
        startedAtUSec: t0, expiredAtUSec: t0 + 90 * second)
}
