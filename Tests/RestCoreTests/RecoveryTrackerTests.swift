import RestCore
import SeededRandom
import Testing

/// One rest that may end on recovery, driven by synthetic straps on the hand-moved clock. The
/// strap sends once a second, without RR, unless a test says otherwise; with 5 values in the
/// median's window, a steady fall of 1 bpm/s shows as the value of 2 s before.
@Suite struct RecoveryTrackerTests {
    @Test("a plateau above the target never recovers: the rest runs to its planned end")
    func plateauAboveTarget() {
        var rest = RestOnClock(rule(planned: 2 * minute))
        let decisions = rest.samples(0...119) { _ in 130 }
        #expect(decisions.values.allSatisfy { $0 == .resting })
        #expect(rest.tracker.holdingSinceUSec == nil)
        #expect(rest.evaluate(at: 120 * second - 1) == .resting)
        #expect(rest.evaluate(at: 120 * second) == .ended(.planned, atUSec: rest.at(120 * second)))
    }

    @Test("a slow fall recovers once the hold is complete, the minimum being over")
    func slowFallHoldDecides() {
        var rest = RestOnClock(rule(planned: 2 * minute))
        // Smoothed 172 − t: 120 at 52 s; the hold of 10 s ends at 62 s, after the minimum (60 s).
        let decisions = rest.samples(0...61) { 170 - $0 }
        #expect(decisions.values.allSatisfy { $0 == .resting })
        #expect(rest.tracker.holdingSinceUSec == rest.at(52 * second))
        #expect(rest.tracker.nextEvaluationUSec == rest.at(62 * second))
        #expect(rest.evaluate(at: 62 * second - 1) == .resting)
        #expect(rest.sample(at: 62 * second, bpm: 108) == .ended(.recovered, atUSec: rest.at(62 * second)))
    }

    @Test("a fast fall recovers when the minimum is over, not at the end of the hold")
    func fastFallMinimumDecides() {
        var rest = RestOnClock(rule(planned: 2 * minute))
        // Smoothed 152 − t: 120 at 32 s, held from then on; the hold is complete at 42 s.
        let decisions = rest.samples(0...59) { 150 - $0 }
        #expect(decisions.values.allSatisfy { $0 == .resting })
        #expect(rest.tracker.holdingSinceUSec == rest.at(32 * second))
        #expect(rest.tracker.nextEvaluationUSec == rest.at(60 * second))
        // Asked at the moment, without a sample.
        #expect(rest.evaluate(at: 60 * second) == .ended(.recovered, atUSec: rest.at(60 * second)))
    }

    @Test("a rise during the hold restarts it")
    func spikeRestartsTheHold() {
        var rest = RestOnClock(rule(planned: 2 * minute))
        // The fall of slowFallHoldDecides, with three values of 130 at 56–58 s: the median shows
        // them from 58 s (three of five) to 60 s, and from 61 s (109 110 111 130 130) the hold restarts.
        let bpm = { (t: Int) in (56...58).contains(t) ? 130 : 170 - t }
        rest.samples(0...57, bpm: bpm)
        #expect(rest.tracker.holdingSinceUSec == rest.at(52 * second))
        rest.samples(58...60, bpm: bpm)
        #expect(rest.tracker.holdingSinceUSec == nil)
        let decisions = rest.samples(61...70, bpm: bpm)
        #expect(decisions.values.allSatisfy { $0 == .resting })
        #expect(rest.tracker.holdingSinceUSec == rest.at(61 * second))
        #expect(rest.sample(at: 71 * second, bpm: 99) == .ended(.recovered, atUSec: rest.at(71 * second)))
    }

    @Test("one stray value during the hold does not restart it: the median ignores it")
    func strayValueKeepsTheHold() {
        var rest = RestOnClock(rule(planned: 2 * minute))
        let decisions = rest.samples(0...62) { $0 == 56 ? 160 : 170 - $0 }
        #expect(decisions[62] == .ended(.recovered, atUSec: rest.at(62 * second)))
    }

    @Test("a gap shorter than 5 s is bridged")
    func shortGap() {
        var rest = RestOnClock(rule(planned: 2 * minute))
        rest.samples(0...30) { _ in 110 }
        rest.sample(at: 35 * second - 1, bpm: 110)
        let decisions = rest.samples(36...59) { _ in 110 }
        #expect(decisions.values.allSatisfy { $0 == .resting })
        #expect(rest.evaluate(at: 60 * second) == .ended(.recovered, atUSec: rest.at(60 * second)))
    }

