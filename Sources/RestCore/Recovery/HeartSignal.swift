/// A heart-rate source's samples turned into one smoothed heart rate, with the RR intervals
/// judged beat by beat. Pure: the samples carry their own times.
///
/// **Smoothing.** After each valid sample the smoothed heart rate is the median of the bpm
/// values of the valid samples of the last 5 s (those that arrived after `t − 5 s`; at most the
/// last 64, so that a producer sending far faster than a strap's once a second cannot make each
/// sample cost more). The same
/// for every source — a strap with or without RR intervals, a producer's `Live.Update` — and one
/// that beats cannot move: an ectopic beat and its pause leave a strap's bpm as it was, while a
/// rate taken from the beats would have to leave them out and so shift. A smoothed value is
/// *confirmed* once the window holds at least 3 samples: then one stray value cannot set it
/// (the peak and the heart rate at the set's end take only confirmed values). Between samples
/// the value stays what it was; 5 s after the last valid sample there is none.
///
/// **Invalid samples.** A sample without a heart rate, or from a strap saying it lost skin
/// contact, counts as no sample at all: the value holds as through silence, and the same 5 s
/// decide that the source is lost. Its beats are not judged, and the next beat starts a new run.
///
/// **Artefacts.** An RR interval is rejected when it lies outside 300–2000 ms (200 and 30 bpm:
/// no resting adult beats faster or slower) or more than 20 % from the reference — the usual
/// percentage filter of heart-rate variability practice, which catches an ectopic beat and the
/// pause after it. The reference is the mean of the last 5 accepted beats. It is seeded, and
/// seeded again, from the strap's own bpm of the sample carrying the beat (60000 / bpm):
///   - for the first beat;
///   - when the last accepted beat is 5 s old or more (a dropout, or a strap that stopped sending
///     RR for a while: heart rate may have moved more than 20 % since);
///   - after 3 rejections in a row: a premature beat and its compensatory pause are 2; a third
///     says the reference is wrong rather than the beats, and without a fresh seed every later
///     beat would be rejected against it.
///
/// **Runs of beats.** Two accepted beats make a successive pair (as RMSSD needs) only when
/// nothing came between them. A strap sends, about once a second, the beats since its last
/// notification, so the RR intervals of a notification account for the time since the last one
/// that carried beats, give or take the second by which beats trail their notification. When
/// more than `unexplainedGapUSec` is left unaccounted for, beats went missing (a reconnect, a
/// lost notification): the notification's first beat starts a new run.
public struct HeartSignal: Sendable, Equatable {
    /// One RR interval as judged.
    public struct Beat: Sendable, Equatable {
        public var rrMilliseconds: Double
        public var accepted: Bool
        /// Accepted, and so was the beat before it with nothing in between (no rejection, no
        /// loss, no gap): the two make a successive pair, as RMSSD needs.
        public var followsAccepted: Bool

        public init(rrMilliseconds: Double, accepted: Bool, followsAccepted: Bool) {
            self.rrMilliseconds = rrMilliseconds
            self.accepted = accepted
            self.followsAccepted = followsAccepted
        }
    }

    /// What one valid sample gave.
    public struct Reading: Sendable, Equatable {
        /// The smoothed heart rate after it.
        public var smoothedBPM: Double
        /// Whether that value rests on at least `confirmingSamples` samples.
        public var confirmed: Bool
        /// Its RR intervals, judged, in order.
        public var beats: [Beat]

        public init(smoothedBPM: Double, confirmed: Bool, beats: [Beat] = []) {
            self.smoothedBPM = smoothedBPM
            self.confirmed = confirmed
            self.beats = beats
        }
    }

    /// How far back smoothing looks, and how old the last accepted beat may be to stay a reference.
    public static let windowUSec: USec = 5_000_000
    /// A median of this many values is one that a single stray value cannot set.
    public static let confirmingSamples = 3
    /// The most samples the window keeps (a strap sends 5 in 5 s).
    public static let maxWindowSamples = 64
    /// RR intervals outside are rejected, in ms.
    public static let rrRangeMilliseconds: ClosedRange<Double> = 300...2_000
    /// The largest share an RR interval may differ from the reference.
    public static let maxDeviation = 0.2
    /// How many of the last accepted beats make the reference.
    public static let referenceBeats = 5
    /// After this many rejections in a row the reference is seeded again.
    public static let rejectionsBeforeReseed = 3
    /// Time since the last notification with beats that a notification's RR intervals may leave
    /// unaccounted for: beats trail their notification by up to about a second, and delivery
    /// adds some jitter. More, and beats are missing in between.
    public static let unexplainedGapUSec: USec = 1_500_000

    private struct Entry: Sendable, Equatable {
        var atUSec: USec
        var bpm: Int
    }

    /// The valid samples of the last `windowUSec`, oldest first.
    private var window: [Entry] = []
    /// The last accepted beats, oldest first; empty means "seed from the strap's bpm".
    private var reference: [Double] = []
    private var lastAcceptedAtUSec: USec?
    private var rejectedInARow = 0
    private var previousAccepted = false
    /// When the last valid sample that carried RR intervals arrived.
    private var lastBeatsAtUSec: USec?

    /// The smoothed heart rate after the last valid sample.
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

    /// Takes one sample (not earlier than the previous one) and says what it gave: nil for an
    /// invalid one, which counts as no sample.
    @discardableResult
    public mutating func add(_ sample: HeartSample) -> Reading? {
        guard sample.isValid, let bpm = sample.beatsPerMinute else {
            // Whatever beats it had were not judged: the next one does not follow the last.
            previousAccepted = false
            return nil
        }
        let now = sample.atUSec
        if let lastAcceptedAtUSec, now.subtractingSaturated(lastAcceptedAtUSec) >= Self.windowUSec {
            forgetReference()
        }
        let beats = judge(sample.rrMilliseconds, bpm: bpm, at: now)
        window.append(Entry(atUSec: now, bpm: bpm))
        Self.keepWindow(&window, at: now) { $0.atUSec }
        let smoothed = window.map { Double($0.bpm) }.median() ?? Double(bpm)
        latestBPM = smoothed
        lastValidAtUSec = now
        return Reading(smoothedBPM: smoothed, confirmed: window.count >= Self.confirmingSamples, beats: beats)
    }

    private mutating func judge(_ intervals: [Double], bpm: Int, at now: USec) -> [Beat] {
        guard !intervals.isEmpty else { return [] }
        if let lastBeatsAtUSec {
            let elapsed = now.subtractingSaturated(lastBeatsAtUSec)
            let accountedFor = USec(max(0, intervals.reduce(0, +)) * 1_000)
            if elapsed.subtractingSaturated(accountedFor) > Self.unexplainedGapUSec { previousAccepted = false }
        }
        lastBeatsAtUSec = now
        var beats: [Beat] = []
        for rr in intervals {
            let expected = reference.isEmpty ? 60_000 / Double(bpm) : mean(reference)
            if Self.rrRangeMilliseconds.contains(rr), (rr - expected).magnitude <= Self.maxDeviation * expected {
                beats.append(Beat(rrMilliseconds: rr, accepted: true, followsAccepted: previousAccepted))
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
        return beats
    }

    /// Drops from `samples` (oldest first) those of more than `windowUSec` before `now`, and
    /// all but the last `maxWindowSamples`.
    public static func keepWindow<Sample>(_ samples: inout [Sample], at now: USec, time: (Sample) -> USec) {
        let fresh = samples.firstIndex { now.subtractingSaturated(time($0)) < windowUSec } ?? samples.endIndex
        samples.removeFirst(max(fresh, samples.count - maxWindowSamples))
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
