import RestCore
import Testing

/// The four kinds of target, the rule's defaults, and the sentences that refuse bad values.
@Suite struct RecoveryTargetTests {
    @Test(
        "each kind of target gives its threshold",
        arguments: [
            (RecoveryTarget.absolute(bpm: 120), nil, 120),
            (.absolute(bpm: 95), 160, 95),  // the peak does not matter
            (.shareOfMax(share: 0.6, maxBPM: 190), nil, 114),  // 0.6 × 190
            (.shareOfMax(share: 0.7, maxBPM: 170), nil, 119),  // 118.99999999999999 before rounding
            (.shareOfReserve(share: 0.6, restingBPM: 50, maxBPM: 190), nil, 134),  // 50 + 0.6 × 140
            (.shareOfReserve(share: 0.5, restingBPM: 61, maxBPM: 190), nil, 126),  // 61 + 64.5, rounded up
            (.shareOfMax(share: 0.7, maxBPM: 175), nil, 123),  // 122.5 (122.49999999999999 in floating point)
            (.shareOfReserve(share: 0.7, restingBPM: 50, maxBPM: 175), nil, 138),  // 50 + 87.5
            (.drop(bpm: 30), 152.5, 122.5),  // 152.5 − 30
            (.drop(bpm: 5), 100, 95),
        ] as [(RecoveryTarget, Double?, Double)])
    func thresholds(target: RecoveryTarget, peak: Double?, expected: Double) {
        #expect(target.thresholdBPM(peakBPM: peak) == expected)
    }

    @Test("every share a configuration can write, of every HRmax: percent × HRmax in integers, half up")
    func sharesRoundHalfUp() throws {
        for tenths in 300...1_000 {
            // As the configuration reads "70%max" or "62.5%max".
            let spec = try RecoverySettings.TargetSpec(parsing: "\(tenths / 10).\(tenths % 10)%max")
            guard case .shareOfMax(let share) = spec else { Issue.record("\(spec)"); return }
            for maxBPM in RecoveryTarget.bpmRange {
                let expected = (tenths * maxBPM + 500) / 1_000
                let threshold = RecoveryTarget.shareOfMax(share: share, maxBPM: maxBPM).thresholdBPM(peakBPM: nil)
                guard threshold == Double(expected) else {
                    Issue.record("\(tenths) ‰ of \(maxBPM): \(String(describing: threshold)), not \(expected)")
                    return
                }
            }
        }
    }

    @Test("a drop target has no threshold before there is a peak")
    func dropWithoutPeak() {
        #expect(RecoveryTarget.drop(bpm: 30).thresholdBPM(peakBPM: nil) == nil)
    }

    @Test("nothing configured: 120 bpm, and a drop of 30 bpm when only 'drop' is said")
    func defaults() {
        #expect(RecoveryTarget.standard == .absolute(bpm: 120))
        #expect(RecoveryTarget.defaultDropBPM == 30)
    }

    @Test(
        "the edges of every range are accepted",
        arguments: [
            RecoveryTarget.absolute(bpm: 30), .absolute(bpm: 220),
            .shareOfMax(share: 0.3, maxBPM: 30), .shareOfMax(share: 1.0, maxBPM: 220),
            .shareOfReserve(share: 0.3, restingBPM: 30, maxBPM: 31),
            .shareOfReserve(share: 1, restingBPM: 219, maxBPM: 220),
            .drop(bpm: 5), .drop(bpm: 100),
        ])
    func edgesAccepted(target: RecoveryTarget) throws {
        try target.validate()
    }