    @Test("5 s without a sample: the sensor is lost; back, it may end the rest again, after a fresh hold")
    func dropoutAndBack() {
        var rest = RestOnClock(rule(planned: 2 * minute))
        rest.samples(0...30) { _ in 110 }
        #expect(rest.tracker.nextEvaluationUSec == rest.at(35 * second))  // the loss, before the minimum
        #expect(rest.evaluate(at: 35 * second - 1) == .resting)
        let lost = RecoveryDecision.runsToPlanned(reason: .sensorLost, sinceUSec: rest.at(35 * second))
        #expect(rest.evaluate(at: 35 * second) == lost)
        #expect(rest.tracker.holdingSinceUSec == nil)
        #expect(rest.tracker.nextEvaluationUSec == nil)  // the planned end is the timer's own
        #expect(rest.evaluate(at: 70 * second) == lost)
        // The strap back at 70 s, well below the target: the hold starts again then.
        let decisions = rest.samples(70...79) { _ in 100 }
        #expect(decisions.values.allSatisfy { $0 == .resting })
        #expect(rest.tracker.holdingSinceUSec == rest.at(70 * second))
        #expect(rest.evaluate(at: 80 * second) == .ended(.recovered, atUSec: rest.at(80 * second)))
    }

    @Test("gone for good: the rest ends at its planned maximum as sensor_lost")
    func dropoutGivesUp() {
        var rest = RestOnClock(rule(planned: 2 * minute))
        rest.samples(0...30) { _ in 110 }
        #expect(rest.evaluate(at: 2 * minute) == .ended(.sensorLost, atUSec: rest.at(2 * minute)))
    }

    @Test("a sample that comes 5 s after the last one comes too late, however seldom the tracker is asked")
    func lossSettledBeforeTheSample() {
        // A hold of 40 s from 0 s would be complete at 40 s; a loss at 35 s breaks it.
        var rest = RestOnClock(rule(planned: 2 * minute, minimum: 0, hold: 40 * second))
        rest.samples(0...30) { _ in 110 }
        #expect(rest.tracker.holdingSinceUSec == rest.at(0))
        #expect(rest.sample(at: 35 * second, bpm: 110) == .resting)
        #expect(rest.tracker.holdingSinceUSec == rest.at(35 * second))
        #expect(rest.samples(36...74) { _ in 110 }.values.allSatisfy { $0 == .resting })
        #expect(rest.evaluate(at: 75 * second) == .ended(.recovered, atUSec: rest.at(75 * second)))
    }

    @Test("a strap that says it lost skin contact gets the grace silence gets: 9 s into a 10 s hold, the hold goes on")
    func contactLost() {
        var rest = RestOnClock(rule(planned: 2 * minute, minimum: 0))
        for t in 0...8 { rest.sample(at: USec(t) * second, bpm: 100, contact: .detected) }
        #expect(rest.sample(at: 9 * second, bpm: nil, contact: .lost) == .resting)
        #expect(rest.tracker.holdingSinceUSec == rest.at(0))
        #expect(rest.evaluate(at: 10 * second) == .ended(.recovered, atUSec: rest.at(10 * second)))
        // No contact for 5 s is a loss, as 5 s of silence is.
        var off = RestOnClock(rule(planned: 2 * minute))
        for t in 0...20 { off.sample(at: USec(t) * second, bpm: 130, contact: .detected) }
        for t in 21...25 { off.sample(at: USec(t) * second, bpm: nil, contact: .lost) }
        #expect(off.evaluate(at: 25 * second) == .runsToPlanned(reason: .sensorLost, sinceUSec: off.at(25 * second)))
    }

    @Test("heart rate below the target from the start: the minimum still holds")
    func alreadyBelowTarget() {
        var rest = RestOnClock(rule(planned: 2 * minute))
        let decisions = rest.samples(0...59) { _ in 100 }
        #expect(decisions.values.allSatisfy { $0 == .resting })
        #expect(rest.tracker.holdingSinceUSec == rest.at(0))
        #expect(rest.sample(at: 60 * second, bpm: 100) == .ended(.recovered, atUSec: rest.at(60 * second)))

        // Without a minimum only the hold remains.
        var quick = RestOnClock(rule(planned: 2 * minute, minimum: 0))
        #expect(quick.samples(0...9) { _ in 100 }.values.allSatisfy { $0 == .resting })
        #expect(quick.evaluate(at: 10 * second) == .ended(.recovered, atUSec: quick.at(10 * second)))
    }

