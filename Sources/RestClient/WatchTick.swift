/// When what a watch shows changes by time alone.
///
/// restd sends nothing while a timer counts down, so a watch counts down itself: it wakes at
/// the instants where the whole seconds it shows change, and at no others. Those are the
/// instants EndsAtUSec − k s while running (the time left is rounded up, so 1:23 turns into
/// 1:22 when exactly 82 s are left) and ExpiredAtUSec + k s once expired (overtime is rounded
/// down). A paused timer, or none, changes only when restd says so: no wake-ups at all.
public enum WatchTick {
    static let second: UInt64 = 1_000_000

    /// The first instant after `now` (µs, wall clock) at which the seconds shown for `timer`
    /// change; nil when they do not change by themselves.
    public static func next(after now: UInt64, _ timer: TimerSnapshot?) -> UInt64? {
        guard let timer else { return nil }
        switch timer.state {
        case "running":
            // At or past the deadline the display stays at 0:00 until restd says the rest is over
            // (within milliseconds: restd's own timer is armed for the deadline).
            guard timer.endsAtUSec > now else { return nil }
            let left = timer.endsAtUSec - now
            let shownSeconds = left / second + (left % second > 0 ? 1 : 0)
            return timer.endsAtUSec - (shownSeconds - 1) * second
        case "expired":
            guard timer.expiredAtUSec > 0 else { return nil }
            guard now >= timer.expiredAtUSec else { return timer.expiredAtUSec.addingClamped(second) }
            let shownSeconds = (now - timer.expiredAtUSec) / second
            return timer.expiredAtUSec.addingClamped((shownSeconds + 1).multipliedClamped(second))
        default:
            return nil
        }
    }

    /// A poll(2) timeout that does not end before `instant`: whole milliseconds rounded up,
    /// 0 when it has come, at most Int32.max.
    public static func timeoutMilliseconds(from now: UInt64, to instant: UInt64) -> Int32 {
        guard instant > now else { return 0 }
        let usec = instant - now
        let milliseconds = usec / 1_000 + (usec % 1_000 > 0 ? 1 : 0)
        return Int32(clamping: milliseconds)
    }
}

extension UInt64 {
    fileprivate func addingClamped(_ other: UInt64) -> UInt64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }

    fileprivate func multipliedClamped(_ other: UInt64) -> UInt64 {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? .max : product
    }
}
