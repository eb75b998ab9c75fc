import DBusKit
import Foundation
import ProcessHarness
import RestClient
import RestProtocol
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The live activity on a real bus: updates merged and throttled to the broadcast and to subscribers.
@Suite("Live activity", .serialized, .tags(.everyBus))
struct LiveTests {
    private static func isBroadcast(_ message: Message) -> Bool {
        message.member == "PropertiesChanged" && message.path == RestBus.livePath
    }

    private static func isChanged(_ message: Message) -> Bool {
        message.member == "Changed" && message.path == RestBus.livePath
    }

    private static func heartRate(in fields: [String: DBusValue]) -> Int64? {
        fields["heart_rate"]?.int64
    }

    @Test("an update after a quiet period is published at once, in Fields and PropertiesChanged")
    func leadingEdge() throws {
        let daemon = try RunningDaemon()
        let watcher = try SignalWatcher.restd(bus: daemon.bus)
        try daemon.client.updateLive(["heart_rate": .uint32(142), "exercise": .string("Bench press")])
        let signal = try watcher.waitFor(where: Self.isBroadcast)
        let changed = signal.changedProperties
        #expect(changed["Fields"]?.vardictEntries == ["heart_rate": .int64(142), "exercise": .string("Bench press")])
        #expect(changed["Active"] == .boolean(true))
        #expect(try daemon.client.liveFields() == ["heart_rate": .int64(142), "exercise": .string("Bench press")])
        let active = busctl(
            daemon.bus, "get-property", RestBus.name, RestBus.livePath, RestBus.liveInterface, "Active", "MaxRateHz")
        #expect(active.output == "b true\nd 2", "\(active)")
    }

    @Test("refused updates change nothing and name the key")
    func refusedUpdates() throws {
        let daemon = try RunningDaemon()
        try daemon.client.updateLive(["progress_total": .int32(5)])
        let refused: [[String: DBusValue]] = [
            ["heart_rate": .int32(300)],
            ["heart_rate": .string("fast")],
            ["progress_done": .int32(6)],
            ["colour": .string("red")],
            ["exercise": .string(String(repeating: "x", count: 300))],
            ["heart_rate": .int32(100), "x_list": .array(.int32, [])],
            ["heart_rate": .uint64(.max)],
        ]
        for fields in refused {
            #expect(throws: ClientError.self) { try daemon.client.updateLive(fields) }
        }
        #expect(try daemon.client.liveFields() == ["progress_total": .int64(5)])
        let call = gdbus(
            daemon.bus, "call", "--dest", RestBus.name, "--object-path", RestBus.livePath,
            "--method", "\(RestBus.liveInterface).Update", "{'heart_rate': <300>}")
        #expect(call.stderr.contains("org.freedesktop.DBus.Error.InvalidArgs"), "\(call)")
        #expect(call.stderr.contains("heart_rate 300"), "\(call)")
    }

