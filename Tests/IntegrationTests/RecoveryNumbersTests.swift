import DBusKit
import Foundation
import ProcessHarness
import RestProtocol
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The recovery numbers and decisions of real rests, through the real daemon: the mocked strap
/// of `HeartRateTests` plays a series in real time (a notification a second, as straps send), and
/// what restd made of it is read back with `restctl status`, `history` and `stats`. Each series
/// is one a coach can work out by hand; plateaus around the instants a number is read keep the
/// result the same whatever the machine's load does to the notifications' arrival.
// Real time: each series goes through BlueZ's mock, the bus and restd's timers a second a note.
@Suite("Recovery numbers through restd, with a mocked strap", .serialized, .tags(.realTime))
struct RecoveryNumbersTests {
    /// A minimum and a hold of 1 s, so that a rest is over as soon as the heart rate says so.
    static let quick = """
        [recovery]
        target = "120bpm"
        min = "1s"
        hold = "1s"
        """

    // MARK: Notifications

    /// A Heart Rate Measurement of `bpm`, without contact bits or RR intervals.
    static func bpm(_ value: UInt8) -> [UInt8] { [0x00, value] }

    /// A measurement from a strap that reports skin contact: detected, or lost (its value is 0).
    static func contact(_ value: UInt8, detected: Bool) -> [UInt8] { detected ? [0x06, value] : [0x04, 0] }

    /// A measurement of `bpm` with RR intervals in 1/1024 s.
    static func rr(_ value: UInt8, _ intervals: [UInt16]) -> [UInt8] {
        [0x10, value] + intervals.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    }

    /// One notification a second at whole seconds `seconds`.
    static func everySecond(_ seconds: ClosedRange<Int>, _ bytes: (Int) -> [UInt8]) -> [(at: Double, bytes: [UInt8])] {
        seconds.map { (Double($0), bytes($0)) }
    }

    /// Sends each of `notes` at its time, in seconds after `clock` started (one already due goes
    /// at once); stops early once `stop` says so.
    static func play(
        _ notes: [(at: Double, bytes: [UInt8])], on setup: HeartRateTests.Setup, strap: BluezMock.Strap,
        from clock: Stopwatch, stop: () -> Bool = { false }
    ) throws {
        for note in notes {
            let wait = note.at - clock.elapsed
            if wait > 0 { usleep(UInt32(wait * 1_000_000)) }
            if stop() { return }
            try setup.bluez.notify(strap, note.bytes)
        }
    }

    /// Plays `notes` from `clock` until the default timer's rest is over, and waits for its Expired.
    static func playUntilOver(
        _ notes: [(at: Double, bytes: [UInt8])], on setup: HeartRateTests.Setup, strap: BluezMock.Strap,
        from clock: Stopwatch
    ) throws {
        try play(notes, on: setup, strap: strap, from: clock) { setup.hasExpired() }
        try setup.waitForExpired()
    }

