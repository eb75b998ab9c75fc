import Foundation
import ProcessHarness
import RestClient
import RestProtocol
import Testing

/// kill -9 after acknowledged mutations loses nothing; state rules on start-up.
@Suite("Persistence", .serialized, .tags(.calendar))
struct PersistenceTests {
    @Test("timers started, paused, resumed and adjusted survive kill -9 with the same deadlines")
    func survivesKill9() throws {
        let daemon = try RunningDaemon()
        let client = daemon.client
        try client.start(id: "running", durationUSec: 600_000_000, label: "Squat", next: "Bench press")
        try client.start(id: "paused", durationUSec: 300_000_000, notify: false)
        try client.pause(id: "paused")
        try client.start(id: "resumed", durationUSec: 120_000_000)
        try client.pause(id: "resumed")
        try client.resume(id: "resumed")
        try client.adjust(id: "resumed", deltaUSec: 45_000_000)
        try client.start(id: "gone", durationUSec: 120_000_000)
        try client.cancel(id: "gone")
        let before = try client.timers()

        try daemon.crashAndRestart()
        let after = try daemon.client.timers()
        #expect(after == before)
        #expect(after.map(\.id) == ["paused", "resumed", "running"])
    }

    @Test("a stored row that is not a valid timer is skipped with one log line, and the others are served")
    func invalidRowIsSkippedAndLogged() throws {
        let daemon = try RunningDaemon()
        try daemon.client.start(id: "good", durationUSec: 600_000_000)
        daemon.restd.terminate()
        #expect(try daemon.restd.waitForExit() == 0)
        // A row no restd writes (an id with a space).
        let inserted = try StateFile(in: daemon.state).execute(
            "INSERT INTO timers SELECT 'bad id', label, next, notify, base_duration_usec, state, duration_usec, "
                + "started_at_usec, ends_at_usec, remaining_usec, expired_at_usec, updated_at_usec, warn_usec, warned, "
                + "rest_source, end_reason, sound, rings_until_usec FROM timers WHERE id = 'good'")
        try #require(inserted == 1)

        try daemon.start()
        #expect(try daemon.client.timers().map(\.id) == ["good"])
        let log = daemon.log()
        #expect(
            log.components(separatedBy: "skipped a stored timer: row \"bad id\" has an invalid id").count == 2, "\(log)"
        )
        #expect(!log.contains("skipping a stored timer"), "\(log)")
    }

    @Test("a running timer whose deadline passed while restd was down comes back expired, with Expired")
    func deadlinePassedWhileDown() throws {
        let daemon = try RunningDaemon()
        // restd has to be killed before the deadline. A machine that stalls for a second may let
        // it expire the timer itself first; that shows on the bus before the name is released,
        // and then the set-up is tried again with a longer rest rather than the test failing.
        var endsAt: UInt64 = 0
        var killedInTime = false
        for durationUSec: UInt64 in [1_000_000, 5_000_000, 20_000_000] {
            let before = try SignalWatcher(
                bus: daemon.bus,
                rules: [
                    "type='signal',sender='io.restd.Rest1'",
                    "type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='io.restd.Rest1'",
                ])
            try daemon.client.start(id: "short", durationUSec: durationUSec)
            endsAt = try daemon.client.timer(id: "short").endsAtUSec
            _ = daemon.restd.kill9()
            // The bus routes everything the killed restd sent before it announces the release.
            try before.waitFor("io.restd.Rest1 released") {
                $0.member == "NameOwnerChanged" && $0.arguments().last == .string("")
            }
            killedInTime = !before.received.contains { $0.member == "Expired" }
            if killedInTime { break }
            try daemon.crashAndRestart()
        }
        try #require(killedInTime, "restd expired even a 20 s timer before it could be killed")
        try RunningDaemon.waitUntilPast(endsAt)

        let watcher = try SignalWatcher.restd(bus: daemon.bus)
        try daemon.start()
        let expired = try watcher.waitFor(where: { $0.member == "Expired" })
        #expect(expired.arguments().first == .string("short"))
        #expect(expired.arguments()[2] == .uint64(endsAt))
        let timer = try daemon.client.timer(id: "short")
        #expect(timer.state == "expired")
        #expect(timer.expiredAtUSec == endsAt)
    }

    @Test("an unreadable state file is moved aside, named in the log, and restd starts empty")
    func corruptStateIsMovedAside() throws {
        let setup = try RestdSetup()
        let directory = setup.state.path("restd")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let garbage = Data("this is not a database, it is a shopping list".utf8) + Data(repeating: 0xA5, count: 5000)
        try garbage.write(to: URL(fileURLWithPath: directory + "/state.sqlite"))

        let daemon = try setup.start()
        let (restd, client) = (daemon.restd, daemon.client)
        #expect(try client.timers().isEmpty)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory)
        let moved = try #require(files.first { $0.hasPrefix("state.sqlite.broken-") }, "\(files)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory + "/" + moved)) == garbage)
        #expect(restd.log().contains(moved), "\(restd.log())")

        try client.start(id: "fresh", durationUSec: 60_000_000)
        #expect(try client.timers().map(\.id) == ["fresh"])
    }

    @Test("the state directory is 0700 and the database 0600")
    func permissions() throws {
        let daemon = try RunningDaemon()
        try daemon.client.start(id: "t", durationUSec: 60_000_000)
        let directory = daemon.state.path("restd")
        let dirMode = try FileManager.default.attributesOfItem(atPath: directory)[.posixPermissions] as? Int
        let fileMode =
            try FileManager.default.attributesOfItem(atPath: directory + "/state.sqlite")[.posixPermissions] as? Int
        #expect(dirMode == 0o700)
        #expect(fileMode == 0o600)
    }
}
