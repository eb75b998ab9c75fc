import Foundation
import ProcessHarness
import RestProtocol
import Testing

/// A followed rest's heart rate, kept: the mocked strap of `RestUntilRecoveredTests` feeds restd,
/// the rest ends (recovered, or skipped), restd is killed with SIGKILL right after, and the
/// trace is there on the next start — through `restctl history --json`, through busctl (a client
/// not ours), and as a curve in `restctl report`, read back by Chromium.
@Suite("Heart rate of followed rests, kept", .serialized, .tags(.slow))
struct HeartRateTraceTests {
    /// `restctl history --json --since 1h`'s sets, parsed.
    static func sets(_ setup: HeartRateTests.Setup) throws -> [[String: Any]] {
        let history = restctl(setup.session, "history", "--json", "--since", "1h")
        guard history.succeeded else { throw HarnessError.failed("restctl history --json: \(history)") }
        return try #require(
            try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [[String: Any]], "\(history)")
    }

    @Test("a rest ended on recovery keeps its heart rate at once: it survives kill -9, and the report draws it")
    func recoveredRestSurvivesKill9() throws {
        let (setup, strap) = try RestUntilRecoveredTests.withStrap()
        let set = restctl(setup.session, "set", "--exercise", "Squat", "--rest", "2m", "--until-recovered")
        #expect(set.succeeded, "\(set)")
        for bpm: UInt8 in [150, 100, 100, 100] { try setup.bluez.notify(strap, [0x00, bpm]) }
        try setup.waitForExpired()
        // Any reply after Expired comes after the iteration that wrote the trace.
        #expect(restctl(setup.session, "status").succeeded)
        try setup.daemon.crashAndRestart()

        let sets = try Self.sets(setup)
        let trace = try #require(sets.first?["rest_heart_rate"] as? [String: Any], "\(sets)")
        #expect(trace["ending"] as? String == "recovered")
        #expect(trace["target_bpm"] as? Int == 120)
        #expect(trace["minimum_usec"] as? Int == 1_000_000 && trace["hold_usec"] as? Int == 1_000_000)
        let bpm = try #require(trace["bpm"] as? [Any])
        let known = bpm.compactMap { $0 as? Int }
        // Smoothed (the median of the last 5 s): 150, then down to 100, where it recovered.
        #expect(!known.isEmpty && known.allSatisfy { (100...150).contains($0) } && known.last == 100, "\(bpm)")
        let endedAfter = try #require(trace["ended_after_usec"] as? Int)
        #expect(bpm.count == endedAfter / 1_000_000 + 1)

        // The same through busctl.
        let busctlReply = busctl(
            setup.session, "call", RestBus.name, RestBus.historyPath, RestBus.historyInterface,
            HistoryMember.heartRates, "ttu", "0", "0", "0")
        #expect(busctlReply.succeeded && busctlReply.stdout.contains("\"ending\" s \"recovered\""), "\(busctlReply)")

        // The report draws it: one curve, its vertices the seconds with a heart rate.
        let output = try TempDirectory(prefix: "restd-report")
        let page = output.path("report.html")
        let report = restctl(setup.session, "report", "--since", "1h", "--output", page)
        #expect(report.succeeded, "\(report)")
        let opened = try Chromium.open(page)
        #expect(opened.console.isEmpty, "\(opened.console)")
        let curves = ChartsInDocument(opened.dom).of(kind: "heart-rate")
        try #require(curves.count == 1, "\(opened.dom)")
        let vertices = curves[0].markup.matches(of: #/<polyline class="curve [^"]*" points="([^"]*)"/#)
            .map { $0.output.1.split(separator: " ").count }.reduce(0, +)
        let dots = curves[0].count(class: "curve-dot")
        #expect(vertices + dots == known.count, "\(curves[0].markup)")
        #expect(curves[0].count(class: "hold") == 1 && curves[0].count(class: "target") == 1)
        #expect(curves[0].count(class: "minimum") == 1 && curves[0].count(class: "end") == 1)
        #expect(curves[0].markup.contains("recovered after 0:0"))
    }

    @Test("a followed rest skipped keeps its heart rate with the skip's reply; heart_rate_keep_days 0 keeps none")
    func skippedRestAndNoRetention() throws {
        let (setup, strap) = try RestUntilRecoveredTests.withStrap()
        #expect(restctl(setup.session, "set", "--exercise", "Squat", "--rest", "2m", "--until-recovered").succeeded)
        let started = try setup.client.timer(id: "default").startedAtUSec
        try setup.bluez.notify(strap, [0x00, 160])
        try setup.waitForFieldsByGdbus(containing: "160")
        // A trace has a value a second from the start: the second after it must have come.
        try RunningDaemon.waitUntilPast(started + 1_500_000)
        #expect(restctl(setup.session, "skip").succeeded)
        try setup.daemon.crashAndRestart()
        let trace = try #require(try Self.sets(setup).first?["rest_heart_rate"] as? [String: Any])
        #expect(trace["ending"] as? String == "user")
        #expect((trace["bpm"] as? [Any])?.contains { $0 as? Int == 160 } == true, "\(trace)")

        let (none, noneStrap) = try RestUntilRecoveredTests.withStrap(
            config: RestUntilRecoveredTests.config + "\n[history]\nheart_rate_keep_days = 0\n")
        #expect(restctl(none.session, "set", "--exercise", "Squat", "--rest", "2m", "--until-recovered").succeeded)
        try none.bluez.notify(noneStrap, [0x00, 160])
        try none.waitForFieldsByGdbus(containing: "160")
        #expect(restctl(none.session, "skip").succeeded)
        let sets = try Self.sets(none)
        #expect(sets.count == 1 && sets[0]["rest_heart_rate"] is NSNull, "\(sets)")
    }
}
