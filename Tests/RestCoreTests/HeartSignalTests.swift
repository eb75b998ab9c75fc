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

    @Test("a strap without RR: the median of the last 5 s of values, which one stray value cannot move")
    func medianWithoutRR() {
        var signal = HeartSignal()
        #expect(signal.add(Self.at(0, 100)).smoothedBPM == 100)
        #expect(signal.add(Self.at(1, 104)).smoothedBPM == 102)  // even count: the middle two's mean
        #expect(signal.add(Self.at(2, 180)).smoothedBPM == 104)  // 100 104 180; their mean would be 128
        #expect(signal.add(Self.at(3, 102)).smoothedBPM == 103)  // 100 102 | 104 180
        #expect(signal.add(Self.at(4, 101)).smoothedBPM == 102)  // 100 101 102 104 180
        // At 5 s the value of 0 s is 5 s old and out: 101 102 104 180 99 → 102.
        #expect(signal.add(Self.at(5, 99)).smoothedBPM == 102)
        // At 9.9 s only 5 s (99) is in the window.
        #expect(signal.add(Self.at(9.9, 130)).smoothedBPM == 114.5)
    }

    @Test("a strap with RR: 60000 / mean of the accepted intervals of the last 5 s, whatever its bpm says")
    func heartRateFromRR() {
        var signal = HeartSignal()
        // The strap's own bpm lags behind its beats; the beats are what happened.
        #expect(signal.add(Self.at(0, 70, rr: [800])).smoothedBPM == 75)
        #expect(signal.add(Self.at(1, 70, rr: [820, 780])).smoothedBPM == 75)  // mean 800
        #expect(signal.add(Self.at(2, 71, rr: [])).smoothedBPM == 75)  // a second without a beat
        #expect(signal.add(Self.at(3, 72, rr: [750])).smoothedBPM == 60_000 / 787.5)
        // At 6 s the beats of 0 s and 1 s are out of the window: 750, 760.
        #expect(signal.add(Self.at(6, 72, rr: [760])).smoothedBPM == 60_000 / 755.0)
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
        #expect(fast.add(Self.at(0, 200, rr: [299, 300])).beats.map(\.accepted) == [false, true])
        var slow = HeartSignal()  // seeded at 30 bpm: 2000 ms
        #expect(slow.add(Self.at(0, 30, rr: [2_001, 2_000])).beats.map(\.accepted) == [false, true])
    }

    @Test("a beat more than 20 % from the mean of the last accepted beats is rejected, 20 % exactly kept")
    func twentyPercent() {
        for (rr, accepted) in [(1_200.0, true), (1_201, false), (800, true), (799, false)] {
            var signal = HeartSignal()
            // Five beats of 1000 ms after a seed of 60 bpm: the reference is 1000 ms.
            Self.feed(&signal, [Self.at(0, 60, rr: [1_000, 1_000, 1_000, 1_000, 1_000])])
            #expect(signal.add(Self.at(1, 60, rr: [rr])).beats.map(\.accepted) == [accepted], "\(rr)")
        }
    }

    @Test("the reference is the mean of the last five accepted beats, not the beat before")
    func referenceIsTheMeanOfFive() {
        // 1000 ×4 and 1150: the mean is 1030, so 1250 (21 % above it) goes, though it is 9 % from 1150.
        var signal = HeartSignal()
        #expect(
            Self.feed(&signal, [Self.at(0, 60, rr: [1_000, 1_000, 1_000, 1_000, 1_150])])?.beats.allSatisfy(\.accepted)
                == true)
        #expect(signal.add(Self.at(1, 60, rr: [1_250])).beats.map(\.accepted) == [false])
        // 1200 then 1000 ×5: the 1200 has left the reference (1000), so 1210 goes; with it (1033) it would pass.
        var older = HeartSignal()
        #expect(
            Self.feed(&older, [Self.at(0, 50, rr: [1_200, 1_000, 1_000, 1_000, 1_000, 1_000])])?.beats.allSatisfy(
                \.accepted) == true)
        #expect(older.add(Self.at(1, 50, rr: [1_210])).beats.map(\.accepted) == [false])
    }

    @Test("the first beat is judged against the strap's own bpm")
    func seededFromBPM() {
        var signal = HeartSignal()
        // 60 bpm: 1000 ms expected; 1300 is 30 % off.
        #expect(signal.add(Self.at(0, 60, rr: [1_300, 1_100])).beats.map(\.accepted) == [false, true])
    }

    @Test("an ectopic beat and its compensatory pause are rejected, and the next beat starts a new pair")
    func ectopicBeat() {
        var signal = HeartSignal()
        Self.feed(&signal, [Self.at(0, 75, rr: [800, 810]), Self.at(1, 75, rr: [790])])
        let reading = signal.add(Self.at(2, 75, rr: [560, 1_040, 800, 805]))
        #expect(
            reading.beats == [
                Beat(rrMilliseconds: 560, accepted: false, followsAccepted: false),
                Beat(rrMilliseconds: 1_040, accepted: false, followsAccepted: false),
                Beat(rrMilliseconds: 800, accepted: true, followsAccepted: false),
                Beat(rrMilliseconds: 805, accepted: true, followsAccepted: true),
            ])
        // The heart rate comes from the accepted beats only: 800 810 790 800 805.
        #expect(reading.smoothedBPM == 60_000 / 801.0)
    }

    @Test("three rejections in a row seed the reference again from the strap's bpm, so it cannot lock out")
    func reseedAfterThreeRejections() {
        var signal = HeartSignal()
        Self.feed(&signal, [Self.at(0, 60, rr: [1_000, 1_000, 1_000])])
        // The heart rate really went up (the strap says 86 bpm, 698 ms): three beats of 700 ms are
        // rejected against 1000 ms, then judged against 60000 / 86.
        let reading = signal.add(Self.at(1, 86, rr: [700, 700, 700, 700, 710]))
        #expect(reading.beats.map(\.accepted) == [false, false, false, true, true])
        #expect(reading.beats.map(\.followsAccepted) == [false, false, false, false, true])
    }

    @Test("after 5 s without an accepted beat the reference is seeded again")
    func reseedAfterGap() {
        var signal = HeartSignal()
        Self.feed(&signal, [Self.at(0, 60, rr: [1_000, 1_000])])
        // 4.9 s later the old reference still judges: 750 is 25 % from 1000.
        var soon = signal
        #expect(soon.add(Self.at(4.9, 80, rr: [750])).beats.map(\.accepted) == [false])
        // 5 s later it is gone; 750 matches the strap's 80 bpm, and pairs with nothing before it.
        #expect(
            signal.add(Self.at(5, 80, rr: [750])).beats
                == [Beat(rrMilliseconds: 750, accepted: true, followsAccepted: false)])
    }

    @Test("no skin contact: no heart rate, no beats judged, and what came before is forgotten")
    func contactLost() {
        var signal = HeartSignal()
        Self.feed(&signal, [Self.at(0, 140, contact: .detected), Self.at(1, 140, contact: .detected)])
        let lost = signal.add(Self.at(2, nil, rr: [300], contact: .lost))
        #expect(lost == HeartSignal.Reading(smoothedBPM: nil, beats: []))
        #expect(signal.smoothedBPM(atUSec: 2 * second) == nil)
        // Back on the skin: only the new value counts, not the 140s of 1 s before.
        #expect(signal.add(Self.at(3, 100, contact: .detected)).smoothedBPM == 100)
        #expect(signal.lastValidAtUSec == 3 * second)
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