    /// The last set's record in `restctl history --json`, its rest's numbers among them.
    static func lastSet(_ bus: any BusEndpoint) throws -> [String: Any] {
        let result = restctl(bus, "history", "--json")
        let sets = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]], "\(result)")
        return try #require(sets.last, "\(result)")
    }

    /// `restctl stats --json` of the one exercise.
    static func stats(_ bus: any BusEndpoint) throws -> [String: Any] {
        let result = restctl(bus, "stats", "--json")
        let rows = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]], "\(result)")
        return try #require(rows.first, "\(result)")
    }

    /// Seconds from the rest's start to its end, from `restctl status --json`.
    static func restLength(_ status: [String: Any]) throws -> Double {
        let started = try #require(
            ISO8601DateFormatter.withFractions.date(from: status["started_at"] as? String ?? ""), "\(status)")
        let ended = try #require(
            ISO8601DateFormatter.withFractions.date(from: status["expired_at"] as? String ?? ""), "\(status)")
        return ended.timeIntervalSince(started)
    }

    /// restd's `[recovery]`: `target`, `min` and `hold` as given (nil: the default), then `more`.
    static func recovery(target: String? = nil, min: String, hold: String? = nil, more: String = "") -> String {
        var lines = ["[recovery]"]
        if let target { lines.append("target = \"\(target)\"") }
        lines.append("min = \"\(min)\"")
        if let hold { lines.append("hold = \"\(hold)\"") }
        return lines.joined(separator: "\n") + "\n" + more
    }

    /// restd on `config` with a strap connected, then `lead` notifications of `leadBytes` a second
    /// (the strap on during the set), then `restctl set --exercise EXERCISE --rest REST
    /// --until-recovered`; returns the clock started at the set.
    static func restUntilRecovered(
        config: String, lead: Int, _ leadBytes: [UInt8], exercise: String = "Squat", rest: String
    ) throws -> (HeartRateTests.Setup, BluezMock.Strap, Stopwatch) {
        let (setup, strap) = try RestUntilRecoveredTests.withStrap(config: config)
        let before = Stopwatch()
        let notes = lead > 0 ? everySecond(0...(lead - 1)) { _ in leadBytes } : []
        try play(notes, on: setup, strap: strap, from: before)
        if lead > 0 { usleep(500_000) }
        let set = restctl(setup.session, ["set", "--exercise", exercise, "--rest", rest, "--until-recovered"])
        #expect(set.succeeded, "\(set)")
        return (setup, strap, Stopwatch())
    }

    // MARK: The five wrong results

    @Test("HRR60 of a rest that ends on recovery at its minimum: the set's end minus 60 s later, also in stats")
    func hrr60OfARecoveredRest() throws {
        // The defaults (120 bpm, a minimum of 60 s, a hold of 10 s), a 2:00 maximum; 150 bpm
        // during the set and for 5 s after it, then −2 bpm/s down to 100 (at 29 s) and 100 on.
        let (setup, strap, clock) = try Self.restUntilRecovered(config: "", lead: 5, Self.bpm(150), rest: "2m")
        let series = Self.everySecond(0...64) { k in
            let bpm: Int = k < 5 ? 150 : max(150 - 2 * (k - 4), 100)
            return Self.bpm(UInt8(bpm))
        }
        try Self.playUntilOver(series, on: setup, strap: strap, from: clock)
        let status = try RestUntilRecoveredTests.status(setup)
        #expect(status["end_reason"] as? String == "recovered", "\(status)")
        #expect(abs(try Self.restLength(status) - 60) < 0.01, "recovered at the minimum: \(status)")

        // By hand: 150 when the set ended, 100 a minute later.
        let rest = try Self.lastSet(setup.session)
        #expect(rest["rest_hr_set_end"] as? Double == 150, "\(rest)")
        #expect(rest["rest_hr_60s"] as? Double == 100, "\(rest)")
        #expect(rest["rest_hrr60"] as? Double == 50, "\(rest)")
        // 120 reached at 19 s; the median of the last 5 s shows it 2 s later (give or take the
        // notifications' delivery on a busy machine).
        let toTarget = Double(rest["rest_time_to_target_usec"] as? Int ?? 0) / 1_000_000
        #expect((19...24).contains(toTarget), "\(rest)")
        let weeks = try #require(try Self.stats(setup.session)["hrr60_weeks"] as? [[String: Any]])
        #expect(weeks.count == 1 && weeks.first?["median_hrr60"] as? Double == 50, "\(weeks)")
    }

    @Test("one stray value at the rest's start does not become the peak of a drop target")
    func strayValueAtTheStart() throws {
        let config = Self.recovery(target: "-30bpm", min: "1s", hold: "3s")
        // 150 steadily during the set, one 190 as the rest starts, then 150 again: the heart
        // never dropped, and the rest must run its full 12 s.
        let (setup, strap, clock) = try Self.restUntilRecovered(
            config: config, lead: 5, Self.bpm(150), rest: "12")
        let series = [(at: 0.0, bytes: Self.bpm(190))] + Self.everySecond(1...13) { _ in Self.bpm(150) }
        try Self.play(series, on: setup, strap: strap, from: clock) { setup.hasExpired() }
        try setup.expectExpiredOnTime("default")
        let status = try RestUntilRecoveredTests.status(setup)
        #expect(status["end_reason"] as? String == "planned", "\(status)")
        let rest = try Self.lastSet(setup.session)
        #expect(rest["rest_hr_peak"] as? Double == 150, "\(rest)")
        #expect(rest["rest_time_to_target_usec"] is NSNull, "\(rest)")
    }

    @Test("time to a drop target counts from the peak, not from samples below it before it")
    func timeToDropTarget() throws {
        let config = Self.recovery(target: "-30bpm", min: "1s", hold: "1s")
        // 128 for 3 s, 160 from 3 s to 10 s (the peak), 125 from 11 s on: 125 is 35 below the
        // peak, and the median of the last 5 s first shows it at 13 s. The 128 before the peak
        // is not "30 below the peak": the peak had not come yet.
        let (setup, strap, clock) = try Self.restUntilRecovered(
            config: config, lead: 0, [], rest: "30")
        let series = Self.everySecond(0...29) { k in Self.bpm(k < 3 ? 128 : k <= 10 ? 160 : 125) }
        try Self.playUntilOver(series, on: setup, strap: strap, from: clock)
        #expect(try RestUntilRecoveredTests.status(setup)["end_reason"] as? String == "recovered")
        let rest = try Self.lastSet(setup.session)
        #expect(rest["rest_hr_peak"] as? Double == 160, "\(rest)")
        // 13 s, give or take the notifications' delivery; measured against the final peak with
        // the values before it, it was the first sample's time.
        let toTarget = Double(rest["rest_time_to_target_usec"] as? Int ?? 0) / 1_000_000
        #expect((11...16).contains(toTarget), "\(rest)")
    }

    @Test("a share target is rounded half up: 70 % of HRmax 175 is 123, and a heart at 123 recovers")
    func shareRoundsHalfUp() throws {
        let config = """
            [recovery]
            min = "1s"
            hold = "1s"
            hr_max = 175

            [exercises."Press"]
            recovery_target = "70%max"
            """
        let (setup, strap, clock) = try Self.restUntilRecovered(
            config: config, lead: 3, Self.bpm(123), exercise: "Press", rest: "12")
        try Self.playUntilOver(Self.everySecond(0...13) { _ in Self.bpm(123) }, on: setup, strap: strap, from: clock)
        let status = try RestUntilRecoveredTests.status(setup)
        #expect(status["end_reason"] as? String == "recovered", "\(status)")
        #expect(status["recovered_bpm"] as? Int == 123, "\(status)")
    }

    @Test("a rest that recovered while restd could not run is stamped when the hold completed, not when restd woke")
    func recoveredInstantAfterAStall() throws {
        let (setup, strap, _) = try Self.restUntilRecovered(
            config: Self.quick, lead: 3, Self.bpm(100), rest: "30")
        try setup.bluez.notify(strap, Self.bpm(101))
        try setup.waitForFieldsByGdbus(containing: "'heart_rate': <int64 101>")
        // restd stops before the hold is complete and runs again 4 s later, as after a suspend:
        // the heart rate was below the target all along, so the rest recovered 1 s in.
        kill(setup.restd.pid, SIGSTOP)
        usleep(4_000_000)
        kill(setup.restd.pid, SIGCONT)
        try setup.waitForExpired()
        let status = try RestUntilRecoveredTests.status(setup)
        #expect(status["end_reason"] as? String == "recovered", "\(status)")
        #expect(try Self.restLength(status) < 2, "\(status)")
        #expect(restctl(setup.session, "status").stdout.contains("recovered in 0:01"))
    }

    // MARK: The five choices

    @Test("a contact-lost flag mid-hold gets the same grace as silence: the hold goes on")
    func contactFlagIsLikeSilence() throws {
        let config = Self.recovery(target: "120bpm", min: "1s", hold: "4s")
        let (setup, strap, clock) = try Self.restUntilRecovered(
            config: config, lead: 3, Self.contact(100, detected: true), rest: "20")
        // 100 with contact throughout, but for one notification 2 s into the hold without it.
        let series = Self.everySecond(0...21) { k in Self.contact(100, detected: k != 2) }
        try Self.playUntilOver(series, on: setup, strap: strap, from: clock)
        let status = try RestUntilRecoveredTests.status(setup)
        #expect(status["end_reason"] as? String == "recovered", "\(status)")
        #expect(try Self.restLength(status) < 6, "\(status)")
    }

    @Test("a strap back after more than 5 s of silence: the rest may end on recovery again, and says so")
    func strapComesBack() throws {
        let config = Self.recovery(target: "120bpm", min: "1s", hold: "2s")
        let (setup, strap, clock) = try Self.restUntilRecovered(
            config: config, lead: 3, Self.bpm(140), rest: "40")
        try Self.play(Self.everySecond(0...1) { _ in Self.bpm(140) }, on: setup, strap: strap, from: clock)
        let lost = try setup.signals.waitFor("EndReason sensor_lost") {
            $0.member == "PropertiesChanged" && $0.changedProperties[TimerProperty.endReason] == .string("sensor_lost")
        }
        #expect(restctl(setup.session, "status").stdout.contains("heart rate lost: full rest"))
        // The strap fixed: 100 a second from now on.
        let back = Stopwatch()
        try Self.playUntilOver(Self.everySecond(0...30) { _ in Self.bpm(100) }, on: setup, strap: strap, from: back)
        let again = setup.signals.received.first {
            $0.member == "PropertiesChanged" && $0.changedProperties[TimerProperty.endReason] == .string("")
        }
        let lostAt = setup.signals.received.firstIndex { $0 === lost }
        let againAt = setup.signals.received.firstIndex { $0 === again }
        #expect(againAt != nil && againAt! > lostAt!, "EndReason back to \"\" after sensor_lost")
        let status = try RestUntilRecoveredTests.status(setup)
        #expect(status["end_reason"] as? String == "recovered", "\(status)")
        #expect(try Self.restLength(status) < 30, "\(status), after \(clock.elapsed) s")
    }

    @Test("one ectopic beat in a 30 s rest: RMSSD is still told, over the pairs it does not touch")
    func rmssdWithOneEctopicBeat() throws {
        let config = Self.recovery(target: "50bpm", min: "30s")
        // Two beats a notification, 512 and 532 (1/1024 s: 500 and 519.5 ms), all differences
        // 20/1024 s = 19.53 ms; at 15 s a premature beat and its pause (358 + 686, the same
        // 1044 in all): 2 rejections in about 60 beats, 3.3 %.
        let (setup, strap, clock) = try Self.restUntilRecovered(
            config: config, lead: 3, Self.rr(117, [512, 532]), rest: "30")
        let series = Self.everySecond(0...31) { k in Self.rr(117, k == 15 ? [358, 686] : [512, 532]) }
        try Self.play(series, on: setup, strap: strap, from: clock) { setup.hasExpired() }
        try setup.expectExpiredOnTime("default")
        let rest = try Self.lastSet(setup.session)
        let share = try #require(rest["rest_rmssd_rejected"] as? Double, "\(rest)")
        #expect(share > 0.01 && share <= 0.05, "\(rest)")
        // 19.53 ms, said to a tenth.
        #expect(rest["rest_rmssd_ms"] as? Double == 19.5, "\(rest)")
    }

    @Test("a reconnect under 5 s: the beats on either side of the gap are not a successive pair")
    func rrAcrossAReconnect() throws {
        let config = Self.recovery(target: "50bpm", min: "30s")
        // One beat of 1000 ms a second, then a reconnect, then one of 1099.6 ms every 1.1 s: every
        // successive difference is 0, and only a pair made across the gap would differ.
        let (setup, strap, clock) = try Self.restUntilRecovered(
            config: config, lead: 3, Self.rr(60, [1_024]), rest: "30")
        try Self.play(Self.everySecond(0...12) { _ in Self.rr(60, [1_024]) }, on: setup, strap: strap, from: clock)
        let gap = Stopwatch()
        try setup.bluez.setConnected(strap, false)
        try setup.bluez.setConnected(strap, true)
        try setup.waitForStartNotify(strap, count: 2)
        try #require(gap.elapsed < 3.5, "the reconnect took \(gap.elapsed) s: the gap would be 5 s or more")
        let after: [(at: Double, bytes: [UInt8])] = (0...20).map { (4 + 1.1 * Double($0), Self.rr(55, [1_126])) }
        try Self.play(after, on: setup, strap: strap, from: gap) { setup.hasExpired() }
        try setup.expectExpiredOnTime("default")
        let rest = try Self.lastSet(setup.session)
        #expect(rest["rest_rmssd_ms"] as? Double == 0, "\(rest)")
        #expect(rest["rest_rmssd_rejected"] as? Double == 0, "\(rest)")
    }

    @Test("a notification with an odd trailing byte keeps its heart rate; only the broken RR interval goes")
    func oddTrailingByte() throws {
        // 60 bpm, one RR interval of 1000 ms, and half of another.
        let broken: [UInt8] = [0x10, 60, 0x00, 0x04, 0x01]
        let (setup, strap, clock) = try Self.restUntilRecovered(
            config: Self.quick, lead: 3, broken, rest: "10")
        try setup.waitForFieldsByGdbus(containing: "'heart_rate': <int64 60>")
        try Self.playUntilOver(Self.everySecond(0...11) { _ in broken }, on: setup, strap: strap, from: clock)
        let status = try RestUntilRecoveredTests.status(setup)
        #expect(status["end_reason"] as? String == "recovered", "\(status)")
        #expect(status["recovered_bpm"] as? Int == 60, "\(status)")
    }

    // MARK: Without a strap

    @Test(
        "until recovered without any heart rate: set warns, and status says heart rate lost from the start to the end")
    func noHeartRateAtAll() throws {
        let daemon = try RunningDaemon(config: Self.quick)
        let set = daemon.run("set", "--exercise", "Squat", "--rest", "3", "--until-recovered")
        #expect(set.succeeded, "\(set)")
        #expect(set.stdout.contains("heart rate lost: full rest"), "\(set)")
        #expect(
            set.stderr.contains("restctl: no heart rate is coming in"), "\(set)")
        #expect(daemon.run("status").stdout.contains("heart rate lost: full rest"))
        try waitUntil("the rest over") { daemon.run("status").stdout.contains("expired") }
        let status = daemon.run("status")
        #expect(status.stdout.contains("heart rate lost: full rest"), "\(status)")
        // A plain rest says nothing of heart rate.
        let plain = daemon.run("set", "--rest", "3", "--no-until-recovered")
        #expect(plain.succeeded && !plain.stderr.contains("heart rate"), "\(plain)")
    }

    @Test("heart rate from Live.Update (restctl live) counts for recovery, as a strap's does")
    func liveHeartRateCounts() throws {
        let daemon = try RunningDaemon(config: Self.quick)
        #expect(daemon.run("live", "--heart-rate", "110").succeeded)
        let set = daemon.run("set", "--exercise", "Squat", "--rest", "20", "--until-recovered")
        #expect(set.succeeded && !set.stderr.contains("heart rate"), "\(set)")
        #expect(set.stdout.contains("until recovered"), "\(set)")
        try waitUntil("the rest over") {
            #expect(daemon.run("live", "--heart-rate", "110").succeeded)
            usleep(300_000)
            return daemon.run("status").stdout.contains("expired")
        }
        let status = daemon.run("status", "--json")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any], "\(status)")
        #expect(json["end_reason"] as? String == "recovered", "\(json)")
        #expect(json["recovered_bpm"] as? Int == 110, "\(json)")
    }
}
