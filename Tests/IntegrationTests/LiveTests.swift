import DBusKit
import Foundation
import RestClient
import RestProtocol
import Testing

/// The live activity on a real bus: updates merged and throttled to the broadcast and to subscribers.
@Suite("Live activity", .serialized)
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
        let active = busctl(daemon.bus, "get-property", RestBus.name, RestBus.livePath, RestBus.liveInterface, "Active", "MaxRateHz")
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
        let call = gdbus(daemon.bus, "call", "--dest", RestBus.name, "--object-path", RestBus.livePath,
                         "--method", "\(RestBus.liveInterface).Update", "{'heart_rate': <300>}")
        #expect(call.stderr.contains("org.freedesktop.DBus.Error.InvalidArgs"), "\(call)")
        #expect(call.stderr.contains("heart_rate 300"), "\(call)")
    }

    @Test("200 updates/s for 3 s: broadcast and a 1 Hz subscriber stay within their rates and get the final value")
    func throttledUnderLoad() throws {
        let daemon = try RunningDaemon()
        let broadcast = try SignalWatcher.restd(bus: daemon.bus)
        let subscriber = try SignalWatcher(bus: daemon.bus, rules: [])
        let subscribe = try Message.methodCall(destination: RestBus.name, path: RestBus.livePath,
                                               interface: RestBus.liveInterface, member: "Subscribe")
        try subscribe.append(.double(1))
        _ = try subscriber.connection.callBlocking(subscribe, timeoutMilliseconds: 30_000)

        let producer = try RestdClient(address: daemon.bus.address)
        let started = Date()
        var sent = 0
        var finalValue: Int64 = 0
        // Paced at 200 per second: pacing the producer, not asserting any timing.
        while Date().timeIntervalSince(started) < 3 {
            finalValue = Int64(60 + sent % 140)
            try producer.updateLive(["heart_rate": .int64(finalValue), "progress_done": .int64(Int64(sent % 10))])
            sent += 1
            let next = started.addingTimeInterval(Double(sent) / 200)
            let wait = next.timeIntervalSinceNow
            if wait > 0 { usleep(UInt32(wait * 1_000_000)) }
        }
        let elapsed = Date().timeIntervalSince(started)
        #expect(sent >= 500)

        let lastBroadcast = try broadcast.waitFor(where: {
            Self.isBroadcast($0) && Self.heartRate(in: $0.changedProperties["Fields"]?.vardictEntries ?? [:]) == finalValue
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
        // Every Changed carries the full field set.
        #expect(lastChanged.arguments().first?.vardictEntries?.keys.sorted() == ["heart_rate", "progress_done"])
    }

    @Test("an update that changes nothing publishes nothing")
    func noChangeNoSignal() throws {
        let daemon = try RunningDaemon()
        let watcher = try SignalWatcher.restd(bus: daemon.bus)
        try daemon.client.updateLive(["workout": .string("Legs")])
        let first = try watcher.waitFor(where: Self.isBroadcast)
        let stamp = try daemon.client.call(path: RestBus.livePath, interface: "org.freedesktop.DBus.Properties",
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
        let subscribe = try Message.methodCall(destination: RestBus.name, path: RestBus.livePath,
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
            let message = try Message.methodCall(destination: RestBus.name, path: RestBus.livePath,
                                                 interface: RestBus.liveInterface, member: "Subscribe")
            try message.append(.double(rate))
            #expect(throws: DBusError.self) { try daemon.client.connection.callBlocking(message, timeoutMilliseconds: 30_000) }
        }
    }

    @Test("256 subscribers at most; one leaving the bus frees its place")
    func subscriberLimitAndDisconnect() throws {
        let daemon = try RunningDaemon()
        func subscribe(_ connection: Connection) throws {
            let message = try Message.methodCall(destination: RestBus.name, path: RestBus.livePath,
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

        // One subscriber leaves the bus without unsubscribing: restd sees it go.
        subscribers.removeLast().close()
        let deadline = Date().addingTimeInterval(30)
        var accepted = false
        while !accepted && Date() < deadline {
            do {
                try subscribe(extra)
                accepted = true
            } catch {
                usleep(10_000)  // waiting for restd to process NameOwnerChanged
            }
        }
        #expect(accepted, "the place of the subscriber that left was freed")
    }

    @Test("live fields are not persisted")
    func notPersisted() throws {
        let daemon = try RunningDaemon()
        try daemon.client.updateLive(["heart_rate": .int32(120)])
        try daemon.crashAndRestart()
        #expect(try daemon.client.liveFields().isEmpty)
    }
}

/// A subscriber that stops reading must not make the bus buffer for it without bound.
@Suite("Slow subscriber", .serialized)
struct SlowSubscriberTests {
    @Test("a subscriber that never reads is dropped once the bus holds 256 KiB for it")
    func neverReadingSubscriberIsDropped() throws {
        let daemon = try RunningDaemon()
        // Subscribes at 20 Hz, then never reads its socket again.
        let stalled = try Connection.open(address: daemon.bus.address)
        let subscribe = try Message.methodCall(destination: RestBus.name, path: RestBus.livePath,
                                               interface: RestBus.liveInterface, member: "Subscribe")
        try subscribe.append(.double(20))
        _ = try stalled.callBlocking(subscribe, timeoutMilliseconds: 30_000)

        // Large, ever-changing fields, so that every publication is a few kilobytes.
        let producer = try RestdClient(address: daemon.bus.address)
        var fields: [String: DBusValue] = [:]
        for key in 0..<15 { fields["x_pad\(key)"] = .string(String(repeating: "p", count: 250)) }
        let deadline = Date().addingTimeInterval(60)
        var dropped = false
        var round: Int64 = 0
        while !dropped && Date() < deadline {
            round += 1
            fields["x_round"] = .int64(round)
            try producer.updateLive(fields)
            usleep(25_000)  // pacing the producer at 40 Hz
            dropped = daemon.restd.log().contains("does not read its messages")
        }
        #expect(dropped, "\(daemon.restd.log())")
        #expect(daemon.restd.isRunning)
        #expect(try producer.liveFields()["x_round"] != nil, "restd still serves everyone else")
        withExtendedLifetime(stalled) {}
    }
}
