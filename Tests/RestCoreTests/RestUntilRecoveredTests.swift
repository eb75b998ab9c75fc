import RestCore
import TestClock
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

    @Test("without heart rate coming in, a run that may end on recovery starts marked sensor_lost; nothing else does")
    func startingWithoutHeartRate() throws {
        var settings = TrainingSettings()
        settings.recovery = RecoverySettings(untilRecovered: true)
        var session = Session(settings)
        let now = session.clock.now()
        /// `change` planned at `at` with heart rate coming in, and without.
        func planned(_ command: Command, at: Instant) throws -> (with: ChangePlan, without: ChangePlan) {
            let change = Change.command(command)
            let facts = HistoryFacts(exercises: [:])
            return (
                try session.books.plan(change, facts: facts, heartRateComingIn: true, now: at),
                try session.books.plan(change, facts: facts, heartRateComingIn: false, now: at)
            )
        }
        let plan = try planned(.completeSet(tid("default"), SetInput(exercise: "Squat")), at: now)
        guard case .added(let timer)? = plan.without.events.first else {
            Issue.record("\(plan.without.events)")
            return
        }
        #expect(timer.endReason == .sensorLost && timer.state == .running && timer.recovery != nil)
        #expect(plan.without.history == plan.with.history)
        // A plain rest, and a rest already running (its run started before now), stay as they are.
        try session.run(.completeSet(tid("default"), SetInput(exercise: "Squat", untilRecovered: false)))
        let plain = try planned(
            .completeSet(tid("default"), SetInput(exercise: "Squat", untilRecovered: false)), at: now)
        #expect(plain.without == plain.with)
        try session.run(.completeSet(tid("default"), SetInput(exercise: "Squat")))
        session.clock.advance(10 * second)
        let added = try planned(.timer(.adjust(tid("default"), deltaUSec: 30_000_000)), at: session.clock.now())
        #expect(added.without == added.with)
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

    /// A book with these rests started now, each ending on recovery by `rule` where `recovery`.
    private func startingRests(
        _ rests: [(id: String, usec: USec, recovery: Bool)], rule: RecoveryRule, clock: ManualTimeSource
    ) throws -> TimerBook {
        var book = TimerBook()
        for rest in rests {
            let options = rest.recovery ? TimerOptions(recovery: rule) : TimerOptions()
            try book.commit(book.start(tid(rest.id), durationUSec: rest.usec, options: options, now: clock.now()))
        }
        return book
    }

    @Test("each way a rest ends has its reason")
    func endReasons() throws {
        let clock = ManualTimeSource()
        let rule = try RecoveryRule(plannedUSec: 2 * minute)
        var book = try startingRests(
            [("a", 2 * minute, true), ("b", 2 * minute, true), ("c", 2 * minute, true), ("d", 2 * minute, false)],
            rule: rule, clock: clock)
        clock.advance(70 * second)

        // Recovered 3 s ago (restd woke up late): stamped then, told now.
        let now = clock.now()
        let recovered = book.commit(
            book.endRecovered(tid("a"), heartRateBPM: 118, atBoottimeUSec: now.boottime - 3 * second, now: now))
        #expect(
            recovered.contains(
                .expired(id: tid("a"), deadlineUSec: now.realtime - 3 * second, firedUSec: now.realtime)))
        #expect(book.timer(tid("a"))?.endReason == .recovered && book.timer(tid("a"))?.recoveredBPM == 118)
        #expect(book.timer(tid("a"))?.expiredAtUSec == now.realtime - 3 * second)
        // Once over, recovery changes nothing; a timer without a rule is not ended by it.
        #expect(book.endRecovered(tid("a"), heartRateBPM: 110, atBoottimeUSec: now.boottime, now: now).isEmpty)
        #expect(book.endRecovered(tid("d"), heartRateBPM: 110, atBoottimeUSec: now.boottime, now: now).isEmpty)

        book.commit(book.recoveryLost(tid("b")))
        #expect(book.timer(tid("b"))?.endReason == .sensorLost && book.timer(tid("b"))?.state == .running)
        #expect(book.recoveryLost(tid("b")).isEmpty)
        // The strap back: unmarked, and marked again when it goes.
        book.commit(book.recoveryRegained(tid("b")))
        #expect(book.timer(tid("b"))?.endReason == nil && book.timer(tid("b"))?.state == .running)
        #expect(book.recoveryRegained(tid("b")).isEmpty)
        #expect(book.recoveryRegained(tid("d")).isEmpty)
        book.commit(book.recoveryLost(tid("b")))
        try book.commit(book.skip(tid("c"), now: clock.now()))
        #expect(book.timer(tid("c"))?.endReason == .user)

        clock.advance(50 * second)
        book.commit(book.due(now: clock.now()))
        #expect(book.timer(tid("b"))?.endReason == .sensorLost && book.timer(tid("b"))?.state == .expired)
        #expect(book.timer(tid("d"))?.endReason == .planned)
        // A new run starts without a reason; time added to a rest that is over is a plain timed
        // rest (a recovered heart rate would end it again at once), a restart keeps the rule.
        try book.commit(book.adjust(tid("b"), deltaUSec: 30_000_000, now: clock.now()))
        #expect(book.timer(tid("b"))?.endReason == nil && book.timer(tid("b"))?.recovery == nil)
        try book.commit(book.adjust(tid("a"), deltaUSec: 60_000_000, now: clock.now()))
        #expect(book.timer(tid("a"))?.state == .running && book.timer(tid("a"))?.recovery == nil)
        try book.commit(book.restart(tid("c"), now: clock.now()))
        #expect(book.timer(tid("c"))?.endReason == nil && book.timer(tid("c"))?.recovery?.plannedUSec == 2 * minute)
    }

    @Test("a lost strap is planned with what is due: one change per rest, the expiry says sensor_lost")
    func lostPlannedWithDue() throws {
        let clock = ManualTimeSource()
        let rule = try RecoveryRule(plannedUSec: 10 * second)
        var book = try startingRests([("a", 10 * second, true), ("b", 2 * minute, true)], rule: rule, clock: clock)
        clock.advance(10 * second)
        let running = try #require(book.timer(tid("a")))

        // A command's pass: the expiring rest ends as sensor_lost, the other is left unmarked.
        let forCommand = book.due(now: clock.now(), recoveryLost: [tid("a"), tid("b")], marksRunning: false)
        #expect(forCommand.count == 2 && forCommand.allSatisfy { $0.timerID == tid("a") }, "\(forCommand)")
        guard case .changed(let from, let to) = forCommand.first else {
            Issue.record("\(forCommand)")
            return
        }
        #expect(from == running && to.state == .expired && to.endReason == .sensorLost)
        // The wake-up's pass marks the one that runs on too, in the same plan.
        let events = book.commit(book.due(now: clock.now(), recoveryLost: [tid("a"), tid("b")]))
        #expect(events.count == 3, "\(events)")
        #expect(book.timer(tid("a"))?.endReason == .sensorLost && book.timer(tid("a"))?.state == .expired)
        #expect(book.timer(tid("b"))?.endReason == .sensorLost && book.timer(tid("b"))?.state == .running)
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

/// Stats of recovery per exercise: the median time to the target, and HRR60 week by week.
@Suite struct RecoveryStatsTests {
    @Test("weeks start on a local Monday at midnight, within the week before")
    func weeksStartOnMonday() throws {
        for day in 0..<15 {
            let instant = testEpoch + USec(day) * 86_400_000_000 + 13 * hour
            let start = LocalCalendar.startOfWeek(containing: instant)
            let parts = try #require(LocalCalendar.parts(of: start))
            #expect(parts.hour == 0 && parts.minute == 0 && start <= instant)
            #expect(Self.weekday(parts.year, parts.month, parts.day) == 0, "\(parts.dateText) is not a Monday")
            #expect(instant - start < 8 * 86_400_000_000)
            // Monday: the day before is in another week, and six days later is still in this one.
            #expect(LocalCalendar.startOfWeek(containing: start - 1) < start)
            #expect(LocalCalendar.startOfWeek(containing: start + 6 * 86_400_000_000 + 12 * hour) == start)
        }
    }

    @Test("the civil weekday the Monday check uses")
    func weekdayOfACivilDate() {
        #expect(Self.weekday(1970, 1, 1) == 3 && Self.weekday(2024, 1, 1) == 0 && Self.weekday(2000, 2, 29) == 1)
    }

    /// The day of the week of a civil date, 0 for Monday, by arithmetic alone (Hinnant's
    /// days_from_civil; 1970-01-01 was a Thursday): independent of the calendar under test.
    static func weekday(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return ((days % 7) + 7 + 3) % 7
    }

    @Test("followed rests give the median time to target and HRR60 by week; others count for nothing")
    func recoveryPerExercise() {
        let week1 = LocalCalendar.startOfWeek(containing: testEpoch)
        let week2 = LocalCalendar.startOfWeek(containing: week1 + 8 * 86_400_000_000)
        func row(_ at: USec, toTarget: USec?, hrr60: Double?) -> StatsRow {
            StatsRow(
                exerciseKey: "squat", exercise: "Squat", plannedUSec: 3 * minute, takenUSec: 70 * second,
                outcome: .completed,
                recovery: RecoveryStatsInput(startedAtUSec: at, timeToTargetUSec: toTarget, hrr60BPM: hrr60))
        }
        let stats = ExerciseStats.compute([
            row(week2 + hour, toTarget: 50 * second, hrr60: 30),
            row(week1 + hour, toTarget: 70 * second, hrr60: 20),
            row(week1 + 2 * hour, toTarget: nil, hrr60: 25),
            row(week1 + 3 * hour, toTarget: 90 * second, hrr60: nil),
            StatsRow(
                exerciseKey: "squat", exercise: "Squat", plannedUSec: 3 * minute, takenUSec: 3 * minute,
                outcome: .completed),
        ])
        #expect(stats.count == 1)
        #expect(stats[0].recoveryRests == 4 && stats[0].rests == 5)
        #expect(stats[0].medianTimeToTargetUSec == 70 * second)
        #expect(
            stats[0].hrr60Weeks == [
                .init(weekStartAtUSec: week1, medianBPM: 22.5, rests: 2),
                .init(weekStartAtUSec: week2, medianBPM: 30, rests: 1),
            ])
    }
}
