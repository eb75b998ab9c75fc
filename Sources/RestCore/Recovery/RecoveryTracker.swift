/// What a rest that may end on recovery should do now.
public enum RecoveryDecision: Sendable, Equatable {
    /// Keep resting: recovery may still end the rest before its planned maximum.
    case resting
    /// Recovery cannot end this rest now (since `sinceUSec`: no heart rate): it runs towards its
    /// planned maximum and ends there for `reason` — `.sensorLost` — unless heart rate comes back.
    case runsToPlanned(reason: EndReason, sinceUSec: USec)
    /// The rest is over, at `atUSec` (the moment the condition was met, which an evaluation
    /// may come after): `.recovered`, `.planned`, or `.sensorLost` at the planned maximum.
    case ended(EndReason, atUSec: USec)
}

/// One rest that may end on recovery: started at the set's end with the heart-rate source's
/// last seconds (`leadIn`: the strap was on during the set), fed the source's samples, asked what
/// to do. Pure: every time is a parameter, in µs on a clock that never jumps (the daemon's
/// CLOCK_BOOTTIME).
///
/// The rest ends as recovered at the first instant when smoothed heart rate has stayed at or
/// below the target for the whole hold time *and* the minimum has passed — a heart rate
/// already low at the start still waits for the minimum (a sports watch's "HR below" step
/// would end at once). It never ends early without a heart rate: when no valid
/// sample has come for 5 s (an invalid one — no contact — counts as none), recovery cannot end
/// the rest, which runs towards its planned maximum (`runsToPlanned`); a rest that starts
/// without a heart rate in the last 5 s is in that state from its start. When valid samples come
/// back, recovery may end the rest again, with a hold started afresh: a user who fixes the strap
/// expects it to work, and the daemon says so at once (the rest's EndReason goes back from
/// `sensor_lost`), so the ending never comes out of a rest still shown as running its full length.
///
/// The answer depends only on the samples and the time asked, never on how often it is asked:
/// time is settled up to each sample before the sample counts (a sample that comes 5 s after
/// the last valid one comes too late, the loss happened first), and the smoothed value holds
/// between samples. Only a live hold or a heard strap's silence asks for a wake-up
/// (`nextEvaluationUSec`): without heart rate restd must sleep.
public struct RecoveryTracker: Sendable, Equatable {
    /// No valid sample for this long and the sensor counts as lost.
    public static let sensorTimeoutUSec: USec = 5_000_000

    public private(set) var rule: RecoveryRule
    /// When the set ended and the rest began.
    public let startUSec: USec
    /// Every valid sample's smoothed value and every judged beat so far, those of the lead-in
    /// included.
    public private(set) var series = RecoverySeries()
    /// The peak so far (what a drop target counts from).
    private var peak: RecoveryPeak
    /// Since when smoothed heart rate has stayed at or below the target; nil when it is above,
    /// unknown, or recovery cannot end the rest now.
    public private(set) var holdingSinceUSec: USec?
    /// Whether any valid sample came, in the lead-in or during the rest.
    public private(set) var hasHadHeartRate = false

    private var signal = HeartSignal()
    private var phase: RecoveryDecision = .resting
    /// Time has been settled up to here; samples before it are taken as arriving at it.
    private var settledUSec: USec

    /// A rest starting at `startUSec`, after the source's samples `leadIn` (those of the last
    /// 5 s before it, in time order; later ones are left out).
    public init(rule: RecoveryRule, startUSec: USec, leadIn: [HeartSample] = []) {
        self.rule = rule
        self.startUSec = startUSec
        peak = RecoveryPeak(startUSec: startUSec)
        settledUSec = startUSec
        var previous: USec = 0
        for sample in leadIn where sample.atUSec <= startUSec {
            var stamped = sample
            stamped.atUSec = max(sample.atUSec, previous)
            previous = stamped.atUSec
            take(stamped)
        }
        // The heart rate the set ended on is the rest's first.
        if let carried = series.points.last, let bpm = signal.smoothedBPM(atUSec: startUSec) {
            peak.note(bpm, confirmed: carried.confirmed, atUSec: startUSec)
            if let threshold = thresholdBPM, bpm <= threshold { holdingSinceUSec = startUSec }
        } else {
            phase = .runsToPlanned(reason: .sensorLost, sinceUSec: startUSec)
        }
    }

    /// When the planned rest runs out.
    public var plannedEndUSec: USec { startUSec.addingSaturated(rule.plannedUSec) }

    /// The highest confirmed smoothed heart rate so far within the first 20 s; nil before any.
    public var peakBPM: Double? { peak.bpm }

    /// The target in bpm as it stands (a drop target follows the peak); nil before a drop
    /// target has a peak.
    public var thresholdBPM: Double? { rule.target.thresholdBPM(peakBPM: peak.bpm) }

    /// The smoothed heart rate at `nowUSec`, nil without a valid sample in the last 5 s.
    public func smoothedBPM(atUSec nowUSec: USec) -> Double? { signal.smoothedBPM(atUSec: nowUSec) }

    /// Takes one sample. Samples must come in time order; one stamped before the start or the
    /// previous one is taken as arriving then. Samples after the rest ended are ignored.
    public mutating func add(_ sample: HeartSample) {
        let now = max(sample.atUSec, settledUSec)
        settle(until: now)
        if case .ended = phase { return }
        var stamped = sample
        stamped.atUSec = now
        guard let bpm = take(stamped) else { return }
        if case .runsToPlanned = phase { phase = .resting }
        if let threshold = thresholdBPM, bpm <= threshold {
            holdingSinceUSec = holdingSinceUSec ?? now
        } else {
            holdingSinceUSec = nil
        }
    }

    /// Feeds one sample to the signal, the series and the peak; its smoothed value, nil for an
    /// invalid sample (which counts as none).
    @discardableResult
    private mutating func take(_ sample: HeartSample) -> Double? {
        guard let reading = signal.add(sample) else { return nil }
        series.record(atUSec: sample.atUSec, reading)
        hasHadHeartRate = true
        peak.note(reading.smoothedBPM, confirmed: reading.confirmed, atUSec: sample.atUSec)
        return reading.smoothedBPM
    }

    /// What to do at `nowUSec` (which must not go backwards).
    public mutating func evaluate(nowUSec: USec) -> RecoveryDecision {
        settle(until: nowUSec)
        return phase
    }

    /// When the decision could next change without a new sample — the end of the hold or of
    /// the minimum, or the sensor timeout — so the daemon can arm one timer; nil when nothing
    /// can change before the planned end, which the rest's own timer already wakes up for, and
    /// while recovery cannot end the rest: a rest without heart rate adds no wake-up.
    public var nextEvaluationUSec: USec? {
        guard case .resting = phase else { return nil }
        let next = min(recoveryUSec ?? .max, lossUSec)
        guard next < plannedEndUSec else { return nil }
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

    /// When the sensor counts as lost if no valid sample comes: 5 s after the last valid one
    /// (while resting there is one).
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
