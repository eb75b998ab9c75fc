import RestCore
import Testing

/// The metrics of a rest on series whose values are worked out by hand in each test.
@Suite struct RecoveryMetricsTests {
    /// The series a strap sending `samples` gives (start at 0).
    static func series(_ samples: [HeartSample]) -> RecoverySeries {
        var signal = HeartSignal()
        var series = RecoverySeries()
        for sample in samples {
            if let reading = signal.add(sample) { series.record(atUSec: sample.atUSec, reading) }
        }
        return series
    }

    static func metrics(_ samples: [HeartSample], target: RecoveryTarget = .standard, end: USec) -> RecoveryMetrics {
        RecoveryMetrics(series: series(samples), target: target, startUSec: 0, endUSec: end)
    }

    /// One sample a second at whole seconds `seconds`, bpm by second.
    static func everySecond(_ seconds: ClosedRange<Int>, bpm: (Int) -> Int) -> [HeartSample] {
        seconds.map { HeartSample(atUSec: USec($0) * second, beatsPerMinute: bpm($0)) }
    }

    /// Up to 152 bpm in 4 s, then down 1 bpm/s to 90 at 65 s. Smoothed (the median of 5):
    /// 140 143 146 148 150 150 150 150, then 157 − t from 8 s, and 90 from 67 s; confirmed (3
    /// values in) from 146 at 2 s.
    static func afterASet(_ t: Int) -> Int {
        t <= 5 ? [140, 146, 150, 152, 152, 150][t] : max(155 - t, 90)
    }

    @Test("a rest that ends on recovery at its minimum of 60 s has HRR60: from the set's end, 150 − 100")
    func hrr60AtTheMinimum() {
        // The defaults, a 2:00 maximum; 150 during the set and for 5 s after, then −2 bpm/s to 100
        // (at 29 s). Smoothed: 120 at 21 s, the hold of 10 s complete at 31 s, the minimum at 60 s.
        var rest = RestOnClock(rule(planned: 2 * minute), leadIn: RestOnClock.steady(150))
        let decisions = rest.samples(0...59) { $0 < 5 ? 150 : max(150 - 2 * ($0 - 4), 100) }
        #expect(decisions.values.allSatisfy { $0 == .resting })
        #expect(rest.evaluate(at: 60 * second) == .ended(.recovered, atUSec: rest.at(60 * second)))
        let metrics = rest.tracker.metrics(endUSec: rest.at(60 * second))
        #expect(metrics.setEndBPM == 150 && metrics.bpmAfter60s == 100)
        #expect(metrics.hrr60BPM == 50)
        #expect(metrics.timeToTargetUSec == 21 * second)
        #expect(metrics.peakBPM == 150 && metrics.peakAfterUSec == 0)
    }

    @Test("time to a drop target counts from the peak as it came: 47 s, not the 1 s of a value before the peak")
    func timeToDropTargetAfterARise() {
        // 128 at 1 s rising by 8/3 bpm/s to 160 at 13 s, then −1 bpm/s. Smoothed (the median of 5
        // values, 2 s late): the peak 158 from 15 s, so the target 128, which the values reach at
        // 45 s and the median at 47 s.
        let samples = Self.everySecond(1...80) { t in
            t <= 13 ? Int((128 + Double(t - 1) * 32 / 12).rounded()) : 160 - (t - 13)
        }
        let metrics = Self.metrics(samples, target: .drop(bpm: 30), end: 80 * second)
        #expect(metrics.peakBPM == 158)
        #expect(metrics.timeToTargetUSec == 47 * second)
    }