    @Test(
        "values outside are refused with one sentence naming them",
        arguments: [
            (RecoveryTarget.absolute(bpm: 29), "recovery target 29 bpm is out of range: give 30 to 220 bpm"),
            (.absolute(bpm: 221), "recovery target 221 bpm is out of range: give 30 to 220 bpm"),
            (.shareOfMax(share: 0.25, maxBPM: 190), "share 25 % of HRmax is out of range: give 30 % to 100 %"),
            (.shareOfMax(share: 1.005, maxBPM: 190), "share 100.5 % of HRmax is out of range: give 30 % to 100 %"),
            (.shareOfMax(share: .nan, maxBPM: 190), "the share of HRmax must be a finite number"),
            (.shareOfMax(share: 0.6, maxBPM: 250), "HRmax 250 bpm is out of range: give 30 to 220 bpm"),
            (
                .shareOfReserve(share: 0.6, restingBPM: 20, maxBPM: 190),
                "resting heart rate 20 bpm is out of range: give 30 to 220 bpm"
            ),
            (
                .shareOfReserve(share: 2, restingBPM: 50, maxBPM: 190),
                "share 200 % of heart-rate reserve is out of range: give 30 % to 100 %"
            ),
            (
                .shareOfReserve(share: 0.6, restingBPM: 190, maxBPM: 190),
                "resting heart rate 190 bpm is not below HRmax 190 bpm; a heart-rate reserve needs the resting heart rate lower"
            ),
            (.drop(bpm: 4), "recovery drop 4 bpm is out of range: give 5 to 100 bpm"),
            (.drop(bpm: 101), "recovery drop 101 bpm is out of range: give 5 to 100 bpm"),
        ] as [(RecoveryTarget, String)])
    func refused(target: RecoveryTarget, message: String) {
        #expect(thrown { try target.validate() } == .invalidArgs(message))
    }

    @Test func describesItself() {
        #expect(RecoveryTarget.absolute(bpm: 120).description == "120 bpm")
        #expect(RecoveryTarget.shareOfMax(share: 0.625, maxBPM: 190).description == "62.5 % of HRmax 190")
        #expect(
            RecoveryTarget.shareOfReserve(share: 0.6, restingBPM: 50, maxBPM: 190).description
                == "60 % of heart-rate reserve (resting 50, HRmax 190)")
        #expect(RecoveryTarget.drop(bpm: 30).description == "30 bpm below the peak")
    }

    @Test("end reasons carry the names the bus and the history use")
    func endReasonNames() {
        #expect(EndReason.allCases.map(\.rawValue) == ["recovered", "planned", "user", "sensor_lost"])
    }
}

@Suite struct RecoveryRuleTests {
    @Test("the minimum is 60 s, or the planned rest when that is shorter; the hold 10 s")
    func defaults() throws {
        let long = try RecoveryRule(plannedUSec: 3 * minute)
        #expect(long.target == .absolute(bpm: 120))
        #expect(long.minimumUSec == 60 * second)
        #expect(long.holdUSec == 10 * second)
        #expect(try RecoveryRule(plannedUSec: 45 * second).minimumUSec == 45 * second)
        #expect(try RecoveryRule(plannedUSec: 90 * second, minimumUSec: 0).minimumUSec == 0)
    }

    @Test func holdEdgesAccepted() throws {
        #expect(try RecoveryRule(plannedUSec: minute, holdUSec: second).holdUSec == second)
        #expect(try RecoveryRule(plannedUSec: minute, holdUSec: 5 * minute).holdUSec == 5 * minute)
        #expect(try RecoveryRule(plannedUSec: minute, minimumUSec: minute).minimumUSec == minute)
    }

    @Test(
        "bad values are refused with one sentence",
        arguments: [
            (second - 1, nil, "hold time 999.999 ms is out of range: give 1 s to 5 min"),
            (5 * minute + 1, nil, "hold time 5 min 0.000001 s is out of range: give 1 s to 5 min"),
            (
                10 * second, 2 * minute,
                "minimum rest 2 min is longer than the planned rest 1 min 30 s; give at most 1 min 30 s"
            ),
        ] as [(USec, USec?, String)])
    func refused(hold: USec, minimum: USec?, message: String) {
        #expect(
            thrown { _ = try RecoveryRule(plannedUSec: 90 * second, minimumUSec: minimum, holdUSec: hold) }
                == .invalidArgs(message))
    }

    @Test("a bad target is refused by the rule with the target's sentence")
    func badTarget() {
        #expect(
            thrown { _ = try RecoveryRule(target: .drop(bpm: 2), plannedUSec: minute) }
                == .invalidArgs("recovery drop 2 bpm is out of range: give 5 to 100 bpm"))
    }

    @Test("replanned shorter than the minimum, the minimum shrinks with it")
    func replanned() {
        let planned = rule(planned: 2 * minute, minimum: 60 * second)
        #expect(planned.replanned(3 * minute).minimumUSec == 60 * second)
        #expect(planned.replanned(3 * minute).plannedUSec == 3 * minute)
        #expect(planned.replanned(40 * second).minimumUSec == 40 * second)
        #expect(planned.replanned(40 * second).holdUSec == 10 * second)
    }
}
