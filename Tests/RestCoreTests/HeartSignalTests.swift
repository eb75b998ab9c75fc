import RestCore
import Testing

/// Smoothing and RR artefact rejection, sample by sample.
@Suite struct HeartSignalTests {
    typealias Beat = HeartSignal.Beat

    /// Adds samples and returns the last reading.
    @discardableResult
    static func feed(_ signal: inout HeartSignal, _ samples: [HeartSample]) -> HeartSignal.Reading? {
        var last: HeartSignal.Reading?
        for sample in samples { last = signal.add(sample) }
        return last
    }

    static func at(
        _ seconds: Double, _ bpm: Int?, rr: [Double] = [], contact: HeartRateMeasurement.Contact = .unsupported
    )
        -> HeartSample
    {
        HeartSample(atUSec: USec(seconds * 1_000_000), beatsPerMinute: bpm, rrMilliseconds: rr, contact: contact)
    }

    @Test("the median of the last 5 s of values, which one stray value cannot move, confirmed from 3 values on")
    func median() {
        var signal = HeartSignal()
        #expect(signal.add(Self.at(0, 100)) == HeartSignal.Reading(smoothedBPM: 100, confirmed: false))
        // An even count: the middle two's mean.
        #expect(signal.add(Self.at(1, 104)) == HeartSignal.Reading(smoothedBPM: 102, confirmed: false))
        // 100 104 180: 104, not their mean 128.
        #expect(signal.add(Self.at(2, 180)) == HeartSignal.Reading(smoothedBPM: 104, confirmed: true))
        #expect(signal.add(Self.at(3, 102))?.smoothedBPM == 103)  // 100 102 | 104 180
        #expect(signal.add(Self.at(4, 101))?.smoothedBPM == 102)  // 100 101 102 104 180
        // At 5 s the value of 0 s is 5 s old and out: 101 102 104 180 99 → 102.
        #expect(signal.add(Self.at(5, 99))?.smoothedBPM == 102)
        // At 9.9 s only 5 s (99) is in the window: two values, not confirmed.
        #expect(signal.add(Self.at(9.9, 130)) == HeartSignal.Reading(smoothedBPM: 114.5, confirmed: false))
    }

    @Test("a strap with RR: still the median of its bpm values; the beats are judged, and leave it alone")
    func beatsDoNotMoveTheHeartRate() {
        var signal = HeartSignal()
        #expect(signal.add(Self.at(0, 70, rr: [800]))?.smoothedBPM == 70)
        #expect(signal.add(Self.at(1, 72, rr: [820, 780]))?.smoothedBPM == 71)
        // An ectopic beat and its pause (both rejected) change nothing.
        let ectopic = signal.add(Self.at(2, 71, rr: [560, 1_040]))
        #expect(ectopic?.smoothedBPM == 71 && ectopic?.beats.map(\.accepted) == [false, false])
    }

    @Test("a producer far faster than a strap: the median of its last 64 values, however many came in 5 s")
    func windowIsBounded() {
        var signal = HeartSignal()
        // 100 values of 200 then 64 of 100, in 1.64 s: all of them would give 200.
        Self.feed(&signal, (0..<100).map { Self.at(Double($0) / 100, 200) })
        let last = Self.feed(&signal, (100..<164).map { Self.at(Double($0) / 100, 100) })
        #expect(last == HeartSignal.Reading(smoothedBPM: 100, confirmed: true))
    }

    @Test("between samples the value holds, and 5 s after the last valid one there is none")
    func staleness() {
        var signal = HeartSignal()
        signal.add(Self.at(10, 90))
        #expect(signal.smoothedBPM(atUSec: 10 * second) == 90)
        #expect(signal.smoothedBPM(atUSec: 15 * second - 1) == 90)
        #expect(signal.smoothedBPM(atUSec: 15 * second) == nil)
        #expect(signal.lastValidAtUSec == 10 * second)
    }