    // Real time: restd's throttle timers on its loop under 3 s of load (ThrottledStreamTests: the logic).
    @Test(
        "200 updates/s for 3 s: broadcast and a 1 Hz subscriber stay within their rates and get the final value",
        .tags(.realTime))
    func throttledUnderLoad() throws {
        let daemon = try RunningDaemon()
        let broadcast = try SignalWatcher.restd(bus: daemon.bus)
        let subscriber = try SignalWatcher(bus: daemon.bus, rules: [])
        let subscribe = try Message.methodCall(
            destination: RestBus.name, path: RestBus.livePath,
            interface: RestBus.liveInterface, member: "Subscribe")
        try subscribe.append(.double(1))
        _ = try subscriber.connection.callBlocking(subscribe, timeoutMilliseconds: 30_000)

        let producer = try RestdClient(address: daemon.bus.address)
        let started = Stopwatch()
        // 600 updates, paced at no more than 200 per second (pacing the producer, not asserting
        // any timing: on a busy machine the loop just takes longer), then a final value that
        // none of them had.
        let sent = 600
        for index in 0..<sent {
            try producer.updateLive([
                "heart_rate": .int64(Int64(60 + index % 140)), "progress_done": .int64(Int64(index % 10)),
            ])
            let wait = Double(index + 1) / 200 - started.elapsed
            if wait > 0 { usleep(UInt32(wait * 1_000_000)) }
        }
        let finalValue: Int64 = 250
        try producer.updateLive(["heart_rate": .int64(finalValue), "progress_done": .int64(0)])
        let elapsed = started.elapsed

        let lastBroadcast = try broadcast.waitFor(where: {
            Self.isBroadcast($0)
                && Self.heartRate(in: $0.changedProperties["Fields"]?.vardictEntries ?? [:]) == finalValue
        })
        let lastChanged = try subscriber.waitFor(where: {
            Self.isChanged($0) && Self.heartRate(in: $0.arguments().first?.vardictEntries ?? [:]) == finalValue
        })
        let broadcasts = broadcast.received.prefix { $0 !== lastBroadcast }.filter(Self.isBroadcast).count + 1
        let changes = subscriber.received.prefix { $0 !== lastChanged }.filter(Self.isChanged).count + 1
        // At most rate × time + 1 (the leading edge), counted over the production time plus the
        // one trailing interval that carries the final value.
        #expect(Double(broadcasts) <= 2 * (elapsed + 0.5) + 1, "\(broadcasts) broadcasts in \(elapsed) s")
        #expect(Double(changes) <= 1 * (elapsed + 1) + 1, "\(changes) Changed signals in \(elapsed) s")
        #expect(broadcasts >= 3 && changes >= 2, "the streams did publish along the way")
        #expect(broadcasts * 10 < sent, "\(broadcasts) broadcasts for \(sent) updates: nothing was coalesced")
        // Every Changed carries the full field set.
        #expect(lastChanged.arguments().first?.vardictEntries?.keys.sorted() == ["heart_rate", "progress_done"])
    }

    @Test("an update that changes nothing publishes nothing")
    func noChangeNoSignal() throws {
        let daemon = try RunningDaemon()
        let watcher = try SignalWatcher.restd(bus: daemon.bus)
        try daemon.client.updateLive(["workout": .string("Legs")])
        let first = try watcher.waitFor(where: Self.isBroadcast)
        let stamp = try daemon.client.call(
            path: RestBus.livePath, interface: "org.freedesktop.DBus.Properties",
            member: "Get", [.string(RestBus.liveInterface), .string("UpdatedAtUSec")])
        try daemon.client.updateLive(["workout": .string("Legs")])  // no change
        try daemon.client.endLive()  // published at once: the next broadcast must be this one
        let next = try watcher.waitFor(where: { Self.isBroadcast($0) && $0 !== first })
        #expect(next.changedProperties["Fields"]?.vardictEntries == [:])
        #expect(next.changedProperties["Active"] == .boolean(false))
        #expect(stamp.first?.unwrapped.uint64 == first.changedProperties["UpdatedAtUSec"]?.uint64)
        #expect(try daemon.client.liveFields().isEmpty)
    }

    @Test("a subscriber gets the current fields at once, and End at once")
    func subscriberStartsWithCurrentFields() throws {
        let daemon = try RunningDaemon()
        try daemon.client.updateLive(["exercise": .string("Squat")])
        let subscriber = try SignalWatcher(bus: daemon.bus, rules: [])
        let client = try RestdClient(address: daemon.bus.address)
        _ = client  // the producer
        let subscribe = try Message.methodCall(
            destination: RestBus.name, path: RestBus.livePath,
            interface: RestBus.liveInterface, member: "Subscribe")
        try subscribe.append(.double(0.01))
        _ = try subscriber.connection.callBlocking(subscribe, timeoutMilliseconds: 30_000)
        let first = try subscriber.waitFor(where: Self.isChanged)
        #expect(first.arguments().first?.vardictEntries == ["exercise": .string("Squat")])
        try daemon.client.endLive()
        let ended = try subscriber.waitFor(where: { Self.isChanged($0) && $0 !== first })
        #expect(ended.arguments().first?.vardictEntries == [:])
    }

