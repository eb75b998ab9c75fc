import RestClient

/// 2026-11-21T21:10:00.000Z in µs.
let t0: UInt64 = 1_795_295_400_000_000
let second: UInt64 = 1_000_000

/// A 90 s timer started at t0, running.
func runningTimer(
    label: String = "Squat", next: String = "Bench press", id: String = "default", untilRecovered: Bool = false,
    endReason: String = ""
) -> TimerSnapshot {
    TimerSnapshot(
        id: id, label: label, next: next, state: "running", durationUSec: 90 * second,
        startedAtUSec: t0, endsAtUSec: t0 + 90 * second, remainingUSec: 90 * second, untilRecovered: untilRecovered,
        endReason: endReason)
}

/// The same timer paused with 61.2 s left.
func pausedTimer(label: String = "Squat", next: String = "Bench press") -> TimerSnapshot {
    TimerSnapshot(
        id: "default", label: label, next: next, state: "paused", durationUSec: 90 * second,
        startedAtUSec: t0, remainingUSec: 61_200_000, notify: false)
}

/// The same timer run out at t0 + 90 s.
func expiredTimer(label: String = "Squat", next: String = "Bench press") -> TimerSnapshot {
    TimerSnapshot(
        id: "default", label: label, next: next, state: "expired", durationUSec: 90 * second,
        startedAtUSec: t0, expiredAtUSec: t0 + 90 * second)
}
