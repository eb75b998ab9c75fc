/// A strap's samples turned into one smoothed heart rate, with the RR intervals judged beat by
/// beat. Pure: the samples carry their own times.
///
/// **Smoothing.** After each valid sample the smoothed heart rate is computed over the valid
/// samples of the last 5 s (those that arrived after `t − 5 s`): when any of them carried
/// accepted RR intervals, 60000 / (mean of those intervals), the heart rate of the beats
/// themselves; otherwise the median of the straps' bpm values, which one stray value cannot
/// move. Between samples the value stays what it was; 5 s after the last valid sample there is
/// none.
///
/// **Artefacts.** An RR interval is rejected when it lies outside 300–2000 ms (200 and 30 bpm:
/// no resting adult beats faster or slower) or more than 20 % from the reference — the usual
/// percentage filter of heart-rate variability practice, which catches an ectopic beat and the
/// pause after it. The reference is the mean of the last 5 accepted beats. It is seeded, and
/// seeded again, from the strap's own bpm of the sample carrying the beat (60000 / bpm):
///   - for the first beat, and after any sample without a heart rate (contact lost);
///   - when the last accepted beat is 5 s old or more (a dropout, or a strap that stopped sending
///     RR for a while: heart rate may have moved more than 20 % since);
///   - after 3 rejections in a row: a premature beat and its compensatory pause are 2; a third
///     says the reference is wrong rather than the beats, and without a fresh seed every later
///     beat would be rejected against it.
public struct HeartSignal: Sendable, Equatable {
    /// One RR interval as judged.
    public struct Beat: Sendable, Equatable {
        public var rrMilliseconds: Double
        public var accepted: Bool
        /// Accepted, and so was the beat before it with nothing in between (no rejection, no
        /// loss): the two make a successive pair, as RMSSD needs.
        public var followsAccepted: Bool

        public init(rrMilliseconds: Double, accepted: Bool, followsAccepted: Bool) {
            self.rrMilliseconds = rrMilliseconds
            self.accepted = accepted
            self.followsAccepted = followsAccepted
        }
    }

    /// What one sample gave.
    public struct Reading: Sendable, Equatable {
        /// The smoothed heart rate after it; nil after a sample without a valid heart rate.
        public var smoothedBPM: Double?
        /// Its RR intervals, judged, in order; none from an invalid sample (not judged at all).
        public var beats: [Beat]

        public init(smoothedBPM: Double?, beats: [Beat]) {
            self.smoothedBPM = smoothedBPM
            self.beats = beats
        }
    }

    /// How far back smoothing looks, and how old the last accepted beat may be to stay a reference.
    public static let windowUSec: USec = 5_000_000
    /// RR intervals outside are rejected, in ms.
    public static let rrRangeMilliseconds: ClosedRange<Double> = 300...2_000
    /// The largest share an RR interval may differ from the reference.
    public static let maxDeviation = 0.2
    /// How many of the last accepted beats make the reference.
    public static let referenceBeats = 5
    /// After this many rejections in a row the reference is seeded again.
    public static let rejectionsBeforeReseed = 3

    private struct Entry: Sendable, Equatable {
        var atUSec: USec
        var bpm: Int
        var acceptedRR: [Double]
    }

    /// Valid samples of the last `windowUSec`, oldest first.
    private var window: [Entry] = []
    /// The last accepted beats, oldest first; empty means "seed from the strap's bpm".
    private var reference: [Double] = []
    private var lastAcceptedAtUSec: USec?
    private var rejectedInARow = 0
    private var previousAccepted = false

    /// The smoothed heart rate after the last sample.
    public private(set) var latestBPM: Double?
    /// When the last valid sample arrived.
    public private(set) var lastValidAtUSec: USec?

    public init() {}

    /// The smoothed heart rate at `nowUSec` (not before the last sample): the latest value, or
    /// nil once the last valid sample is `windowUSec` old.
    public func smoothedBPM(atUSec nowUSec: USec) -> Double? {
        guard let lastValidAtUSec, nowUSec.subtractingSaturated(lastValidAtUSec) < Self.windowUSec else { return nil }
        return latestBPM
    }

    /// Takes one sample (not earlier than the previous one) and says what it gave.
    @discardableResult
    public mutating func add(_ sample: HeartSample) -> Reading {
        guard sample.isValid, let bpm = sample.beatsPerMinute else {
            // Without contact the beats are not a person's: start afresh when it comes back.
            window = []
            forgetReference()
            latestBPM = nil
            return Reading(smoothedBPM: nil, beats: [])
        }
        let now = sample.atUSec
        if let lastAcceptedAtUSec, now.subtractingSaturated(lastAcceptedAtUSec) >= Self.windowUSec {
            forgetReference()
        }
        var beats: [Beat] = []
        var accepted: [Double] = []
        for rr in sample.rrMilliseconds {
            let expected = reference.isEmpty ? 60_000 / Double(bpm) : mean(reference)
            if Self.rrRangeMilliseconds.contains(rr), (rr - expected).magnitude <= Self.maxDeviation * expected {
                beats.append(Beat(rrMilliseconds: rr, accepted: true, followsAccepted: previousAccepted))
                accepted.append(rr)
                reference.append(rr)
                if reference.count > Self.referenceBeats { reference.removeFirst() }
                lastAcceptedAtUSec = now
                previousAccepted = true
                rejectedInARow = 0
            } else {
                beats.append(Beat(rrMilliseconds: rr, accepted: false, followsAccepted: false))
                previousAccepted = false
                rejectedInARow += 1
                if rejectedInARow >= Self.rejectionsBeforeReseed {
                    reference = []
                    rejectedInARow = 0
                }
            }
        }

        window.removeAll { now.subtractingSaturated($0.atUSec) >= Self.windowUSec }
        window.append(Entry(atUSec: now, bpm: bpm, acceptedRR: accepted))
        let intervals = window.flatMap(\.acceptedRR)
        latestBPM = intervals.isEmpty ? ExerciseStats.median(window.map { Double($0.bpm) }) : 60_000 / mean(intervals)
        lastValidAtUSec = now
        return Reading(smoothedBPM: latestBPM, beats: beats)
    }

    private mutating func forgetReference() {
        reference = []
        lastAcceptedAtUSec = nil
        rejectedInARow = 0
        previousAccepted = false
    }
}

private func mean(_ values: [Double]) -> Double {
    values.reduce(0, +) / Double(values.count)
}
