import Foundation
import ProcessHarness
import RestClient
import RestProtocol
import Testing

/// Resting until recovered through the real daemon: the mocked BlueZ strap of `HeartRateTests`
/// (python-dbusmock on a private system bus) feeds restd, `restctl set --until-recovered` starts
/// the rest, and the rest's end is read back from restd (`Expired`, `restctl status --json`).
/// A minimum and a hold of 1 s (config.toml) keep each test within seconds; every wait is on a
/// condition, none on a fixed time.
@Suite("Resting until recovered, with a mocked strap", .serialized)
struct RestUntilRecoveredTests {
    static let config = """
        [recovery]
        target = "120bpm"
        min = "1s"
        hold = "1s"
        """

    /// `restctl status --json` of the default timer, parsed.
    static func status(_ setup: HeartRateTests.Setup) throws -> [String: Any] {
        let result = restctl(setup.session, "status", "--json")
        guard result.succeeded else { throw HarnessError.failed("restctl status --json: \(result)") }
        return try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result)")
    }

    /// A strap connected and subscribed before anything else happens; `beforeRestd` runs before
    /// restd starts (a notification server, say).
    static func withStrap(
        config: String = config, beforeRestd: (HeartRateTests.Setup) throws -> Void = { _ in }
    ) throws -> (HeartRateTests.Setup, BluezMock.Strap) {
        let setup = try HeartRateTests.Setup(config: config, startRestd: false)
        try beforeRestd(setup)
        try setup.startRestd(environment: ["LC_ALL": "C.UTF-8"])
        let strap = try setup.bluez.addStrap(
            address: HeartRateTests.polar.address, alias: HeartRateTests.polar.alias, connected: true)
        try setup.waitForStartNotify(strap)
        return (setup, strap)
    }

    @Test("heart rate at or below the target for the hold, after the minimum: the rest ends as recovered")
    func endsAsRecovered() throws {
        var calls: MockCalls?
        var server: NotificationServer?
        let (setup, strap) = try Self.withStrap(config: Self.config + "\n[mpris]\nenabled = true\n") { setup in
            calls = try MockCalls(bus: setup.session)
            server = try NotificationServer(bus: setup.session)
        }
        defer { server?.kill() }
        // The strap on during the set: 150 bpm as it ends.
        for _ in 0..<3 { try setup.bluez.notify(strap, [0x00, 150]) }
        try setup.waitForFieldsByGdbus(containing: "'heart_rate': <int64 150>")
        let set = restctl(setup.session, "set", "--exercise", "Squat", "--rest", "2m", "--until-recovered")
        #expect(set.succeeded && set.stderr.isEmpty, "\(set)")
        #expect(try Self.status(setup)["until_recovered"] as? Bool == true)
        #expect(restctl(setup.session, "status").stdout.contains("until recovered"))

        // Then below the target: the median of the last 5 s falls to 100 bpm.
        for _ in 0..<5 { try setup.bluez.notify(strap, [0x00, 100]) }
        let expired = try setup.waitForExpired()
        let arguments = expired.arguments()
        let status = try Self.status(setup)
        #expect(status["state"] as? String == "expired")
        #expect(status["end_reason"] as? String == "recovered")
        #expect(status["recovered_bpm"] as? Int == 100)
        // Over long before the planned 2 minutes.
        let startedAt = try #require(
            ISO8601DateFormatter.withFractions.date(from: status["started_at"] as? String ?? ""))
        let endedAt = Date(timeIntervalSince1970: Double(arguments[2].uint64 ?? 0) / 1_000_000)
        #expect(endedAt.timeIntervalSince(startedAt) < 60, "ended \(endedAt), started \(startedAt)")
        #expect(restctl(setup.session, "status").stdout.contains("recovered in 0:0"))
        // "Rest over" says how long it took and the heart rate then.
        let notify = try #require(try calls?.waitFor("Notify").first)
        #expect(notify.summary == "Rest over")
        let body = notify.body ?? ""
        #expect(body.hasPrefix("Squat · Recovered in 0:0") && body.hasSuffix(" — ♥100"), "\(body)")
        // The bars and the media controls say it too.
        let bar = try WatchProcess(bus: setup.session, arguments: ["--format", "polybar"])
        try bar.waitForLine { $0.contains(" recovered in 0:0") && $0.contains("♥100 Squat") }
        bar.stop()
        try waitUntil("MPRIS metadata with the end reason") {
            playerctl(setup.session, "metadata", "restd:endReason").output == "recovered"
        }
        try setup.restd.waitForLog(containing: "the rest of timer \"default\" ended on recovery at 100 bpm")
        // Stored when the rest ended, not at the next set: the history has the numbers at once
        // (the expiry's own transaction, written before restd reads the next call).
        let atEnd = restctl(setup.session, "history", "--json")
        let ended = try #require(
            (try JSONSerialization.jsonObject(with: Data(atEnd.stdout.utf8)) as? [[String: Any]])?.first, "\(atEnd)")
        #expect(ended["rest_hr_peak"] as? Double == 150 && ended["rest_hr_min"] as? Double == 100, "\(ended)")

        // The next set ends the rest in the history, with its recovery: what the data give, null
        // for what a rest of a second cannot say.
        let next = restctl(setup.session, "set", "--no-until-recovered")
        #expect(next.succeeded, "\(next)")
        let history = restctl(setup.session, "history", "--json")
        let sets = try #require(
            try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [[String: Any]], "\(history)")
        let rest = try #require(sets.first, "\(history)")
        #expect(rest["rest_hr_set_end"] as? Double == 150 && rest["rest_hr_peak"] as? Double == 150, "\(rest)")
        #expect(rest["rest_hr_min"] as? Double == 100 && rest["rest_time_to_target_usec"] is Int, "\(rest)")
        #expect(rest["rest_hr_peak_after_usec"] is Int, "\(rest)")
        #expect(rest["rest_hr_30s"] is NSNull && rest["rest_hrr60"] is NSNull && rest["rest_rmssd_ms"] is NSNull)
        #expect(rest["rest_rmssd_beats"] as? Int == 0, "\(rest)")
        // The second set's rest was not followed: its recovery keys are null.
        #expect(sets.last?["rest_rmssd_beats"] is NSNull, "\(history)")
        // The History API carries the same (gdbus prints what restd sent).
        let rests = gdbus(
            setup.session, "call", "--dest", RestBus.name, "--object-path", RestBus.historyPath,
            "--method", "io.restd.Rest1.History.Rests", "0", "0", "", "0")
        #expect(rests.stdout.contains("'hr_peak': <150.0>") && rests.stdout.contains("'rmssd_beats': <uint32 0>"))
        #expect(rests.stdout.contains("'hr_peak_after_usec': <uint64 "), "\(rests)")
        #expect(!rests.stdout.contains("'hrr60'"), "a metric without data is left out: \(rests)")
        // SetRows carries the same recovery, and the second set's open rest.
        try expectSetRowsMatchSets(setup.client, count: 2)
        // Stats per exercise: one rest followed, its time to target the median, no HRR60 yet.
        let stats = restctl(setup.session, "stats", "--json")
        let squat = try #require(
            (try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [[String: Any]])?.first, "\(stats)")
        #expect(squat["recovery_rests"] as? Int == 1 && squat["median_time_to_target_usec"] is Int, "\(squat)")
        #expect((squat["hrr60_weeks"] as? [Any])?.isEmpty == true, "\(squat)")
    }

    // Real time: the strap counted lost after 5 s, the rest run to its 8 s, Expired on time.
    @Test(
        "a strap unplugged mid-rest: the rest says so and runs to its planned maximum",
        .tags(.realTime))
    func strapUnpluggedRunsToMaximum() throws {
        let (setup, strap) = try Self.withStrap()
        // Heard from, above the target, then gone.
        try setup.bluez.notify(strap, [0x00, 150])
        try setup.waitForFieldsByGdbus(containing: "'heart_rate': <int64 150>")
        let set = restctl(setup.session, "set", "--exercise", "Squat", "--rest", "8", "--until-recovered")
        #expect(set.succeeded, "\(set)")
        try setup.bluez.setConnected(strap, false)

        // 5 s without a sample: the running rest says the strap was lost, in a PropertiesChanged
        // of its own before the Expired (read from the recorded signals, whatever the machine's
        // speed).
        let lost = try setup.signals.waitFor("EndReason sensor_lost") {
            $0.member == "PropertiesChanged" && $0.path == RestBus.timerPath(id: "default")
                && $0.changedProperties[TimerProperty.endReason] == .string("sensor_lost")
        }
        #expect(lost.changedProperties[TimerProperty.state] == nil, "still running: \(lost.changedProperties)")
        try setup.expectExpiredOnTime("default")
        let order = setup.signals.received.filter { $0 === lost || $0.member == "Expired" }
        #expect(order.first === lost && order.count == 2, "sensor_lost while running, then Expired")
        let status = try Self.status(setup)
        #expect(status["end_reason"] as? String == "sensor_lost")
        #expect(status["recovered_bpm"] is NSNull)
        // Its full planned length: expired at started + 8 s.
        let startedAt = try #require(
            ISO8601DateFormatter.withFractions.date(from: status["started_at"] as? String ?? ""))
        let expiredAt = try #require(
            ISO8601DateFormatter.withFractions.date(from: status["expired_at"] as? String ?? ""))
        #expect(abs(expiredAt.timeIntervalSince(startedAt) - 8) < 0.002, "\(startedAt) → \(expiredAt)")
    }

    // Real time: rests run to their maximum, Expired on time.
    @Test(
        "no strap at all: the rest runs to its maximum and ends as sensor_lost; a plain rest as planned",
        .tags(.realTime))
    func noStrapRunsToMaximum() throws {
        let setup = try HeartRateTests.Setup(config: Self.config)
        // No heart rate coming in: sensor_lost from the start to the end.
        let set = restctl(setup.session, "set", "--exercise", "Squat", "--rest", "3", "--until-recovered")
        #expect(set.succeeded, "\(set)")
        #expect(try Self.status(setup)["end_reason"] as? String == "sensor_lost")
        try setup.expectExpiredOnTime("default")
        #expect(try Self.status(setup)["end_reason"] as? String == "sensor_lost")
        // A plain rest ends as planned.
        let plain = restctl(setup.session, "set", "--rest", "1", "--no-until-recovered")
        #expect(plain.succeeded, "\(plain)")
        try waitUntil("the plain rest over") {
            let status = try Self.status(setup)
            return status["state"] as? String == "expired" && status["until_recovered"] as? Bool == false
        }
        #expect(try Self.status(setup)["end_reason"] as? String == "planned")
    }
}

