/// How a heart rate recovered during one rest, computed at its end from the recorded series:
/// what the history keeps. A metric without enough data is nil, never estimated.
///
/// "The heart rate at" an instant of the rest is the smoothed value of the last valid sample at
/// or before it, if that sample is less than 5 s old (the same rule as the sensor timeout); the
/// source's samples of the seconds before the rest count, so the heart rate at the rest's start
/// is the one the set ended on. Instants after the rest's end have none. Heart rates are in bpm,
/// as smoothed (not rounded).
public struct RecoveryMetrics: Sendable, Equatable {
    /// The heart rate at the set's end, which is the rest's start, if confirmed; else the first
    /// confirmed value within the rest's first 5 s (a later one is not the set's end any more).
    public var setEndBPM: Double?
    /// The highest confirmed heart rate from the rest's start through its first 20 s
    /// (`RecoveryPeak`).
    public var peakBPM: Double?
    /// When the peak came (its sample, or the start for the heart rate at the start), from the
    /// rest's start.
    public var peakAfterUSec: USec?
    /// The heart rate 30, 60 and 120 s after the rest's start.
    public var bpmAfter30s: Double?
    public var bpmAfter60s: Double?
    public var bpmAfter120s: Double?
    /// Heart-rate recovery in 60 s: the heart rate at the set's end minus the heart rate 60 s
    /// after it (`setEndBPM − bpmAfter60s`), known for every followed rest of 60 s or more that
    /// has both.
    ///
    /// The clinical HRR (Cole et al., "Heart-rate recovery immediately after exercise as a
    /// predictor of mortality", NEJM 1999) is the heart rate at peak exercise minus the heart rate
    /// one minute after exercise stopped, and a drop of 12 bpm or less was the abnormal value;
    /// Buchheit and colleagues' HRR60s, and Polar's, count from the end of exercise too. So does
    /// this: the minute counts from the set's end, never from a peak seconds later, which would
    /// need heart rate past a rest that ended at its minimum of 60 s.
    public var hrr60BPM: Double?
    /// How long after the start smoothed heart rate first reached the target (at or below it;
    /// a drop target from the peak so far, as the rest itself judged it: a value before the
    /// peak came is not below it) — the physiology, without the minimum or the hold; 0 when
    /// it was there at the start; nil if it never got there.
    public var timeToTargetUSec: USec?
    /// The lowest smoothed heart rate of the rest (its start included).
    public var minimumBPM: Double?
    /// The share of the rest (0…1) during which a heart rate was known: from each valid sample
    /// for up to 5 s, until the next one. Nil for a rest of no length.
    public var coverage: Double?
    /// RMSSD, the root mean square of successive differences between accepted RR intervals, in
    /// ms, as the Task Force of the ESC and NASPE defined it (Heart rate variability: standards of
    /// measurement, physiological interpretation and clinical use, Circulation 1996) — there for
    /// 5-min recordings, here over the last 60 s of the rest, or all of it from 30 s on. A pair
    /// touching a rejected beat is left out, as the Task Force asks. Nil for a rest shorter than
    /// 30 s, when more than 5 % of the beats in that window were rejected, or with fewer than 20
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
    /// More rejected beats than this share and RMSSD is nil: 5 %, the most edited beats HRV
    /// practice accepts in a short recording (one ectopic beat, 2 rejections, is 3.3 % of 60).
    public static let rmssdMaxRejectedShare = 0.05
    /// Fewer successive pairs than this and RMSSD is nil.
    public static let rmssdMinPairs = 20

    /// A heart rate of the rest from `atUSec`, known until the next or `freshUntilUSec`.
    private struct Value {
        var atUSec: USec
        var freshUntilUSec: USec
        var point: RecoverySeries.Point
    }

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

    /// The metrics of a rest from `startUSec` to `endUSec` whose samples are `series` (those
    /// before the start say what heart rate the rest started at; those after the end are left
    /// out), for `target`.
    public init(series: RecoverySeries, target: RecoveryTarget, startUSec: USec, endUSec: USec) {
        self.init()
        let fresh = HeartSignal.windowUSec
        let points = series.points.filter { $0.atUSec <= endUSec }

        func bpm(at instant: USec) -> Double? {
            guard instant >= startUSec, instant <= endUSec, let last = points.last(where: { $0.atUSec <= instant })
            else { return nil }
            return instant - last.atUSec < fresh ? last.smoothedBPM : nil
        }

        // The rest's heart rates in order, the one it started at first, stamped at its start.
        var values = points.filter { $0.atUSec > startUSec }.map {
            Value(atUSec: $0.atUSec, freshUntilUSec: $0.atUSec.addingSaturated(fresh), point: $0)
        }
        if let carried = points.last(where: { $0.atUSec <= startUSec }), startUSec - carried.atUSec < fresh {
            values.insert(
                Value(atUSec: startUSec, freshUntilUSec: carried.atUSec.addingSaturated(fresh), point: carried), at: 0)
        }

        setEndBPM = values.first { $0.point.confirmed && $0.atUSec - startUSec < fresh }?.point.smoothedBPM
        var peak = RecoveryPeak(startUSec: startUSec)
        for value in values {
            peak.note(value.point.smoothedBPM, confirmed: value.point.confirmed, atUSec: value.atUSec)
            // The target as the rest saw it then: a drop counts from the peak so far.
            if timeToTargetUSec == nil, let threshold = target.thresholdBPM(peakBPM: peak.bpm),
                value.point.smoothedBPM <= threshold
            {
                timeToTargetUSec = value.atUSec - startUSec
            }
        }
        peakBPM = peak.bpm
        peakAfterUSec = peak.atUSec.map { $0 - startUSec }
        bpmAfter30s = bpm(at: startUSec.addingSaturated(30_000_000))
        bpmAfter60s = bpm(at: startUSec.addingSaturated(60_000_000))
        bpmAfter120s = bpm(at: startUSec.addingSaturated(120_000_000))
        if let setEndBPM, let bpmAfter60s { hrr60BPM = setEndBPM - bpmAfter60s }
        minimumBPM = values.map(\.point.smoothedBPM).min()

        if endUSec > startUSec {
            var covered: USec = 0
            for (index, value) in values.enumerated() {
                let next = index + 1 < values.count ? values[index + 1].atUSec : endUSec
                covered += min(value.freshUntilUSec, next, endUSec) - value.atUSec
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
