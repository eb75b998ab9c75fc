import Foundation
import RestCore
import SeededRandom
import Testing

/// Properties of the recovery core over generated rests: a heart rate falling from a set's peak
/// towards a floor, with a strap's noise, stray values, lost notifications, moments without skin
/// contact and, for some, RR intervals; each rest followed by a tracker from its lead-in to its
/// end, as the daemon does. Seeded: every run generates the same rests.
@Suite struct RecoveryPropertyTests {
    /// One generated rest: what a strap sent around it, and its rule.
    struct Rest {
        var rule: RecoveryRule
        var startUSec: USec
        /// In time order, the first ones before the start.
        var samples: [HeartSample]

        /// The same rest `offset` µs later.
        func shifted(by offset: USec) -> Rest {
            var rest = self
            rest.startUSec += offset
            rest.samples = samples.map {
                var sample = $0
                sample.atUSec += offset
                return sample
            }
            return rest
        }

        /// Followed from its start (with the samples before it) to its end: the decisions after
        /// each sample, the end, and the metrics then.
        func followed() -> (decisions: [RecoveryDecision], end: RecoveryDecision, metrics: RecoveryMetrics) {
            let leadIn = samples.filter { $0.atUSec <= startUSec }
            var tracker = RecoveryTracker(rule: rule, startUSec: startUSec, leadIn: leadIn)
            var decisions: [RecoveryDecision] = []
            for sample in samples where sample.atUSec > startUSec {
                tracker.add(sample)
                let decision = tracker.evaluate(nowUSec: sample.atUSec)
                decisions.append(decision)
                if case .ended = decision { break }
            }
            var end = tracker.evaluate(nowUSec: tracker.plannedEndUSec)
            if case .ended = decisions.last {
                end = decisions.last!
            }
            guard case .ended(_, let endUSec) = end else {
                Issue.record("a rest must be over at its planned end: \(end)")
                return (decisions, end, RecoveryMetrics())
            }
            return (decisions, end, tracker.metrics(endUSec: endUSec))
        }
    }

    /// How the heart rate of a generated rest goes: `peak` during the set, then down towards
    /// `floor` with time constant `tau` seconds.
    struct Curve {
        var peak: Double
        var floor: Double
        var tau: Double

        func bpm(at seconds: Double) -> Double {
            seconds <= 0 ? peak : floor + (peak - floor) * exp(-seconds / tau)
        }
    }

    static func uniform(_ random: inout SplitMix64, _ range: ClosedRange<Double>) -> Double {
        range.lowerBound + Double(random.next() % 1_000_001) / 1_000_000 * (range.upperBound - range.lowerBound)
    }

    static func chance(_ random: inout SplitMix64, _ probability: Double) -> Bool {
        uniform(&random, 0...1) < probability
    }

    /// A rest of `rule` whose heart rate follows `curve`: about a notification a second (± 0.2 s)
    /// from up to 5 s before the start (or from 5–40 s after it) to 2 s after the planned end; now and then a stray value
    /// (`strays`), a notification without contact, or a run of lost ones; with RR intervals in
    /// the strap's unit of 1/1024 s when `withRR`, each notification carrying the beats since
    /// the one before it (those of a lost notification are lost with it).
    static func generate(
        _ random: inout SplitMix64, rule: RecoveryRule, curve: Curve, withRR: Bool, strays: Bool = true,
        clampBPM: ClosedRange<Int> = 30...220
    ) -> Rest {
        let start: USec = 1_000_000_000 + random.next() % 1_000_000_000
        // Mostly on during the set; sometimes put on only well into the rest.
        var t = chance(&random, 0.15) ? uniform(&random, 5...40) : -Double(random.next() % 6)
        var beatAt = t - 1
        var samples: [HeartSample] = []
        let last = Double(rule.plannedUSec) / 1_000_000 + 2
        var lostLeft = 0
        while t <= last {
            var beats: [Double] = []
            while withRR, beatAt < t {
                let units = (1_024 * 60 / curve.bpm(at: beatAt) * uniform(&random, 0.98...1.02)).rounded()
                beats.append(units * 1_000 / 1_024)
                beatAt += units / 1_024
            }
            if lostLeft == 0, chance(&random, 0.03) { lostLeft = 2 + Int(random.next() % 6) }
            if lostLeft > 0 {
                lostLeft -= 1
            } else {
                var bpm = Int((curve.bpm(at: t) + uniform(&random, -2...2)).rounded())
                if strays, chance(&random, 0.03) {
                    bpm += (chance(&random, 0.5) ? 1 : -1) * Int(20 + random.next() % 21)
                }
                let atUSec = USec(Int64(start) + Int64(t * 1_000_000))
                if chance(&random, 0.03) {
                    samples.append(
                        HeartSample(atUSec: atUSec, beatsPerMinute: nil, rrMilliseconds: beats, contact: .lost))
                } else {
                    samples.append(
                        HeartSample(
                            atUSec: atUSec, beatsPerMinute: min(max(bpm, clampBPM.lowerBound), clampBPM.upperBound),
                            rrMilliseconds: beats, contact: .detected))
                }
            }
            t += uniform(&random, 0.8...1.2)
        }
        return Rest(rule: rule, startUSec: start, samples: samples)
    }