    @Test("a whole rest: every metric, from a tracker that lost the strap for 10 s near the end")
    func knownSeries() {
        // The minimum is the whole rest, so nothing ends it early and every sample is recorded;
        // the strap back at 110 s, it ends on recovery at that minimum.
        var rest = RestOnClock(rule(planned: 130 * second, minimum: 130 * second))
        rest.samples(0...100, bpm: Self.afterASet)
        #expect(
            rest.evaluate(at: 105 * second) == .runsToPlanned(reason: .sensorLost, sinceUSec: rest.at(105 * second)))
        rest.samples(110...129, bpm: Self.afterASet)
        #expect(rest.evaluate(at: 130 * second) == .ended(.recovered, atUSec: rest.at(130 * second)))

        #expect(
            rest.tracker.metrics(endUSec: rest.at(130 * second))
                == RecoveryMetrics(
                    setEndBPM: 146,  // the first confirmed value (no sample before the start)
                    peakBPM: 150, peakAfterUSec: 4 * second,  // first reached at 4 s
                    bpmAfter30s: 127, bpmAfter60s: 97, bpmAfter120s: 90,  // 157 − 30, 157 − 60, the floor
                    hrr60BPM: 49,  // 146 − 97
                    timeToTargetUSec: 37 * second,  // 157 − 37 = 120
                    minimumBPM: 90,
                    coverage: 125.0 / 130,  // 0–105 s (the last sample before the gap counts 5 s), 110–130 s
                    rmssdMilliseconds: nil, rmssdBeats: 0, rmssdRejectedShare: nil))  // a strap without RR
    }

    @Test("a rest ended early by hand: what came after its end is not there, and is nil")
    func endedEarly() {
        let samples = Self.everySecond(0...129, bpm: Self.afterASet)
        let metrics = Self.metrics(samples, end: 50 * second)
        #expect(metrics.setEndBPM == 146)
        #expect(metrics.peakBPM == 150)
        #expect(metrics.bpmAfter30s == 127)
        #expect(metrics.bpmAfter60s == nil)
        #expect(metrics.bpmAfter120s == nil)
        #expect(metrics.hrr60BPM == nil)  // 60 s is after the end
        #expect(metrics.timeToTargetUSec == 37 * second)
        #expect(metrics.minimumBPM == 107)  // 157 − 50, not the 90 that came later
        #expect(metrics.coverage == 1)
        // A rest of 60 s has HRR60: nothing past its end is needed.
        #expect(Self.metrics(samples, end: 60 * second).hrr60BPM == 49)
        #expect(Self.metrics(samples, end: 60 * second - 1).hrr60BPM == nil)
    }

    @Test("the target is the rest's own: a drop from the peak, a lower bpm, one never reached")
    func timeToTargetByTarget() {
        let samples = Self.everySecond(0...129, bpm: Self.afterASet)
        #expect(Self.metrics(samples, target: .drop(bpm: 30), end: 130 * second).timeToTargetUSec == 37 * second)
        #expect(Self.metrics(samples, target: .drop(bpm: 60), end: 130 * second).timeToTargetUSec == 67 * second)
        #expect(Self.metrics(samples, target: .absolute(bpm: 100), end: 130 * second).timeToTargetUSec == 57 * second)
        #expect(Self.metrics(samples, target: .absolute(bpm: 80), end: 130 * second).timeToTargetUSec == nil)
    }

    @Test("without samples before the start, the set's end is the first confirmed value, if within 5 s")
    func lateFirstValue() {
        // From 2 s on: confirmed at 4 s.
        #expect(Self.metrics(Self.everySecond(2...60) { _ in 140 }, end: 60 * second).setEndBPM == 140)
        // From 3 s on: confirmed at 5 s, too late.
        let late = Self.metrics(Self.everySecond(3...60) { _ in 140 }, end: 60 * second)
        #expect(late.setEndBPM == nil)
        #expect(late.hrr60BPM == nil)
        #expect(late.peakBPM == 140)
        #expect(late.peakAfterUSec == 5 * second)
        #expect(late.coverage == 57.0 / 60)
    }

    @Test("samples before the start: the heart rate the set ended on, from the start")
    func carriedIntoTheRest() {
        // 150 during the set (−5…−1 s), 100 from the start on.
        let samples = (-5...70).map { HeartSample(atUSec: USec($0 + 10) * second, beatsPerMinute: $0 < 0 ? 150 : 100) }
        let metrics = RecoveryMetrics(
            series: Self.series(samples), target: .drop(bpm: 30), startUSec: 10 * second, endUSec: 70 * second)
        #expect(metrics.setEndBPM == 150)
        #expect(metrics.peakBPM == 150 && metrics.peakAfterUSec == 0)
        // The median shows 100 from 2 s (150 150 100 100 100).
        #expect(metrics.timeToTargetUSec == 2 * second)
        #expect(metrics.bpmAfter60s == 100 && metrics.hrr60BPM == 50)
        #expect(metrics.coverage == 1)
        #expect(metrics.minimumBPM == 100)
    }

    @Test("the heart rate at an instant is the last value if less than 5 s old")
    func staleValues() {
        var samples = Self.everySecond(0...55) { _ in 100 } + Self.everySecond(61...130) { _ in 100 }
        #expect(Self.metrics(samples, end: 130 * second).bpmAfter60s == nil)  // 55 s is 5 s old at 60 s
        samples.append(HeartSample(atUSec: 55_500_000, beatsPerMinute: 100))
        samples.sort { $0.atUSec < $1.atUSec }
        #expect(Self.metrics(samples, end: 130 * second).bpmAfter60s == 100)  // 4.5 s old
    }

    @Test("no skin contact counts as no sample: the last value holds for 5 s, as through silence")
    func contactLoss() {
        let samples =
            (0...9).map { HeartSample(atUSec: USec($0) * second, beatsPerMinute: 100, contact: .detected) }
            + [HeartSample(atUSec: 10 * second, beatsPerMinute: nil, contact: .lost)]
            + (20...29).map { HeartSample(atUSec: USec($0) * second, beatsPerMinute: 90, contact: .detected) }
        let metrics = Self.metrics(samples, end: 30 * second)
        #expect(metrics.coverage == 24.0 / 30)  // 0–14 s and 20–30 s
        #expect(metrics.minimumBPM == 90)
        #expect(Self.metrics(samples, end: 40 * second).bpmAfter30s == 90)
        #expect(
            Self.metrics(
                samples + [HeartSample(atUSec: 30 * second, beatsPerMinute: nil, contact: .lost)], end: 40 * second
            ).bpmAfter30s == 90)
    }

    @Test("no samples at all: every metric nil, coverage 0")
    func nothing() {
        #expect(
            Self.metrics([], end: 90 * second)
                == RecoveryMetrics(coverage: 0, rmssdMilliseconds: nil, rmssdBeats: 0, rmssdRejectedShare: nil))
        #expect(Self.metrics([], end: 0).coverage == nil)  // a rest of no length
    }

    // MARK: - RMSSD

    /// One beat a sample, every `spacing` µs, from 0 to `end` inclusive; rr by index.
    static func beats(every spacing: USec, until end: USec, bpm: Int, rr: (Int) -> Double) -> [HeartSample] {
        (0...Int(end / spacing)).map {
            HeartSample(atUSec: USec($0) * spacing, beatsPerMinute: bpm, rrMilliseconds: [rr($0)])
        }
    }

    @Test("RMSSD over the last 60 s: the root of the mean squared successive difference")
    func rmssd() {
        // 1000 1030 1000 990 …: differences +30 −30 −10 +10, squares 900 900 100 100. The last 60 s
        // of a 90 s rest hold the beats of 30–90 s, 61 beats and 60 pairs (the beat at 30 s pairs
        // with one before the window): 15 of each square, mean 500. The mean absolute difference
        // would be 20.
        let samples = Self.beats(every: second, until: 90 * second, bpm: 60) { [1_000, 1_030, 1_000, 990][$0 % 4] }
        let metrics = Self.metrics(samples, end: 90 * second)
        #expect(metrics.rmssdMilliseconds == 500.0.squareRoot())
        #expect(metrics.rmssdBeats == 61)
        #expect(metrics.rmssdRejectedShare == 0)
    }

    @Test("one rejected beat in 121 (under 1 %): RMSSD without it and without the pairs it breaks")
    func rmssdOneEctopicBeat() {
        // 120 bpm, 500 520 500 520 … one beat per sample every 0.5 s; at 60 s a premature 350 ms.
        // The window 30–90 s holds 121 beats; 120 accepted, of which the first pairs with a beat
        // before the window and the one after the 350 with nothing: 118 pairs, each ±20 ms. Were
        // the pair across the 350 counted, its difference would be 0 and RMSSD 19.9.
        let samples = Self.beats(every: 500_000, until: 90 * second, bpm: 120) {
            $0 == 120 ? 350 : $0 % 2 == 0 ? 500 : 520
        }
        let metrics = Self.metrics(samples, end: 90 * second)
        #expect(metrics.rmssdMilliseconds == 20)
        #expect(metrics.rmssdBeats == 120)
        #expect(metrics.rmssdRejectedShare == 1.0 / 121)
    }

    @Test("up to 5 % rejected beats RMSSD is told (6 in 121); over it (7 in 121) it is nil, the beats and share told")
    func rmssdTooManyRejected() {
        func metrics(rejecting count: Int) -> RecoveryMetrics {
            let samples = Self.beats(every: 500_000, until: 90 * second, bpm: 120) {
                $0 >= 100 && $0 < 100 + 10 * count && $0 % 10 == 0 ? 350 : $0 % 2 == 0 ? 500 : 520
            }
            return Self.metrics(samples, end: 90 * second)
        }
        #expect(metrics(rejecting: 6).rmssdMilliseconds == 20)
        #expect(metrics(rejecting: 6).rmssdRejectedShare == 6.0 / 121)
        let over = metrics(rejecting: 7)
        #expect(over.rmssdMilliseconds == nil)
        #expect(over.rmssdBeats == 114)
        #expect(over.rmssdRejectedShare == 7.0 / 121)
    }

    @Test("RMSSD needs 20 successive pairs: beats for the last 20 s of a minute give 20, for 19 s none")
    func rmssdTooFewPairs() {
        func lastSeconds(_ from: Int) -> RecoveryMetrics {
            let samples = (0...60).map { t in
                HeartSample(
                    atUSec: USec(t) * second, beatsPerMinute: 60,
                    rrMilliseconds: t >= from ? [t % 2 == 0 ? 1_000 : 1_020] : [])
            }
            return Self.metrics(samples, end: 60 * second)
        }
        #expect(lastSeconds(40).rmssdMilliseconds == 20)  // 21 beats, 20 pairs
        #expect(lastSeconds(40).rmssdBeats == 21)
        #expect(lastSeconds(41).rmssdMilliseconds == nil)  // 20 beats, 19 pairs
        #expect(lastSeconds(41).rmssdBeats == 20)
        #expect(lastSeconds(41).rmssdRejectedShare == 0)
    }

    @Test("RMSSD needs a rest of at least 30 s, then covers all of it")
    func rmssdShortRest() {
        let samples = Self.beats(every: 500_000, until: 30 * second, bpm: 120) { $0 % 2 == 0 ? 500 : 520 }
        let thirty = Self.metrics(samples, end: 30 * second)
        #expect(thirty.rmssdMilliseconds == 20)
        #expect(thirty.rmssdBeats == 61)  // 0–30 s
        let shorter = Self.metrics(Array(samples.dropLast(2)), end: 29 * second)
        #expect(shorter.rmssdMilliseconds == nil)
        #expect(shorter.rmssdBeats == 0)
        #expect(shorter.rmssdRejectedShare == nil)
    }
}
