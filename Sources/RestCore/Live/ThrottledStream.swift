/// Decides when one stream of snapshots (the broadcast, or one subscriber) publishes, at most
/// once per interval: the leading edge at once after a quiet interval, later changes coalesced
/// into one publication at the end of the interval (trailing edge), never a publication that
/// repeats the last one. Pure: times are CLOCK_BOOTTIME µs passed in.
public struct ThrottledStream<Snapshot: Equatable & Sendable>: Sendable {
    public enum Action: Equatable, Sendable {
        /// Publish this snapshot now.
        case publish(Snapshot)
        /// Arm the stream's one timer for this instant (and call `fire` then).
        case schedule(USec)
        /// Nothing to do: unchanged, or a trailing publication is already scheduled.
        case none
    }

    public private(set) var intervalUSec: USec
    /// What this stream last published (nil: nothing yet).
    public private(set) var lastPublished: Snapshot?
    public private(set) var lastPublishedAt: USec?
    /// When the scheduled trailing publication is due.
    public private(set) var trailingDue: USec?

    public init(intervalUSec: USec, lastPublished: Snapshot? = nil) {
        self.intervalUSec = max(1, intervalUSec)
        self.lastPublished = lastPublished
    }

    /// The interval for a rate in Hz.
    public static func interval(forRateHz rate: Double) -> USec {
        USec((1_000_000 / rate).rounded())
    }

    // Exported specialised for the live fields, which every Live.Update offers: restd's module
    // cannot specialise this generic code itself, and the unspecialised code looked type
    // metadata up on every call.
    /// The current snapshot changed (or may have) at `now`.
    @_specialize(exported:true,where Snapshot == [String: LiveValue])
    public mutating func offer(_ snapshot: Snapshot, now: USec) -> Action {
        if trailingDue != nil { return .none }  // the trailing edge will carry the latest value
        guard snapshot != lastPublished else { return .none }
        if let last = lastPublishedAt, now < last.addingSaturated(intervalUSec) {
            let due = last.addingSaturated(intervalUSec)
            trailingDue = due
            return .schedule(due)
        }
        return publish(snapshot, now: now)
    }

    /// The stream's timer fired: publish the latest snapshot if it differs from the last one.
    public mutating func fire(_ snapshot: Snapshot, now: USec) -> Action {
        trailingDue = nil
        guard snapshot != lastPublished else { return .none }
        return publish(snapshot, now: now)
    }

    /// Publishes at once, outside the rate (End: "published at once").
    public mutating func publishImmediately(_ snapshot: Snapshot, now: USec) -> Action {
        trailingDue = nil
        guard snapshot != lastPublished else { return .none }
        return publish(snapshot, now: now)
    }

    /// Changes the rate; a scheduled trailing publication moves to the new interval's end.
    public mutating func setInterval(_ interval: USec) -> Action {
        intervalUSec = max(1, interval)
        guard trailingDue != nil, let last = lastPublishedAt else { return .none }
        let due = last.addingSaturated(intervalUSec)
        trailingDue = due
        return .schedule(due)
    }

    private mutating func publish(_ snapshot: Snapshot, now: USec) -> Action {
        lastPublished = snapshot
        lastPublishedAt = now
        return .publish(snapshot)
    }
}