    @Test("subscription rates out of range are refused")
    func rateRange() throws {
        let daemon = try RunningDaemon()
        for rate in [0, 0.009, 20.5, -1, .infinity, .nan] as [Double] {
            let message = try Message.methodCall(
                destination: RestBus.name, path: RestBus.livePath,
                interface: RestBus.liveInterface, member: "Subscribe")
            try message.append(.double(rate))
            #expect(throws: DBusError.self) {
                try daemon.client.connection.callBlocking(message, timeoutMilliseconds: 30_000)
            }
        }
    }

    @Test("256 subscribers at most; one leaving the bus frees its place")
    func subscriberLimitAndDisconnect() throws {
        let daemon = try RunningDaemon()
        func subscribe(_ connection: Connection) throws {
            let message = try Message.methodCall(
                destination: RestBus.name, path: RestBus.livePath,
                interface: RestBus.liveInterface, member: "Subscribe")
            try message.append(.double(1))
            _ = try connection.callBlocking(message, timeoutMilliseconds: 30_000)
        }
        var subscribers: [Connection] = []
        for _ in 0..<256 {
            let connection = try Connection.open(address: daemon.bus.address)
            try subscribe(connection)
            subscribers.append(connection)
        }
        let extra = try Connection.open(address: daemon.bus.address)
        #expect {
            try subscribe(extra)
        } throws: { ($0 as? DBusError)?.name == RestErrorName.limitExceeded }

        // Subscribing again only changes the rate: no new place taken.
        try subscribe(subscribers[0])

        // One subscriber leaves the bus without unsubscribing: restd sees it go (the bus's
        // NameOwnerChanged, which the test cannot watch restd handle) and frees its place.
        subscribers.removeLast().close()
        try waitUntil(
            "the place of the subscriber that left to be freed",
            details: { "--- restd log:\n\(daemon.restd.log())" }
        ) {
            do {
                try subscribe(extra)
                return true
            } catch let error as DBusError where error.name == RestErrorName.limitExceeded {
                return false  // not yet
            }
        }
    }

    // MARK: [live] in config.toml

    /// restd on a private bus, reading `config` as its config.toml.
    @dynamicMemberLookup
    final class ConfiguredDaemon {
        let daemon: RunningDaemon
        let watcher: SignalWatcher
        var bus: TestBus { daemon.bus }

        init(config: String) throws {
            daemon = try RunningDaemon(config: config)
            watcher = try SignalWatcher.restd(bus: daemon.bus)
        }

        subscript<Value>(dynamicMember path: KeyPath<RunningDaemon, Value>) -> Value { daemon[keyPath: path] }

        func maxRateHz() -> String {
            busctl(bus, "get-property", RestBus.name, RestBus.livePath, RestBus.liveInterface, "MaxRateHz").output
        }

        /// Writes a new config.toml, sends SIGHUP, and waits for the reload's log line.
        func reload(_ config: String, expecting line: String) throws {
            try daemon.config.write(config)
            daemon.restd.signal(SIGHUP)
            try daemon.restd.waitForLog(containing: line)
        }
    }

    private static func fields(of message: Message) -> [String: DBusValue]? {
        isBroadcast(message) ? message.changedProperties["Fields"]?.vardictEntries : nil
    }

    @Test("heart_rate_staleness from config.toml: a heart rate not refreshed for 1 s is removed, and that is broadcast")
    func stalenessFromConfig() throws {
        let daemon = try ConfiguredDaemon(config: "[live]\nheart_rate_staleness = \"1s\"\nbroadcast_rate = 5\n")
        #expect(daemon.maxRateHz() == "d 5", "\(daemon.restd.log())")
        try daemon.client.updateLive(["heart_rate": .uint32(131), "exercise": .string("Row")])
        let shown = try daemon.watcher.waitFor(where: { Self.fields(of: $0)?["heart_rate"] != nil })
        let removed = try daemon.watcher.waitFor(where: {
            guard let fields = Self.fields(of: $0) else { return false }
            return fields["heart_rate"] == nil
        })
        #expect(
            shown.changedProperties["Fields"]?.vardictEntries == [
                "heart_rate": .int64(131), "exercise": .string("Row"),
            ])
        #expect(removed.changedProperties["Fields"]?.vardictEntries == ["exercise": .string("Row")])
        #expect(try daemon.client.liveFields() == ["exercise": .string("Row")])
        // restd's own timestamps of the two broadcasts: removed no earlier than 1 s after it was
        // sent, and well before the default 10 s, so it was the configured staleness that did it.
        let sent = try #require(shown.changedProperties["UpdatedAtUSec"]?.uint64)
        let gone = try #require(removed.changedProperties["UpdatedAtUSec"]?.uint64)
        #expect(gone >= sent + 1_000_000, "removed \(Int64(gone) - Int64(sent)) µs after it was sent")
        #expect(
            gone < sent + 10_000_000, "removed \(Int64(gone) - Int64(sent)) µs after it was sent: the default staleness"
        )
    }

    // Real time: restd's staleness timer, armed for the first value, must not remove the refreshed
    // one (LiveActivityTests.aRefreshPushesTheStalenessOn: the rule, on the hand-moved clock).
    @Test(
        "a refreshed heart rate stays until the staleness has passed since its refresh, not since it was first sent",
        .tags(.realTime))
    func refreshPushesStalenessOn() throws {
        let daemon = try ConfiguredDaemon(config: "[live]\nheart_rate_staleness = \"4s\"\nbroadcast_rate = 20\n")
        try daemon.client.updateLive(["heart_rate": .uint32(131)])
        let first = try daemon.watcher.waitFor(where: { Self.heartRate(in: Self.fields(of: $0) ?? [:]) == 131 })
        let firstSent = try #require(first.changedProperties["UpdatedAtUSec"]?.uint64)
        // A second on (the wall clock, which UpdatedAtUSec reads), a refresh: restd's timer, armed
        // for 4 s after the first, fires while the heart rate is still fresh.
        try RunningDaemon.waitUntilPast(firstSent + 1_000_000)
        try daemon.client.updateLive(["heart_rate": .uint32(132)])
        let refresh = try daemon.watcher.waitFor(where: { Self.heartRate(in: Self.fields(of: $0) ?? [:]) == 132 })
        let refreshed = try #require(refresh.changedProperties["UpdatedAtUSec"]?.uint64)
        #expect(refreshed < firstSent + 4_000_000, "the refresh came after the first heart rate had gone stale")
        let removed = try daemon.watcher.waitFor(where: {
            Self.fields(of: $0) == [:] && ($0.changedProperties["UpdatedAtUSec"]?.uint64 ?? 0) > refreshed
        })
        let gone = try #require(removed.changedProperties["UpdatedAtUSec"]?.uint64)
        // Staleness runs on CLOCK_BOOTTIME, the timestamps on the wall clock: a slewing clock may
        // put them a few ms closer than 4 s.
        #expect(
            gone + 10_000 >= refreshed + 4_000_000, "removed \(Int64(gone) - Int64(refreshed)) µs after the refresh")
    }

    @Test(
        "SIGHUP: a new broadcast_rate is MaxRateHz with PropertiesChanged, a new staleness holds from the next heart rate"
    )
    func liveReload() throws {
        let daemon = try ConfiguredDaemon(config: "[live]\nheart_rate_staleness = \"10m\"\n")
        #expect(daemon.maxRateHz() == "d 2", "the default")
        try daemon.client.updateLive(["heart_rate": .uint32(120)])
        try daemon.watcher.waitFor(where: { Self.fields(of: $0)?["heart_rate"] != nil })

        try daemon.reload(
            "[live]\nheart_rate_staleness = \"1s\"\nbroadcast_rate = 0.5\n",
            expecting: "changed: live.broadcast_rate, live.heart_rate_staleness")
        let rate = try daemon.watcher.waitFor(where: {
            $0.member == "PropertiesChanged" && $0.path == RestBus.livePath && $0.changedProperties["MaxRateHz"] != nil
        })
        #expect(rate.changedProperties == ["MaxRateHz": .double(0.5)])
        #expect(daemon.maxRateHz() == "d 0.5")

        // The same heart rate again publishes nothing, but refreshes it under the new staleness.
        try daemon.client.updateLive(["heart_rate": .uint32(120)])
        try daemon.watcher.waitFor(where: { Self.fields(of: $0) == [:] })
        #expect(try daemon.client.liveFields().isEmpty)

        // The same file again: nothing changes, and no PropertiesChanged of MaxRateHz. Then a
        // broadcast, which arrives after anything the reload would have sent.
        try daemon.reload("[live]\nheart_rate_staleness = \"1s\"\nbroadcast_rate = 0.5\n", expecting: "nothing changed")
        try daemon.client.updateLive(["x_marker": .boolean(true)])
        let marker = try daemon.watcher.waitFor(where: { Self.fields(of: $0)?["x_marker"] != nil })
        let rateChanges = daemon.watcher.received.prefix { $0 !== marker }.filter {
            $0.member == "PropertiesChanged" && $0.changedProperties["MaxRateHz"] != nil
        }
        #expect(rateChanges.count == 1, "\(rateChanges.map(\.changedProperties))")
    }

    @Test("live fields are not persisted")
    func notPersisted() throws {
        let daemon = try RunningDaemon()
        try daemon.client.updateLive(["heart_rate": .int32(120)])
        // restd did hold the field, so its absence afterwards is the restart's doing.
        #expect(try daemon.client.liveFields() == ["heart_rate": .int64(120)], "\(daemon.restd.log())")
        try daemon.crashAndRestart()
        #expect(try daemon.client.liveFields().isEmpty)
    }
}

