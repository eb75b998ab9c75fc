import RestCore
import TestClock

/// One rest on the tests' hand-moved clock: samples are stamped with CLOCK_BOOTTIME as the
/// daemon stamps them, and every time in a test is written as an offset from the rest's start.
struct RestOnClock {
    let clock = ManualTimeSource()
    let start: USec
    var tracker: RecoveryTracker

    /// A rest of `rule` after the source's samples `leadIn` (seconds before the start, bpm).
    init(_ rule: RecoveryRule, leadIn: [(secondsBefore: Double, bpm: Int)] = []) {
        start = clock.now().boottime
        let start = start
        tracker = RecoveryTracker(
            rule: rule, startUSec: start,
            leadIn: leadIn.map {
                HeartSample(atUSec: start - USec($0.secondsBefore * 1_000_000), beatsPerMinute: $0.bpm)
            })
    }

    /// The strap steady at `bpm` for the 5 s before the start, a sample a second.
    static func steady(_ bpm: Int) -> [(secondsBefore: Double, bpm: Int)] {
        (1...5).reversed().map { (Double($0), bpm) }
    }

    /// `offset` after the start, as an absolute time.
    func at(_ offset: USec) -> USec { start + offset }

    /// Moves the clock forward to `offset` after the start.
    func move(to offset: USec) {
        let now = clock.now().boottime
        precondition(start + offset >= now, "the test's clock only moves forward")
        clock.advance(start + offset - now)
    }

    /// A sample at `offset`, then the decision at that moment.
    @discardableResult
    mutating func sample(
        at offset: USec, bpm: Int?, rr: [Double] = [], contact: HeartRateMeasurement.Contact = .unsupported
    ) -> RecoveryDecision {
        move(to: offset)
        let now = clock.now().boottime
        tracker.add(HeartSample(atUSec: now, beatsPerMinute: bpm, rrMilliseconds: rr, contact: contact))
        return tracker.evaluate(nowUSec: now)
    }

    /// One sample a second for whole seconds `seconds`, bpm by second (nil: no sample then);
    /// the decisions, by second.
    @discardableResult
    mutating func samples(_ seconds: ClosedRange<Int>, bpm: (Int) -> Int?) -> [Int: RecoveryDecision] {
        var decisions: [Int: RecoveryDecision] = [:]
        for whole in seconds {
            guard let value = bpm(whole) else { continue }
            decisions[whole] = sample(at: USec(whole) * second, bpm: value)
        }
        return decisions
    }

    /// The decision at `offset`, without a sample.
    mutating func evaluate(at offset: USec) -> RecoveryDecision {
        move(to: offset)
        return tracker.evaluate(nowUSec: clock.now().boottime)
    }
}

/// A rule the test knows to be valid.
func rule(
    _ target: RecoveryTarget = .standard, planned: USec, minimum: USec? = nil, hold: USec = 10 * second
) -> RecoveryRule {
    do {
        return try RecoveryRule(target: target, plannedUSec: planned, minimumUSec: minimum, holdUSec: hold)
    } catch {
        fatalError("test rule is invalid: \(error)")
    }
}
