import RestCore
import Testing

/// A rest that may end on recovery as the timers and the training rules see it: the rule a set's
/// rest gets from the configuration, the end reasons the book gives, and the targets as written.
@Suite struct RestUntilRecoveredTests {
    @Test("a set's rest gets its rule from the set, then the exercise, then [recovery]")
    func ruleFromSetExerciseAndDefaults() throws {
        var settings = TrainingSettings()
        settings.recovery = RecoverySettings(target: .bpm(115), holdUSec: 5 * second)
        settings.maxHeartRate = 190
        settings.exercises["squat"] = .init(
            restUSec: 3 * minute,
            recovery: RecoverySettings(untilRecovered: true, target: .shareOfMax(0.6), minimumUSec: 90 * second))
        settings.exercises["curl"] = .init(restUSec: 30 * second)
        var session = Session(settings)

        try session.run(.completeSet(tid("default"), SetInput(exercise: "Squat")))
        let squat = try #require(session.timers.timer(tid("default"))?.recovery)
        #expect(squat.target == .shareOfMax(share: 0.6, maxBPM: 190))
        #expect(squat.plannedUSec == 3 * minute && squat.minimumUSec == 90 * second && squat.holdUSec == 5 * second)

        // Not configured for curls: only when the set asks; the default minimum is min(60 s, planned).
        try session.run(.completeSet(tid("default"), SetInput(exercise: "Curl")))
        #expect(session.timers.timer(tid("default"))?.recovery == nil)
        try session.run(.completeSet(tid("default"), SetInput(exercise: "Curl", untilRecovered: true)))
        let curl = try #require(session.timers.timer(tid("default"))?.recovery)
        #expect(curl.target == .absolute(bpm: 115) && curl.minimumUSec == 30 * second)

        // The set's "no" wins over the exercise's "yes".
        try session.run(.completeSet(tid("default"), SetInput(exercise: "Squat", untilRecovered: false)))
        #expect(session.timers.timer(tid("default"))?.recovery == nil)
    }

    @Test("a share of the reserve without a resting heart rate is refused with a sentence")
    func reserveNeedsRestingHeartRate() {
        var settings = TrainingSettings()
        settings.recovery = RecoverySettings(untilRecovered: true, target: .shareOfReserve(0.5))
        settings.maxHeartRate = 190
        var session = Session(settings)
        #expect(
            throws: TimerError.invalidArgs(
                "the recovery target 50%reserve needs your HRmax and resting heart rate: set hr_max and resting_hr in "
                    + "[recovery] of config.toml")
        ) {
            try session.run(.completeSet(tid("default"), SetInput(exercise: "Squat")))
        }
        #expect(session.timers.timers.isEmpty)
    }

    @Test("each way a rest ends has its reason")
    func endReasons() throws {
        let clock = ManualTimeSource()
        let rule = try RecoveryRule(plannedUSec: 2 * minute)
        var book = TimerBook()
        let options = TimerOptions(recovery: rule)
        try book.commit(book.start(tid("a"), durationUSec: 2 * minute, options: options, now: clock.now()))
        try book.commit(book.start(tid("b"), durationUSec: 2 * minute, options: options, now: clock.now()))
        try book.commit(book.start(tid("c"), durationUSec: 2 * minute, options: options, now: clock.now()))
        try book.commit(book.start(tid("d"), durationUSec: 2 * minute, options: TimerOptions(), now: clock.now()))
        clock.advance(70 * second)

        let recovered = book.commit(book.endRecovered(tid("a"), heartRateBPM: 118, now: clock.now()))
        #expect(
            recovered.contains(
                .expired(id: tid("a"), deadlineUSec: clock.now().realtime, firedUSec: clock.now().realtime)))
        #expect(book.timer(tid("a"))?.endReason == .recovered && book.timer(tid("a"))?.recoveredBPM == 118)
        // Once over, recovery changes nothing; a timer without a rule is not ended by it.
        #expect(book.endRecovered(tid("a"), heartRateBPM: 110, now: clock.now()).isEmpty)
        #expect(book.endRecovered(tid("d"), heartRateBPM: 110, now: clock.now()).isEmpty)

        book.commit(book.recoveryLost(tid("b")))
        #expect(book.timer(tid("b"))?.endReason == .sensorLost && book.timer(tid("b"))?.state == .running)
        #expect(book.recoveryLost(tid("b")).isEmpty)
        try book.commit(book.skip(tid("c"), now: clock.now()))
        #expect(book.timer(tid("c"))?.endReason == .user)

        clock.advance(50 * second)
        book.commit(book.due(now: clock.now()))
        #expect(book.timer(tid("b"))?.endReason == .sensorLost && book.timer(tid("b"))?.state == .expired)
        #expect(book.timer(tid("d"))?.endReason == .planned)
        // A new run starts without a reason, with the rule planned for its length.
        try book.commit(book.adjust(tid("b"), deltaUSec: 30_000_000, now: clock.now()))
        #expect(book.timer(tid("b"))?.endReason == nil && book.timer(tid("b"))?.recovery?.plannedUSec == 30 * second)
    }

    @Test("a pause turns the rest into a plain timed rest; add and sub move its maximum")
    func pauseAndAdjust() throws {
        let clock = ManualTimeSource()
        var book = TimerBook()
        let rule = try RecoveryRule(plannedUSec: 2 * minute)
        try book.commit(
            book.start(tid("a"), durationUSec: 2 * minute, options: TimerOptions(recovery: rule), now: clock.now()))
        try book.commit(book.adjust(tid("a"), deltaUSec: -90_000_000, now: clock.now()))
        #expect(book.timer(tid("a"))?.recovery?.plannedUSec == 30 * second)
        #expect(book.timer(tid("a"))?.recovery?.minimumUSec == 30 * second)
        try book.commit(book.pause(tid("a"), now: clock.now()))
        #expect(book.timer(tid("a"))?.recovery == nil)
        try book.commit(book.adjust(tid("a"), deltaUSec: -30_000_000, now: clock.now()))
        #expect(book.timer(tid("a"))?.endReason == .user)
    }

    @Test(
        "targets as written",
        arguments: [
            ("120bpm", RecoverySettings.TargetSpec.bpm(120)), ("120 BPM", .bpm(120)), ("60%max", .shareOfMax(0.6)),
            ("62.5 % max", .shareOfMax(0.625)), ("50%reserve", .shareOfReserve(0.5)), ("-30bpm", .drop(30)),
        ])
    func targetsAsWritten(text: String, spec: RecoverySettings.TargetSpec) throws {
        #expect(try RecoverySettings.TargetSpec(parsing: text) == spec)
        #expect(try RecoverySettings.TargetSpec(parsing: spec.description) == spec)
    }

    @Test(
        "targets refused with a sentence",
        arguments: [
            ("120", "recovery target \"120\" is not one of \"120bpm\", \"60%max\", \"60%reserve\" or \"-30bpm\""),
            ("250bpm", "recovery target 250 bpm is out of range: give 30 to 220 bpm"),
            ("-2bpm", "recovery drop 2 bpm is out of range: give 5 to 100 bpm"),
            ("20%max", "recovery target \"20%max\" is out of range: give 30 % to 100 %"),
            ("x%max", "recovery target \"x%max\" is not one of \"120bpm\", \"60%max\", \"60%reserve\" or \"-30bpm\""),
        ])
    func targetsRefused(text: String, message: String) {
        #expect(throws: TimerError.invalidArgs(message)) { try RecoverySettings.TargetSpec(parsing: text) }
    }
}