/// A subscriber that stops reading must not make the bus buffer for it without bound.
@Suite("Slow subscriber", .serialized, .tags(.realTime, .everyBus))
struct SlowSubscriberTests {
    @Test("a subscriber that never reads is dropped once the bus holds 256 KiB for it")
    func neverReadingSubscriberIsDropped() throws {
        let daemon = try RunningDaemon()
        // Subscribes at 20 Hz, then never reads its socket again.
        let stalled = try Connection.open(address: daemon.bus.address)
        let subscribe = try Message.methodCall(
            destination: RestBus.name, path: RestBus.livePath,
            interface: RestBus.liveInterface, member: "Subscribe")
        try subscribe.append(.double(20))
        _ = try stalled.callBlocking(subscribe, timeoutMilliseconds: 30_000)

        // Large, ever-changing fields, so that every publication is a few kilobytes.
        let producer = try RestdClient(address: daemon.bus.address)
        var fields: [String: DBusValue] = [:]
        for key in 0..<15 { fields["x_pad\(key)"] = .string(String(repeating: "p", count: 250)) }
        let deadline = Deadline(secondsFromNow: 60)
        var dropped = false
        var round: Int64 = 0
        while !dropped && !deadline.hasPassed {
            round += 1
            fields["x_round"] = .int64(round)
            try producer.updateLive(fields)
            // Pacing the producer at 40 Hz (not waiting for a condition: the loop sends until the
            // bus has buffered enough for restd to drop the stalled subscriber).
            usleep(25_000)
            dropped = daemon.restd.log().contains("does not read its messages")
        }
        #expect(dropped, "\(daemon.restd.log())")
        #expect(daemon.restd.isRunning)
        #expect(try producer.liveFields()["x_round"] != nil, "restd still serves everyone else")
        withExtendedLifetime(stalled) {}
    }
}
