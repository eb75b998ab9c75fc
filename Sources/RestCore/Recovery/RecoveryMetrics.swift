/// How a heart rate recovered during one rest, computed at its end from the recorded series:
/// what the history keeps. A metric without enough data is nil, never estimated.
///
/// "The heart rate at" an instant is the smoothed value of the last sample at or before it, if
/// that sample had a heart rate and is less than 5 s old (the same rule as the sensor timeout);
/// instants after the rest's end have none. Heart rates are in bpm, as smoothed (not rounded).
public struct RecoveryMetrics: Sendable, Equatable {
    /// The heart rate at the set's end: the first smoothed value, if it came within the rest's
    /// first 5 s (a later one is not the set's end any more).
    public var setEndBPM: Double?
    /// The highest smoothed heart rate in the rest's first 20 s.
    public var peakBPM: Double?
    /// When the peak came (its first sample), from the rest's start.
    public var peakAfterUSec: USec?
    /// The heart rate 30, 60 and 120 s after the rest's start.
    public var bpmAfter30s: Double?
    public var bpmAfter60s: Double?
    public var bpmAfter120s: Double?
    /// Heart-rate recovery in 60 s: the peak minus the heart rate 60 s after the peak's sample.
    ///
    /// The clinical HRR (Cole et al., "Heart-rate recovery immediately after exercise as a
    /// predictor of mortality", NEJM 1999) is the heart rate at peak exercise minus the heart
    /// rate one minute later, and a drop of 12 bpm or less was the abnormal value. After a
    /// set heart rate often still rises for a few seconds, so here the minute counts from the
    /// peak of the rest rather than from the set's last rep; the two differ by those seconds.
    public var hrr60BPM: Double?
    /// How long after the start smoothed heart rate first reached the target (at or below it;
    /// a drop target from the peak above) — the physiology, without the minimum or the hold;
    /// nil if it never did.
    public var timeToTargetUSec: USec?
    /// The lowest smoothed heart rate of the rest.
    public var minimumBPM: Double?
    /// The share of the rest (0…1) during which a heart rate was known: from each valid sample
    /// for up to 5 s, until the next sample. Nil for a rest of no length.
    public var coverage: Double?
    /// RMSSD, the root mean square of successive differences between accepted RR intervals, in
    /// ms, as the Task Force of the ESC and NASPE defined it (Heart rate variability: standards of
    /// measurement, physiological interpretation and clinical use, Circulation 1996) — there for
    /// 5-min recordings, here over the last 60 s of the rest, or all of it from 30 s on.
    /// Nil for a rest shorter than 30 s, when more than 1 % of the beats in that window were
    /// rejected (an interpolated or skipped beat shows in RMSSD), or with fewer than 20
    /// successive pairs.
    public var rmssdMilliseconds: Double?
    /// The accepted beats in the RMSSD window.
    public var rmssdBeats: Int
    /// The share of the beats in the RMSSD window that were rejected; nil without beats.
    public var rmssdRejectedShare: Double?

    /// The RMSSD window: the last 60 s of the rest…
    public static let rmssdWindowUSec: USec = 60_000_000
    /// …or the whole rest, if it lasted at least 30 s.
    public static let rmssdShortestUSec: USec = 30_000_000
    /// More rejected beats than this share and RMSSD is nil.
    public static let rmssdMaxRejectedShare = 0.01
    /// Fewer successive pairs than this and RMSSD is nil.
    public static let rmssdMinPairs = 20

    public init(
        setEndBPM: Double? = nil, peakBPM: Double? = nil, peakAfterUSec: USec? = nil, bpmAfter30s: Double? = nil,
        bpmAfter60s: Double? = nil, bpmAfter120s: Double? = nil, hrr60BPM: Double? = nil,
        timeToTargetUSec: USec? = nil, minimumBPM: Double? = nil, coverage: Double? = nil,
        rmssdMilliseconds: Double? = nil, rmssdBeats: Int = 0, rmssdRejectedShare: Double? = nil
    ) {
        self.setEndBPM = setEndBPM
        self.peakBPM = peakBPM
        self.peakAfterUSec = peakAfterUSec
        self.bpmAfter30s = bpmAfter30s
        self.bpmAfter60s = bpmAfter60s
        self.bpmAfter120s = bpmAfter120s
        self.hrr60BPM = hrr60BPM
        self.timeToTargetUSec = timeToTargetUSec
        self.minimumBPM = minimumBPM
        self.coverage = coverage
        self.rmssdMilliseconds = rmssdMilliseconds
        self.rmssdBeats = rmssdBeats
        self.rmssdRejectedShare = rmssdRejectedShare
    }