    @Test(
        "each kind of target, meaning 120 bpm here, ends the rest at the same moment",
        arguments: [
            RecoveryTarget.absolute(bpm: 120),
            .shareOfMax(share: 0.6, maxBPM: 200),
            .shareOfReserve(share: 0.5, restingBPM: 60, maxBPM: 180),
            .drop(bpm: 30),  // from the peak of 150
        ])
    func eachTargetKind(target: RecoveryTarget) {
        var rest = RestOnClock(rule(target, planned: 2 * minute))
        // 150 for 20 s, then 1 bpm/s down: smoothed 172 − t from 23 s, 120 at 52 s.
        let decisions = rest.samples(0...62) { $0 <= 20 ? 150 : 170 - $0 }
        #expect(rest.tracker.peakBPM == 150)
        #expect(rest.tracker.thresholdBPM == 120)
        #expect(decisions[61] == .resting)
        #expect(decisions[62] == .ended(.recovered, atUSec: rest.at(62 * second)))
    }

    @Test("the peak is the highest smoothed value of the first 20 s; a drop target follows it")
    func peakWindow() {
        var rest = RestOnClock(rule(.drop(bpm: 30), planned: 2 * minute))
        #expect(rest.tracker.thresholdBPM == nil)
        rest.samples(0...19) { 140 + $0 }  // smoothed up to 157 at 19 s
        #expect(rest.tracker.peakBPM == 157)
        #expect(rest.tracker.thresholdBPM == 127)
        rest.samples(20...30) { _ in 170 }  // later, higher: not the peak any more
        #expect(rest.tracker.peakBPM == 157)
        #expect(rest.tracker.holdingSinceUSec == nil)
    }

    @Test("a strap with RR: its bpm decides; the beats are for RMSSD")
    func rrStrap() {
        var rest = RestOnClock(rule(planned: 2 * minute, minimum: 0))
        // The strap says 125; beats 500 ms apart would be 120, at the target.
        for t in 0...9 { rest.sample(at: USec(t) * second, bpm: 125, rr: [500, 500]) }
        #expect(rest.tracker.smoothedBPM(atUSec: rest.at(9 * second)) == 125)
        #expect(rest.evaluate(at: 10 * second) == .resting)
    }

    @Test("without heart rate at the start, recovery cannot end the rest from its start, and it asks for no wake-up")
    func noHeartRate() {
        var rest = RestOnClock(rule(planned: 2 * minute))
        let lost = RecoveryDecision.runsToPlanned(reason: .sensorLost, sinceUSec: rest.at(0))
        #expect(rest.evaluate(at: 0) == lost)
        #expect(rest.tracker.nextEvaluationUSec == nil)
        #expect(rest.evaluate(at: 90 * second) == lost)
        #expect(rest.evaluate(at: 2 * minute) == .ended(.sensorLost, atUSec: rest.at(2 * minute)))
        // The source's last sample 5 s before the start is too old to count.
        var stale = RestOnClock(rule(planned: 2 * minute), leadIn: [(5, 100)])
        #expect(stale.evaluate(at: 0) == lost)
        var fresh = RestOnClock(rule(planned: 2 * minute), leadIn: [(4.9, 100)])
        #expect(fresh.evaluate(at: 0) == .resting)
    }

    @Test("the strap's last seconds carry into the rest: the heart rate at the start, the hold from it")
    func leadIn() {
        var rest = RestOnClock(rule(planned: 2 * minute), leadIn: RestOnClock.steady(100))
        #expect(rest.tracker.holdingSinceUSec == rest.at(0))
        #expect(rest.tracker.peakBPM == 100)
        #expect(rest.tracker.smoothedBPM(atUSec: rest.at(0)) == 100)
        #expect(rest.tracker.nextEvaluationUSec == rest.at(4 * second))  // 5 s after the last sample
        rest.samples(0...59) { _ in 100 }
        #expect(rest.evaluate(at: 60 * second) == .ended(.recovered, atUSec: rest.at(60 * second)))
    }