    @Test("RR intervals outside 300–2000 ms are rejected, the edges kept")
    func rrRange() {
        var fast = HeartSignal()  // seeded at 200 bpm: 300 ms
        #expect(fast.add(Self.at(0, 200, rr: [299, 300]))?.beats.map(\.accepted) == [false, true])
        var slow = HeartSignal()  // seeded at 30 bpm: 2000 ms
        #expect(slow.add(Self.at(0, 30, rr: [2_001, 2_000]))?.beats.map(\.accepted) == [false, true])
    }

    @Test("a beat more than 20 % from the mean of the last accepted beats is rejected, 20 % exactly kept")
    func twentyPercent() {
        for (rr, accepted) in [(1_200.0, true), (1_201, false), (800, true), (799, false)] {
            var signal = HeartSignal()
            // Five beats of 1000 ms after a seed of 60 bpm: the reference is 1000 ms.
            Self.feed(&signal, [Self.at(0, 60, rr: [1_000, 1_000, 1_000, 1_000, 1_000])])
            #expect(signal.add(Self.at(1, 60, rr: [rr]))?.beats.map(\.accepted) == [accepted], "\(rr)")
        }
    }

    @Test("the reference is the mean of the last five accepted beats, not the beat before")
    func referenceIsTheMeanOfFive() {
        // 1000 ×4 and 1150: the mean is 1030, so 1250 (21 % above it) goes, though it is 9 % from 1150.
        var signal = HeartSignal()
        #expect(
            Self.feed(&signal, [Self.at(0, 60, rr: [1_000, 1_000, 1_000, 1_000, 1_150])])?.beats.allSatisfy(\.accepted)
                == true)
        #expect(signal.add(Self.at(1, 60, rr: [1_250]))?.beats.map(\.accepted) == [false])
        // 1200 then 1000 ×5: the 1200 has left the reference (1000), so 1210 goes; with it (1033) it would pass.
        var older = HeartSignal()
        #expect(
            Self.feed(&older, [Self.at(0, 50, rr: [1_200, 1_000, 1_000, 1_000, 1_000, 1_000])])?.beats.allSatisfy(
                \.accepted) == true)
        #expect(older.add(Self.at(1, 50, rr: [1_210]))?.beats.map(\.accepted) == [false])
    }

    @Test("the first beat is judged against the strap's own bpm")
    func seededFromBPM() {
        var signal = HeartSignal()
        // 60 bpm: 1000 ms expected; 1300 is 30 % off.
        #expect(signal.add(Self.at(0, 60, rr: [1_300, 1_100]))?.beats.map(\.accepted) == [false, true])
    }

    @Test("an ectopic beat and its compensatory pause are rejected, and the next beat starts a new pair")
    func ectopicBeat() {
        var signal = HeartSignal()
        Self.feed(&signal, [Self.at(0, 75, rr: [800, 810]), Self.at(1, 75, rr: [790])])
        let reading = signal.add(Self.at(2, 75, rr: [560, 1_040, 800, 805]))
        #expect(
            reading?.beats == [
                Beat(rrMilliseconds: 560, accepted: false, followsAccepted: false),
                Beat(rrMilliseconds: 1_040, accepted: false, followsAccepted: false),
                Beat(rrMilliseconds: 800, accepted: true, followsAccepted: false),
                Beat(rrMilliseconds: 805, accepted: true, followsAccepted: true),
            ])
        // The heart rate is the strap's.
        #expect(reading?.smoothedBPM == 75)
    }

    @Test("three rejections in a row seed the reference again from the strap's bpm, so it cannot lock out")
    func reseedAfterThreeRejections() {
        var signal = HeartSignal()
        Self.feed(&signal, [Self.at(0, 60, rr: [1_000, 1_000, 1_000])])
        // The heart rate really went up (the strap says 86 bpm, 698 ms): three beats of 700 ms are
        // rejected against 1000 ms, then judged against 60000 / 86.
        let reading = signal.add(Self.at(1, 86, rr: [700, 700, 700, 700, 710]))
        #expect(reading?.beats.map(\.accepted) == [false, false, false, true, true])
        #expect(reading?.beats.map(\.followsAccepted) == [false, false, false, false, true])
    }

    @Test("after 5 s without an accepted beat the reference is seeded again")
    func reseedAfterGap() {
        var signal = HeartSignal()
        Self.feed(&signal, [Self.at(0, 60, rr: [1_000, 1_000])])
        // 4.9 s later the old reference still judges: 750 is 25 % from 1000.
        var soon = signal
        #expect(soon.add(Self.at(4.9, 80, rr: [750]))?.beats.map(\.accepted) == [false])
        // 5 s later it is gone; 750 matches the strap's 80 bpm, and pairs with nothing before it.
        #expect(
            signal.add(Self.at(5, 80, rr: [750]))?.beats
                == [Beat(rrMilliseconds: 750, accepted: true, followsAccepted: false)])
    }

    @Test("no skin contact counts as no sample: the value holds as through silence, and the beats start a new run")
    func contactLost() {
        var signal = HeartSignal()
        Self.feed(
            &signal,
            [Self.at(0, 60, rr: [1_000], contact: .detected), Self.at(1, 60, rr: [1_000], contact: .detected)])
        #expect(signal.add(Self.at(2, nil, rr: [300], contact: .lost)) == nil)
        #expect(signal.add(Self.at(2.5, 0)) == nil)  // no heart rate at all
        #expect(signal.smoothedBPM(atUSec: 2 * second) == 60)
        #expect(signal.lastValidAtUSec == 1 * second)
        // Back on the skin within 5 s: the window goes on (60 60 62), the beat pairs with nothing.
        let back = signal.add(Self.at(3, 62, rr: [1_000], contact: .detected))
        #expect(
            back
                == HeartSignal.Reading(
                    smoothedBPM: 60, confirmed: true,
                    beats: [Beat(rrMilliseconds: 1_000, accepted: true, followsAccepted: false)]))
        #expect(signal.smoothedBPM(atUSec: 8 * second - 1) == 60)
        #expect(signal.smoothedBPM(atUSec: 8 * second) == nil)
    }

    @Test("beats that do not account for the time since the last ones start a new run: some went missing")
    func gapStartsANewRun() {
        // One beat of 1000 ms a second: each pairs with the one before.
        var signal = HeartSignal()
        Self.feed(&signal, (0...3).map { Self.at(Double($0), 60, rr: [1_000]) })
        var continuous = signal
        #expect(continuous.add(Self.at(4, 60, rr: [1_000]))?.beats.map(\.followsAccepted) == [true])
        // Beats trail their notification by up to a second: 1.5 s unaccounted for still follows.
        var late = signal
        #expect(late.add(Self.at(5.5, 60, rr: [1_000]))?.beats.map(\.followsAccepted) == [true])
        // Notifications lost (a reconnect): 4 s for beats of 2 s.
        var gap = signal
        #expect(gap.add(Self.at(7, 60, rr: [1_000, 1_000]))?.beats.map(\.followsAccepted) == [false, true])
        // Without beats in between (under 60 bpm a notification may carry none), the time counts
        // from the last notification that had some.
        var slow = HeartSignal()
        Self.feed(&slow, [Self.at(0, 50, rr: [1_200]), Self.at(1, 50, rr: [1_200]), Self.at(2, 50)])
        #expect(slow.add(Self.at(3, 50, rr: [1_200, 1_200]))?.beats.map(\.followsAccepted) == [true, true])
    }

    @Test("a measurement's RR intervals are read exactly: 1024 units are 1000 ms")
    func fromMeasurement() {
        let sample = HeartSample(
            HeartRateMeasurement(beatsPerMinute: 72, contact: .detected, rrIntervals: [1_024, 812]), atUSec: 7)
        #expect(sample.rrMilliseconds == [1_000, 812_000.0 / 1_024])
        #expect(sample.beatsPerMinute == 72 && sample.contact == .detected && sample.atUSec == 7)
        #expect(sample.isValid)
        #expect(!HeartSample(HeartRateMeasurement(beatsPerMinute: nil, contact: .lost), atUSec: 7).isValid)
        #expect(!HeartSample(atUSec: 0, beatsPerMinute: 0).isValid)
        #expect(!HeartSample(atUSec: 0, beatsPerMinute: 251).isValid)
    }
}
