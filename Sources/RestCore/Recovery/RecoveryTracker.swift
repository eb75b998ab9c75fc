/// What a rest that may end on recovery should do now.
public enum RecoveryDecision: Sendable, Equatable {
    /// Keep resting: recovery may still end the rest before its planned maximum.
    case resting
    /// Recovery can no longer end this rest (since `sinceUSec`): it runs to its planned maximum
    /// and will end for `reason` — `.sensorLost`.
    case runsToPlanned(reason: EndReason, sinceUSec: USec)
    /// The rest is over, at `atUSec` (the moment the condition was met, which an evaluation
    /// may come after): `.recovered`, `.planned`, or `.sensorLost` at the planned maximum.
    case ended(EndReason, atUSec: USec)
}

/// One rest that may end on recovery: started at the set's end, fed the strap's samples,
/// asked what to do. Pure: every time is a parameter, in µs on a clock that never jumps
/// (the daemon's CLOCK_BOOTTIME).
///
/// The rest ends as recovered at the first instant when smoothed heart rate has stayed at or
/// below the target for the whole hold time *and* the minimum has passed — a heart rate
/// already low at the start still waits for the minimum (a sports watch's "heart rate below"
/// step would end at once then, before the muscles have rested). It never ends early without a
/// heart rate: when no valid sample has come for 5 s, or the strap says it lost skin contact, the
/// tracker gives up on recovery for this rest, and the rest runs to its planned maximum. Giving up
/// is final: a strap that comes back does not make an ending that could come at any moment,
/// unannounced, out of a rest the user has been told runs its full length.
///
/// The answer depends only on the samples and the time asked, never on how often it is asked:
/// time is settled up to each sample before the sample counts (a sample that comes 5 s after
/// the last valid one comes too late, the loss happened first), and the smoothed value holds
/// between samples. A rest that never gets a sample counts as lost 5 s after its start, but
/// asks for no wake-up for it (`nextEvaluationUSec`): without a strap restd must sleep.
public struct RecoveryTracker: Sendable, Equatable {
    /// No valid sample for this long and the sensor counts as lost.
    public static let sensorTimeoutUSec: USec = 5_000_000
    /// The peak is the highest smoothed heart rate of the rest's first 20 s: heart rate still
    /// rises for a few seconds after a set ends, then falls.
    public static let peakWindowUSec: USec = 20_000_000

    public private(set) var rule: RecoveryRule
    /// When the set ended and the rest began.
    public let startUSec: USec
    /// Every sample's smoothed value and every judged beat so far.
    public private(set) var series = RecoverySeries()
    /// The highest smoothed heart rate so far within the first 20 s; nil before any.
    public private(set) var peakBPM: Double?
    /// Since when smoothed heart rate has stayed at or below the target; nil when it is above,
    /// unknown, or the tracker has given up.
    public private(set) var holdingSinceUSec: USec?

    private var signal = HeartSignal()
    private var phase: RecoveryDecision = .resting
    /// Time has been settled up to here; samples before it are taken as arriving at it.
    private var settledUSec: USec
    /// Whether any sample has come: only then is a loss worth a wake-up.
    private var heardFromStrap = false
    /// Whether any sample has come during this rest.
    public var hasHeardFromStrap: Bool { heardFromStrap }

    public init(rule: RecoveryRule, startUSec: USec) {
        self.rule = rule
        self.startUSec = startUSec
        settledUSec = startUSec
    }

    /// When the planned rest runs out.
    public var plannedEndUSec: USec { startUSec.addingSaturated(rule.plannedUSec) }

    /// The target in bpm as it stands (a drop target follows the peak); nil before a drop
    /// target has a peak.
    public var thresholdBPM: Double? { rule.target.thresholdBPM(peakBPM: peakBPM) }

    /// The smoothed heart rate at `nowUSec`, nil without a valid sample in the last 5 s.
    public func smoothedBPM(atUSec nowUSec: USec) -> Double? { signal.smoothedBPM(atUSec: nowUSec) }