    /// The metrics of a rest from `startUSec` to `endUSec` whose samples are `series` (samples
    /// after the end are left out), for `target`.
    public init(series: RecoverySeries, target: RecoveryTarget, startUSec: USec, endUSec: USec) {
        self.init()
        let points = series.points.filter { $0.atUSec >= startUSec && $0.atUSec <= endUSec }
        let fresh = HeartSignal.windowUSec

        func bpm(at instant: USec) -> Double? {
            guard instant <= endUSec, let last = points.last(where: { $0.atUSec <= instant }) else { return nil }
            return instant - last.atUSec < fresh ? last.smoothedBPM : nil
        }

        if let first = points.first, first.atUSec - startUSec < fresh { setEndBPM = first.smoothedBPM }
        for point in points where point.atUSec - startUSec < RecoveryTracker.peakWindowUSec {
            if let value = point.smoothedBPM, value > (peakBPM ?? 0) {
                peakBPM = value
                peakAfterUSec = point.atUSec - startUSec
            }
        }
        bpmAfter30s = bpm(at: startUSec.addingSaturated(30_000_000))
        bpmAfter60s = bpm(at: startUSec.addingSaturated(60_000_000))
        bpmAfter120s = bpm(at: startUSec.addingSaturated(120_000_000))
        if let peakBPM, let peakAfterUSec,
            let later = bpm(at: startUSec.addingSaturated(peakAfterUSec).addingSaturated(60_000_000))
        {
            hrr60BPM = peakBPM - later
        }
        if let threshold = target.thresholdBPM(peakBPM: peakBPM),
            let reached = points.first(where: { ($0.smoothedBPM ?? .infinity) <= threshold })
        {
            timeToTargetUSec = reached.atUSec - startUSec
        }
        minimumBPM = points.compactMap(\.smoothedBPM).min()

        if endUSec > startUSec {
            var covered: USec = 0
            for (index, point) in points.enumerated() where point.smoothedBPM != nil {
                let next = index + 1 < points.count ? points[index + 1].atUSec : endUSec
                covered += min(point.atUSec.addingSaturated(fresh), next, endUSec) - point.atUSec
            }
            coverage = Double(covered) / Double(endUSec - startUSec)
        }

        computeRMSSD(series.beats, startUSec: startUSec, endUSec: endUSec)
    }

    private mutating func computeRMSSD(_ beats: [RecoverySeries.Beat], startUSec: USec, endUSec: USec) {
        let length = endUSec.subtractingSaturated(startUSec)
        guard length >= Self.rmssdShortestUSec else { return }
        let windowStart = endUSec - min(length, Self.rmssdWindowUSec)
        var accepted = 0
        var rejected = 0
        var pairs = 0
        var sumOfSquares = 0.0
        for index in beats.indices where beats[index].atUSec >= windowStart && beats[index].atUSec <= endUSec {
            let beat = beats[index].beat
            guard beat.accepted else {
                rejected += 1
                continue
            }
            accepted += 1
            // A pair needs its first beat in the window too.
            if beat.followsAccepted, index > 0, beats[index - 1].atUSec >= windowStart {
                let difference = beat.rrMilliseconds - beats[index - 1].beat.rrMilliseconds
                sumOfSquares += difference * difference
                pairs += 1
            }
        }
        rmssdBeats = accepted
        guard accepted + rejected > 0 else { return }
        let share = Double(rejected) / Double(accepted + rejected)
        rmssdRejectedShare = share
        guard share <= Self.rmssdMaxRejectedShare, pairs >= Self.rmssdMinPairs else { return }
        rmssdMilliseconds = (sumOfSquares / Double(pairs)).squareRoot()
    }
}