    static func randomRule(_ random: inout SplitMix64, target: RecoveryTarget? = nil) -> RecoveryRule {
        let planned = USec(30 + random.next() % 151) * second
        let targets: [RecoveryTarget] = [
            .absolute(bpm: 100 + Int(random.next() % 31)), .drop(bpm: 20 + Int(random.next() % 21)),
            .shareOfMax(share: 0.55 + Double(random.next() % 20) / 100, maxBPM: 190),
        ]
        return rule(
            target ?? targets[Int(random.next() % 3)], planned: planned, minimum: random.next() % (planned + 1),
            hold: USec(1 + random.next() % 20) * second)
    }

    static func randomCurve(_ random: inout SplitMix64) -> Curve {
        Curve(peak: uniform(&random, 130...180), floor: uniform(&random, 70...110), tau: uniform(&random, 10...60))
    }

    @Test("shifting every timestamp (and the start) leaves every decision and every metric unchanged")
    func shiftInvariance() {
        var random = SplitMix64(state: 2_026)
        for _ in 0..<300 {
            let rest = Self.generate(
                &random, rule: Self.randomRule(&random), curve: Self.randomCurve(&random),
                withRR: Self.chance(&random, 0.5))
            let offset = random.next() % 1_000_000_000_000
            let (decisions, end, metrics) = rest.followed()
            let (laterDecisions, laterEnd, laterMetrics) = rest.shifted(by: offset).followed()
            #expect(laterMetrics == metrics)
            #expect(laterDecisions == decisions.map { $0.shifted(by: offset) })
            #expect(laterEnd == end.shifted(by: offset))
        }
    }

    @Test(
        "one ectopic beat (a premature beat and its pause, the same time in all) never changes HRR60 or time to target")
    func ectopicBeat() {
        var random = SplitMix64(state: 1_999)
        var seen = 0
        var withHRR60 = 0
        var withTimeToTarget = 0
        for _ in 0..<300 {
            let rest = Self.generate(
                &random, rule: Self.randomRule(&random), curve: Self.randomCurve(&random), withRR: true)
            // Two successive beats at least 10 s into the rest, in notifications that arrived.
            let beats = rest.samples.indices.flatMap { index in
                rest.samples[index].rrMilliseconds.indices.map { (sample: index, beat: $0) }
            }
            let candidates = beats.indices.dropLast().filter {
                rest.samples[beats[$0].sample].atUSec >= rest.startUSec + 10 * second
            }
            guard let pick = candidates.randomElement(using: &random) else { continue }
            var ectopic = rest
            let (first, following) = (beats[pick], beats[pick + 1])
            let normal = rest.samples[first.sample].rrMilliseconds[first.beat] * 1_024 / 1_000
            let next = rest.samples[following.sample].rrMilliseconds[following.beat] * 1_024 / 1_000
            let premature = (normal * 0.65).rounded()
            ectopic.samples[first.sample].rrMilliseconds[first.beat] = premature * 1_000 / 1_024
            ectopic.samples[following.sample].rrMilliseconds[following.beat] =
                (normal + next - premature) * 1_000 / 1_024

            let (_, end, metrics) = rest.followed()
            let (_, ectopicEnd, ectopicMetrics) = ectopic.followed()
            #expect(ectopicMetrics.hrr60BPM == metrics.hrr60BPM)
            #expect(ectopicMetrics.timeToTargetUSec == metrics.timeToTargetUSec)
            #expect(ectopicEnd == end)
            if metrics.hrr60BPM != nil { withHRR60 += 1 }
            if metrics.timeToTargetUSec != nil { withTimeToTarget += 1 }
            // The beats saw it, when it fell in RMSSD's window: more of them rejected.
            if let before = metrics.rmssdRejectedShare, let after = ectopicMetrics.rmssdRejectedShare, after > before {
                seen += 1
            }
        }
        #expect(seen > 30 && withHRR60 > 30 && withTimeToTarget > 30, "\(seen) \(withHRR60) \(withTimeToTarget)")
    }

    @Test("a heart rate that never reaches the target never ends the rest early")
    func neverReachedNeverEndsEarly() {
        var random = SplitMix64(state: 77)
        for round in 0..<300 {
            // Every value above 120 bpm; or, for a drop of 30, every value within 29 bpm.
            let drop = round % 2 == 1
            let target: RecoveryTarget = drop ? .drop(bpm: 30) : .absolute(bpm: 120)
            let curve =
                drop
                ? Curve(peak: 168, floor: 140, tau: Self.uniform(&random, 5...60))
                : Curve(peak: Self.uniform(&random, 130...180), floor: 125, tau: Self.uniform(&random, 5...60))
            let rest = Self.generate(
                &random, rule: Self.randomRule(&random, target: target), curve: curve,
                withRR: Self.chance(&random, 0.5), clampBPM: drop ? 140...168 : 121...220)
            let (decisions, end, metrics) = rest.followed()
            #expect(!decisions.contains { if case .ended(.recovered, _) = $0 { true } else { false } })
            guard case .ended(let reason, let atUSec) = end else { continue }
            #expect(reason == .planned || reason == .sensorLost)
            #expect(atUSec == rest.startUSec + rest.rule.plannedUSec)
            #expect(metrics.timeToTargetUSec == nil)
        }
    }