    /// Takes one sample. Samples must come in time order; one stamped before the start or the
    /// previous one is taken as arriving then. Samples after the rest ended are ignored.
    public mutating func add(_ sample: HeartSample) {
        let now = max(sample.atUSec, settledUSec)
        settle(until: now)
        if case .ended = phase { return }
        heardFromStrap = true
        var stamped = sample
        stamped.atUSec = now
        let reading = signal.add(stamped)
        series.record(atUSec: now, reading)

        if let bpm = reading.smoothedBPM, (now - startUSec) < Self.peakWindowUSec, bpm > (peakBPM ?? 0) {
            peakBPM = bpm
        }
        guard case .resting = phase else { return }
        if sample.contact == .lost {
            phase = .runsToPlanned(reason: .sensorLost, sinceUSec: now)
            holdingSinceUSec = nil
        } else if let bpm = reading.smoothedBPM, let threshold = thresholdBPM, bpm <= threshold {
            holdingSinceUSec = holdingSinceUSec ?? now
        } else {
            // Above the target, or a sample without a heart rate yet no contact flag: nothing
            // says the heart rate is low now. The 5 s timeout decides whether the sensor is lost.
            holdingSinceUSec = nil
        }
    }

    /// What to do at `nowUSec` (which must not go backwards).
    public mutating func evaluate(nowUSec: USec) -> RecoveryDecision {
        settle(until: nowUSec)
        return phase
    }

    /// When the decision could next change without a new sample — the end of the hold or of
    /// the minimum, or the sensor timeout — so the daemon can arm one timer; nil when nothing
    /// can change before the planned end, which the rest's own timer already wakes up for.
    /// Nil too while no sample has ever come: a rest without a strap adds no wake-up.
    public var nextEvaluationUSec: USec? {
        guard case .resting = phase else { return nil }
        var next = recoveryUSec
        if heardFromStrap { next = min(next ?? .max, lossUSec) }
        guard let next, next < plannedEndUSec else { return nil }
        return next
    }

    /// The rest is now planned to last `plannedUSec` from its start (`restctl add`/`sub`); the
    /// minimum shrinks with it if need be. An ended rest stays ended.
    public mutating func replan(plannedUSec: USec) {
        if case .ended = phase { return }
        rule = rule.replanned(plannedUSec)
    }

    /// The metrics of the rest, had it ended at `endUSec` (the daemon knows whether the user
    /// ended it before the tracker did).
    public func metrics(endUSec: USec) -> RecoveryMetrics {
        RecoveryMetrics(series: series, target: rule.target, startUSec: startUSec, endUSec: endUSec)
    }

    // MARK: - Time

    /// When the running hold would end the rest: the hold complete and the minimum passed.
    private var recoveryUSec: USec? {
        guard let holdingSinceUSec else { return nil }
        return max(
            holdingSinceUSec.addingSaturated(rule.holdUSec), startUSec.addingSaturated(rule.minimumUSec))
    }

    /// When the sensor counts as lost if no valid sample comes: 5 s after the last valid one, or
    /// after the start.
    private var lossUSec: USec {
        (signal.lastValidAtUSec ?? startUSec).addingSaturated(Self.sensorTimeoutUSec)
    }

    /// Moves the state through everything due at or before `time`, earliest first. At equal
    /// times recovery wins over the planned end and the loss (the hold was complete when the
    /// heart rate was last known), and the planned end over the loss (nothing was lost early).
    private mutating func settle(until time: USec) {
        guard time >= settledUSec else { return }
        settledUSec = time
        let plannedEnd = plannedEndUSec
        if case .resting = phase {
            let loss = lossUSec
            if let recovery = recoveryUSec, recovery <= time, recovery <= loss, recovery <= plannedEnd {
                phase = .ended(.recovered, atUSec: recovery)
            } else if loss < plannedEnd, loss <= time {
                phase = .runsToPlanned(reason: .sensorLost, sinceUSec: loss)
                holdingSinceUSec = nil
            } else if plannedEnd <= time {
                phase = .ended(.planned, atUSec: plannedEnd)
            }
        }
        if case .runsToPlanned(let reason, _) = phase, plannedEnd <= time {
            phase = .ended(reason, atUSec: plannedEnd)
        }
    }
}