/// What a restart of restd keeps of resting until recovered, without a strap (no BlueZ needed).
@Suite("Resting until recovered across a restart")
struct RestUntilRecoveredRestartTests {
    @Test("a restarted restd resumes such a rest as a plain timed rest, and keeps why the rests over ended")
    func restartResumesAsTimedRest() throws {
        let daemon = try RunningDaemon()
        #expect(daemon.run("set", "--exercise", "Squat", "--rest", "10m", "--until-recovered", "--id", "a").succeeded)
        #expect(daemon.run("set", "--exercise", "Squat", "--rest", "10m", "--until-recovered", "--id", "b").succeeded)
        #expect(daemon.run("skip", "--id", "b").succeeded)
        func status(_ id: String) throws -> [String: Any] {
            let result = daemon.run("status", "--id", id, "--json")
            return try #require(
                try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result)")
        }
        #expect(try status("a")["until_recovered"] as? Bool == true)
        #expect(try status("b")["end_reason"] as? String == "user")

        try daemon.crashAndRestart()
        let resumed = try status("a")
        #expect(resumed["state"] as? String == "running" && resumed["until_recovered"] as? Bool == false, "\(resumed)")
        // No strap here: had 5 s passed before a command on a slow machine, the rest would already
        // say sensor_lost (stored); either way nothing recovered it.
        #expect(resumed["end_reason"] is NSNull || resumed["end_reason"] as? String == "sensor_lost", "\(resumed)")
        #expect(try status("b")["end_reason"] as? String == "user", "stored with the timer")
    }
}

extension ISO8601DateFormatter {
    /// restctl's `*_at` instants: ISO 8601 with milliseconds.
    static var withFractions: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}
