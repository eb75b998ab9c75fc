import RestCore
import Testing

/// A followed rest's heart rate as the history keeps it: one byte a second from the start, by
/// the rule the metrics use (the last sample at or before the second, if under 5 s old).
@Suite struct HeartRateTraceTests {
    @Test func oneValueASecondUnknownWhereTheStrapWasSilent() {
        // A target the rest never reaches, so that it is still followed when the strap is back.
        var rest = RestOnClock(rule(.absolute(bpm: 90), planned: 180 * second, minimum: 5 * second, hold: 3 * second))
        // 150 bpm for 11 s, nothing for 10 s (the strap counts as lost), then 100 bpm.
        rest.samples(0...10) { _ in 150 }
        let decisions = rest.samples(21...30) { _ in 100 }
        if case .ended = decisions[30] { Issue.record("the rest ended at \(decisions[30])") }
        let trace = HeartRateTrace(
            setID: 7, startedAtUSec: 1_000, tracker: rest.tracker, endUSec: rest.at(30 * second + 400_000),
            ending: .sensorLost)
        #expect(trace.bpm.count == 31)
        // Seconds 11 to 14 still have the last value (under 5 s old); 15 to 20 none.
        #expect(trace.bpm[0...14].allSatisfy { $0 == 150 })
        #expect(trace.bpm[15...20].allSatisfy { $0 == 0 })
        #expect(trace.bpm[21...30].allSatisfy { $0 == 100 })
        #expect(trace.setID == 7 && trace.startedAtUSec == 1_000 && trace.ending == .sensorLost)
        #expect(trace.targetBPM == 90 && trace.minimumUSec == 5 * second && trace.holdUSec == 3 * second)
        #expect(trace.endedAfterUSec == 30 * second + 400_000)
    }

    @Test func aDropTargetIsTheTargetFromThePeak() {
        var rest = RestOnClock(rule(.drop(bpm: 30), planned: 60 * second, minimum: 1 * second, hold: 1 * second))
        rest.samples(0...3) { 160 - $0 }
        let trace = HeartRateTrace(
            setID: 1, startedAtUSec: 0, tracker: rest.tracker, endUSec: rest.at(3 * second + 500_000), ending: .user)
        #expect(trace.targetBPM == rest.tracker.thresholdBPM && trace.targetBPM != nil)
        #expect(trace.bpm.count == 4 && trace.bpm.allSatisfy { $0 > 0 })
        // Without any sample there is nothing to say, second by second.
        let silent = RestOnClock(rule(.absolute(bpm: 120), planned: 60 * second))
        let empty = HeartRateTrace(
            setID: 2, startedAtUSec: 0, tracker: silent.tracker, endUSec: silent.at(2 * second), ending: .set)
        #expect(empty.bpm == [0, 0, 0] && empty.targetBPM == 120)
    }
}