    @Test("one stray value at the start does not become the peak: the set's steady 150 is")
    func strayValueAtTheStart() {
        var rest = RestOnClock(
            rule(.drop(bpm: 30), planned: 2 * minute, minimum: 0, hold: 5 * second), leadIn: RestOnClock.steady(150))
        #expect(rest.sample(at: 0, bpm: 190) == .resting)
        let decisions = rest.samples(1...119) { _ in 150 }
        #expect(rest.tracker.peakBPM == 150)
        #expect(rest.tracker.thresholdBPM == 120)
        #expect(decisions.values.allSatisfy { $0 == .resting })
        // Without the set's seconds the first values are not confirmed: a lone 190 sets nothing.
        var cold = RestOnClock(rule(.drop(bpm: 30), planned: 2 * minute, minimum: 0, hold: 5 * second))
        cold.sample(at: 0, bpm: 190)
        #expect(cold.tracker.peakBPM == nil)
        cold.samples(1...30) { _ in 150 }
        #expect(cold.tracker.peakBPM == 150)
    }

    @Test("with a strap, the next evaluation is never sooner than its next sample would come")
    func wakeupsFollowTheStrap() {
        var rest = RestOnClock(rule(planned: 2 * minute))
        for t in 0...114 {
            #expect(rest.sample(at: USec(t) * second, bpm: 130) == .resting)
            #expect(rest.tracker.nextEvaluationUSec == rest.at(USec(t + 5) * second))
        }
        // Within 5 s of the planned end there is nothing before the timer's own expiry.
        rest.sample(at: 115 * second, bpm: 130)
        #expect(rest.tracker.nextEvaluationUSec == nil)
    }

    @Test("a rest lengthened by hand runs to the new end; shortened below the minimum, the minimum shrinks")
    func replan() {
        var rest = RestOnClock(rule(planned: 60 * second, minimum: 30 * second))
        rest.samples(0...50) { _ in 130 }
        rest.tracker.replan(plannedUSec: 90 * second)
        #expect(rest.samples(51...89) { _ in 130 }.values.allSatisfy { $0 == .resting })
        #expect(rest.evaluate(at: 90 * second) == .ended(.planned, atUSec: rest.at(90 * second)))

        var short = RestOnClock(rule(planned: 2 * minute))
        short.samples(0...30) { _ in 100 }
        short.tracker.replan(plannedUSec: 40 * second)
        #expect(short.tracker.rule.minimumUSec == 40 * second)
        // Recovery and the planned end fall together: the heart rate was down, so it recovered.
        #expect(short.samples(31...40) { _ in 100 }[40] == .ended(.recovered, atUSec: short.at(40 * second)))
    }

    @Test("an ended rest stays ended; later samples and a new plan change nothing")
    func endedIsFinal() {
        var rest = RestOnClock(rule(planned: 2 * minute, minimum: 0))
        rest.samples(0...10) { _ in 100 }
        let ended = RecoveryDecision.ended(.recovered, atUSec: rest.at(10 * second))
        #expect(rest.evaluate(at: 10 * second) == ended)
        let points = rest.tracker.series.points.count
        rest.samples(11...20) { _ in 160 }
        rest.tracker.replan(plannedUSec: 5 * minute)
        #expect(rest.evaluate(at: 5 * minute) == ended)
        #expect(rest.tracker.series.points.count == points)
        #expect(rest.tracker.nextEvaluationUSec == nil)
    }

    @Test("the decisions do not depend on how often the tracker is asked")
    func evaluationFrequencyDoesNotMatter() {
        var random = SplitMix64(state: 27)
        for _ in 0..<40 {
            let seldom = RecoveryTracker(rule: rule(planned: 90 * second, minimum: 20 * second), startUSec: 0)
            var often = seldom
            var rarely = seldom
            var now: USec = 0
            while now < 100 * second {
                // Mostly a sample a second around the target; sometimes a long gap, or no contact.
                let gap = random.next() % 10 == 0 ? 2 * second + random.next() % (5 * second) : second
                let target = now + gap
                while now + 100_000 < target {
                    now += 100_000
                    _ = often.evaluate(nowUSec: now)
                }
                now = target
                let lost = random.next() % 40 == 0
                let sample = HeartSample(
                    atUSec: now, beatsPerMinute: lost ? nil : 110 + Int(random.next() % 20),
                    contact: lost ? .lost : .detected)
                often.add(sample)
                rarely.add(sample)
                #expect(often.evaluate(nowUSec: now) == rarely.evaluate(nowUSec: now))
                #expect(often.nextEvaluationUSec == rarely.nextEvaluationUSec)
            }
            #expect(often == rarely)
        }
    }
}