    @Test("no metric is reported where its data are missing")
    func nothingWithoutData() {
        var random = SplitMix64(state: 314)
        // How often each metric was there and missing: both must happen for the test to say anything.
        var known: [String: (there: Int, missing: Int)] = [:]
        func count(_ name: String, _ value: Any?) {
            known[name, default: (0, 0)].there += value == nil ? 0 : 1
            known[name, default: (0, 0)].missing += value == nil ? 1 : 0
        }
        defer {
            for (name, counts) in known {
                #expect(counts.there > 10 && counts.missing > 10, "\(name): \(counts)")
            }
        }
        for _ in 0..<400 {
            let withRR = Self.chance(&random, 0.5)
            let rule = Self.randomRule(&random, target: .absolute(bpm: 115))
            let rest = Self.generate(&random, rule: rule, curve: Self.randomCurve(&random), withRR: withRR)
            let (_, end, metrics) = rest.followed()
            guard case .ended(_, let endUSec) = end else { continue }
            for (name, value) in [
                ("hr_30s", metrics.bpmAfter30s), ("hr_60s", metrics.bpmAfter60s), ("hr_120s", metrics.bpmAfter120s),
                ("hr_set_end", metrics.setEndBPM), ("hrr60", metrics.hrr60BPM), ("hr_peak", metrics.peakBPM),
                ("rmssd", metrics.rmssdMilliseconds),
            ] as [(String, Double?)] {
                count(name, value)
            }
            count("time_to_target", metrics.timeToTargetUSec)
            let start = rest.startUSec
            let oracle = Oracle(samples: rest.samples.filter { $0.isValid && $0.atUSec < endUSec })

            for (seconds, value) in [(30, metrics.bpmAfter30s), (60, metrics.bpmAfter60s), (120, metrics.bpmAfter120s)]
            {
                let instant = start + USec(seconds) * second
                let known = instant <= endUSec && oracle.value(at: instant) != nil
                #expect((value != nil) == known, "\(seconds) s: \(String(describing: value))")
                if known { #expect(value == oracle.value(at: instant)?.bpm) }
            }
            let carried = oracle.value(at: start)
            let setEnd =
                carried.flatMap { $0.confirmed ? $0.bpm : nil }
                ?? oracle.points.first { $0.at > start && $0.at < start + 5 * second && $0.confirmed }?.bpm
            #expect(metrics.setEndBPM == setEnd)
            #expect((metrics.hrr60BPM != nil) == (setEnd != nil && metrics.bpmAfter60s != nil))
            let inRest = oracle.points.filter { $0.at > start }.map(\.bpm) + (carried.map { [$0.bpm] } ?? [])
            #expect(metrics.minimumBPM == inRest.min())
            let peakCandidates =
                oracle.points.filter { $0.at > start && $0.at < start + 20 * second && $0.confirmed }.map(\.bpm)
                + (carried.flatMap { $0.confirmed ? [$0.bpm] : nil } ?? [])
            #expect(metrics.peakBPM == peakCandidates.max())
            #expect((metrics.timeToTargetUSec != nil) == inRest.contains { $0 <= 115 })
            #expect((metrics.coverage != nil) == (endUSec > start))
            if !withRR || endUSec - start < 30 * second {
                #expect(metrics.rmssdMilliseconds == nil && metrics.rmssdRejectedShare == nil)
                #expect(metrics.rmssdBeats == 0)
            }
        }
    }

    /// The smoothed heart rate worked out again, plainly: the median of the valid samples of the
    /// 5 s up to each, confirmed with 3 of them.
    struct Oracle {
        var points: [(at: USec, bpm: Double, confirmed: Bool)] = []

        init(samples: [HeartSample]) {
            for (index, sample) in samples.enumerated() {
                let window = samples[...index].filter { sample.atUSec - $0.atUSec < 5 * second }
                let values = window.compactMap(\.beatsPerMinute).map(Double.init).sorted()
                let middle = values.count / 2
                let median = values.count % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2
                points.append((sample.atUSec, median, values.count >= 3))
            }
        }

        /// The value at `instant`: the last sample's, if less than 5 s old.
        func value(at instant: USec) -> (bpm: Double, confirmed: Bool)? {
            guard let last = points.last(where: { $0.at <= instant }), instant - last.at < 5 * second else {
                return nil
            }
            return (last.bpm, last.confirmed)
        }
    }
}

extension RecoveryDecision {
    /// The same decision `offset` µs later.
    func shifted(by offset: USec) -> RecoveryDecision {
        switch self {
        case .resting: .resting
        case .runsToPlanned(let reason, let since): .runsToPlanned(reason: reason, sinceUSec: since + offset)
        case .ended(let reason, let at): .ended(reason, atUSec: at + offset)
        }
    }
}
