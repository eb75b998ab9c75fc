/// A followed rest's heart rate as the history keeps it, to draw its curve: the smoothed heart
/// rate once a second from the rest's start, with the rule it was followed by and how following
/// it ended. Compact: one byte a second (a 3-minute rest is 180 bytes).
public struct HeartRateTrace: Sendable, Equatable {
    /// Why restd stopped following the rest.
    public enum Ending: String, Sendable, CaseIterable {
        /// Heart rate stayed at or below the target for the hold, after the minimum.
        case recovered
        /// The planned maximum ran out.
        case planned
        /// The strap went silent or lost contact; the rest ran to its maximum.
        case sensorLost = "sensor_lost"
        /// Skipped, or shortened to nothing.
        case user
        /// The next set (or a restart) began a new rest first.
        case set
        /// Paused: a paused rest is a plain timed one.
        case paused
        /// Its timer was cancelled or removed.
        case removed
    }

    /// The set the rest followed.
    public var setID: Int64
    /// When the rest began, CLOCK_REALTIME µs.
    public var startedAtUSec: USec
    /// The smoothed heart rate at each whole second from the start (the first at the start), in
    /// bpm rounded, 0 where none was known (no sample in the 5 s before, as the metrics count).
    public var bpm: [UInt8]
    /// The target in bpm (a drop target's, from the rest's peak); nil when it had none.
    public var targetBPM: Double?
    public var minimumUSec: USec
    public var holdUSec: USec
    /// From the start until following ended.
    public var endedAfterUSec: USec
    public var ending: Ending

    /// The longest trace kept: a rest lasts at most 24 h.
    public static let maxSeconds = 86_400

    public init(
        setID: Int64, startedAtUSec: USec, bpm: [UInt8], targetBPM: Double?, minimumUSec: USec, holdUSec: USec,
        endedAfterUSec: USec, ending: Ending
    ) {
        self.setID = setID
        self.startedAtUSec = startedAtUSec
        self.bpm = bpm
        self.targetBPM = targetBPM
        self.minimumUSec = minimumUSec
        self.holdUSec = holdUSec
        self.endedAfterUSec = endedAfterUSec
        self.ending = ending
    }

    /// The trace of `tracker`'s rest, followed until `endUSec` (on the tracker's clock), which
    /// began at `startedAtUSec` of the wall clock after set `setID`.
    public init(
        setID: Int64, startedAtUSec: USec, tracker: RecoveryTracker, endUSec: USec, ending: Ending
    ) {
        let start = tracker.startUSec
        let length = endUSec.subtractingSaturated(start)
        let seconds = min(Int(length / 1_000_000) + 1, Self.maxSeconds)
        var bpm = [UInt8](repeating: 0, count: seconds)
        let points = tracker.series.points
        var next = 0  // the first point after the second being filled
        for second in 0..<seconds {
            let instant = start + USec(second) * 1_000_000
            while next < points.count && points[next].atUSec <= instant { next += 1 }
            guard next > 0, instant - points[next - 1].atUSec < HeartSignal.windowUSec else { continue }
            bpm[second] = UInt8(clamping: Int(points[next - 1].smoothedBPM.rounded()))
        }
        self.init(
            setID: setID, startedAtUSec: startedAtUSec, bpm: bpm, targetBPM: tracker.thresholdBPM,
            minimumUSec: tracker.rule.minimumUSec, holdUSec: tracker.rule.holdUSec, endedAfterUSec: length,
            ending: ending)
    }
}
