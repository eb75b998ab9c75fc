import DBusKit
import Foundation
import ProcessHarness
import RestClient
import RestProtocol
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// restd reading a Bluetooth heart-rate strap: a private system bus with python-dbusmock's
/// `bluez5` template as bluetoothd (GATT objects added through dbusmock's API), restd on a
/// private session bus, and the live fields checked through `restctl watch`, gdbus and
/// `restctl sensors`.
@Suite("Heart rate from a Bluetooth strap", .serialized)
struct HeartRateTests {
    static let polar = (address: "A0:9E:1A:12:34:56", alias: "Polar H10 1234")
    static let tickr = (address: "C4:2A:11:22:33:44", alias: "TICKR 5A1F")

    /// restd (the tests' one fixture) on a session bus, a system bus with BlueZ, and watchers on both.
    final class Setup {
        /// restd's, settled before it starts: --verbose, and the system bus below as its system bus.
        let restdSetup: RestdSetup
        let system: TestBus
        let bluez: BluezMock
        /// Every call BlueZ gets (dbusmock's MethodCalled), StartNotify among them.
        let bluezCalls: MockCalls
        let signals: SignalWatcher
        /// Once `startRestd` has run.
        private(set) var daemon: RunningDaemon!
        var session: TestBus { restdSetup.bus }
        var configHome: ConfigHome { restdSetup.config }
        var restd: RestdProcess { daemon.restd }
        var client: RestdClient { daemon.client }

        /// - adapter: whether BlueZ has hci0 before restd starts.
        /// - config: restd's config.toml.
        init(adapter: Bool = true, config: String? = nil, startRestd: Bool = true) throws {
            system = try TestBus(prefix: "restd-system-bus")
            restdSetup = try RestdSetup(
                config: config, environment: ["DBUS_SYSTEM_BUS_ADDRESS": system.address], arguments: ["--verbose"])
            bluez = try BluezMock(systemBus: system)
            bluezCalls = try MockCalls(bus: system)
            signals = try SignalWatcher.restd(bus: restdSetup.bus)
            if adapter { try bluez.addAdapter() }
            if startRestd { try self.startRestd() }
        }

        /// - environment: more of restd's environment (a locale, say), kept for its restarts.
        func startRestd(environment: [String: String] = [:]) throws {
            restdSetup.environment.merge(environment) { $1 }
            daemon = try restdSetup.start()
        }

        /// How many StartNotify calls the strap's characteristic got so far.
        func startNotifyCount(_ strap: BluezMock.Strap) -> Int {
            bluezCalls.watcher.connection.dispatchAvailable()
            return bluezCalls.calls("StartNotify").count { $0.path == strap.measurement }
        }

        /// Waits until the strap's characteristic has had `count` StartNotify calls.
        func waitForStartNotify(_ strap: BluezMock.Strap, count: Int = 1) throws {
            try bluezCalls.watcher.waitFor("StartNotify #\(count) on \(strap.measurement)") { _ in
                bluezCalls.calls("StartNotify").count { $0.path == strap.measurement } >= count
            }
        }

        /// The live fields through restd's Fields property, read by gdbus.
        func fieldsByGdbus() -> String {
            gdbus(
                session, "call", "--dest", "io.restd.Rest1", "--object-path", "/io/restd/Rest1/live",
                "--method", "org.freedesktop.DBus.Properties.Get", "io.restd.Rest1.Live", "Fields"
            ).stdout
        }

        /// Waits until gdbus sees Fields containing `text`.
        func waitForFieldsByGdbus(containing text: String) throws {
            var last = ""
            try waitUntil("Fields containing \(text)", details: { "last: \(last)\n--- restd log:\n\(restd.log())" }) {
                last = fieldsByGdbus()
                return last.contains(text)
            }
        }

        /// `restctl sensors --json`, parsed.
        func sensors() throws -> [[String: Any]] {
            let result = restctl(session, "sensors", "--json")
            guard result.succeeded else { throw HarnessError.failed("restctl sensors --json: \(result)") }
            return try #require(
                try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]], "\(result)")
        }

        /// Whether Expired of `id` has come, without waiting.
        func hasExpired(_ id: String = "default") -> Bool {
            signals.connection.dispatchAvailable()
            return signals.received.contains { $0.member == "Expired" && $0.arguments().first == .string(id) }
        }

        /// Waits for Expired of `id`.
        @discardableResult
        func waitForExpired(_ id: String = "default") throws -> Message {
            try signals.waitFor("Expired of \(id)") { $0.member == "Expired" && $0.arguments().first == .string(id) }
        }

        /// Expired of `id` came on time (restd never waited for BlueZ).
        func expectExpiredOnTime(_ id: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let signal = try waitForExpired(id)
            let arguments = signal.arguments()
            let late = Int64(bitPattern: (arguments[3].uint64 ?? 0) &- (arguments[2].uint64 ?? 0))
            #expect(late >= 0 && late < 500_000, "fired \(late) µs late", sourceLocation: sourceLocation)
        }
    }

    @Test(
        "a strap connecting after restd started is subscribed with StartNotify and its readings reach watch, gdbus and sensors"
    )
    func strapConnectsLater() throws {
        let setup = try Setup()
        try setup.restd.waitForLog(containing: "no heart-rate strap connected; waiting for one")
        let watch = try WatchProcess(bus: setup.session, arguments: ["--json"])
        try watch.waitForLine { $0 == #"{"timer":null,"live":{}}"# }

        let strap = try setup.bluez.addStrap(
            address: Self.polar.address, alias: Self.polar.alias, battery: 80, connected: false)
        // Paired but not connected: listed, not read, and nothing asked of BlueZ.
        try waitUntil("the strap in restctl sensors") { try setup.sensors().count == 1 }
        #expect(setup.startNotifyCount(strap) == 0)
        try setup.bluez.setConnected(strap, true)
        try setup.waitForStartNotify(strap)
        try setup.restd.waitForLog(containing: "reading heart rate from Polar H10 1234 (A0:9E:1A:12:34:56)")

        // Polar H10 with contact and one RR interval: 72 bpm.
        try setup.bluez.notify(strap, [0x16, 0x48, 0x2C, 0x03])
        try watch.waitForLine {
            $0.contains(
                #""live":{"heart_rate":72,"heart_rate_sensor":"Polar H10 1234","heart_rate_contact":true,"sensor_battery":80}"#
            )
        }
        try setup.waitForFieldsByGdbus(containing: "'heart_rate': <int64 72>")
        #expect(setup.fieldsByGdbus().contains("'heart_rate_sensor': <'Polar H10 1234'>"))

        let sensors = try setup.sensors()
        #expect(sensors.count == 1)
        #expect(sensors.first?["address"] as? String == Self.polar.address)
        #expect(sensors.first?["alias"] as? String == Self.polar.alias)
        #expect(sensors.first?["reading"] as? Bool == true)
        #expect(sensors.first?["connected"] as? Bool == true)
        #expect(sensors.first?["paired"] as? Bool == true)
        #expect(sensors.first?["battery"] as? Int == 80)
        #expect(sensors.first?["heart_rate"] as? Int == 72)
        let text = restctl(setup.session, "sensors")
        #expect(
            text.succeeded && text.stdout.hasPrefix("A0:9E:1A:12:34:56  reading    paired    battery 80%   72 bpm 0:0"),
            "\(text)")
        #expect(text.stdout.hasSuffix("  Polar H10 1234\n"), "\(text)")

        // The battery changes on its own; the next reading carries it. A uint16 value, too.
        try setup.bluez.setBattery(strap, 79)
        try setup.bluez.notify(strap, [0x17, 0x8C, 0x00])
        try watch.waitForLine { $0.contains(#""heart_rate":140,"#) && $0.contains(#""sensor_battery":79"#) }
        // A value with no meaning (0 bpm with contact) is dropped: nothing changes, and restd lives on.
        try setup.bluez.notify(strap, [0x06, 0x00])
        try setup.restd.waitForLog(containing: "dropped a value from Polar H10 1234: a heart rate of 0 bpm")
        #expect(setup.fieldsByGdbus().contains("'heart_rate': <int64 140>"))
        watch.stop()
    }

    @Test("RR intervals received during a rest are stored with it, in ms (History.Rests rr_ms)")
    func rrIntervalsStoredWithTheRest() throws {
        let setup = try Setup()
        let strap = try setup.bluez.addStrap(address: Self.polar.address, alias: Self.polar.alias, connected: true)
        try setup.waitForStartNotify(strap)
        let first = restctl(setup.session, "set", "--exercise", "Squat")
        #expect(first.succeeded, "\(first)")
        // 72 bpm with two RR intervals: 1024/1024 s and 512/1024 s.
        try setup.bluez.notify(strap, [0x10, 0x48, 0x00, 0x04, 0x00, 0x02])
        try setup.waitForFieldsByGdbus(containing: "'heart_rate': <int64 72>")
        let second = restctl(setup.session, "set")
        #expect(second.succeeded, "\(second)")
        let rests = gdbus(
            setup.session, "call", "--dest", RestBus.name, "--object-path", RestBus.historyPath,
            "--method", "io.restd.Rest1.History.Rests", "0", "0", "", "0")
        #expect(
            rests.stdout.contains("'rr_ms': <[uint16 1000, 500]>") && rests.stdout.contains("'rr_ms': <@aq []>"),
            "the first rest has them, the one in progress none yet: \(rests)")
    }

    @Test("two straps: auto reads the one connected first, then the other when it goes; an address picks one")
    func twoStraps() throws {
        let setup = try Setup()
        let polar = try setup.bluez.addStrap(address: Self.polar.address, alias: Self.polar.alias, connected: true)
        try setup.waitForStartNotify(polar)
        let tickr = try setup.bluez.addStrap(address: Self.tickr.address, alias: Self.tickr.alias, connected: true)
        try setup.bluez.notify(polar, [0x00, 0x48])
        try setup.waitForFieldsByGdbus(containing: "'heart_rate': <int64 72>")
        // The second strap's values are not read, and it was not subscribed.
        try setup.bluez.notify(tickr, [0x00, 0x99])
        try setup.bluez.notify(polar, [0x00, 0x49])
        try setup.waitForFieldsByGdbus(containing: "'heart_rate': <int64 73>")
        #expect(setup.startNotifyCount(tickr) == 0)
        #expect(try setup.sensors().map { $0["reading"] as? Bool } == [true, false])

        // The first one goes: the other one is read.
        try setup.bluez.setConnected(polar, false)
        try setup.waitForStartNotify(tickr)
        try setup.bluez.notify(tickr, [0x00, 0x5A])
        try setup.waitForFieldsByGdbus(containing: "'heart_rate_sensor': <'TICKR 5A1F'>")
        #expect(setup.fieldsByGdbus().contains("'heart_rate': <int64 90>"))
        #expect(try setup.sensors().map { $0["reading"] as? Bool } == [false, true])

        // bluetooth = "<address>" on reload: only that strap, which is subscribed at once.
        try setup.bluez.setConnected(polar, true)
        try setup.configHome.write("[heart_rate]\nbluetooth = \"a0:9e:1a:12:34:56\"\n")
        setup.restd.signal(SIGHUP)
        try setup.restd.waitForLog(containing: "changed: heart_rate.bluetooth")
        try setup.waitForStartNotify(polar, count: 2)
        try setup.bluez.notify(polar, [0x00, 0x4B])
        try setup.waitForFieldsByGdbus(containing: "'heart_rate_sensor': <'Polar H10 1234'>")
        #expect(setup.fieldsByGdbus().contains("'heart_rate': <int64 75>"))
        // The TICKR, still connected but no longer chosen, is let go.
        try setup.bluezCalls.waitFor("StopNotify")
    }

    @Test("disconnect and reconnect: nothing is called on disconnect, StartNotify again on reconnect")
    func reconnect() throws {
        let setup = try Setup()
        let strap = try setup.bluez.addStrap(address: Self.polar.address, alias: Self.polar.alias, connected: true)
        try setup.waitForStartNotify(strap)
        try setup.bluez.setConnected(strap, false)
        try waitUntil("the strap shown disconnected") { try setup.sensors().first?["connected"] as? Bool == false }
        #expect(setup.startNotifyCount(strap) == 1)
        #expect(setup.bluezCalls.calls("StopNotify").isEmpty)
        try setup.bluez.setConnected(strap, true)
        try setup.waitForStartNotify(strap, count: 2)
        try setup.bluez.notify(strap, [0x10, 0x49, 0x5E, 0x03, 0x96, 0x03])
        try setup.waitForFieldsByGdbus(containing: "'heart_rate': <int64 73>")
    }

    @Test("bluetoothd leaving and coming back: restd follows it and subscribes again")
    func bluetoothdRestarts() throws {
        let setup = try Setup()
        let strap = try setup.bluez.addStrap(address: Self.polar.address, alias: Self.polar.alias, connected: true)
        try setup.waitForStartNotify(strap)
        setup.bluez.kill()
        try setup.restd.waitForLog(containing: "bluetoothd left the system bus")
        #expect(try setup.sensors().isEmpty)
        try setup.client.start(id: "while_bluez_is_away", durationUSec: 1_000_000)
        try setup.waitForExpired("while_bluez_is_away")

        try setup.bluez.start()
        try setup.restd.waitForLog(containing: "bluetoothd is on the system bus")
        try setup.bluez.addAdapter()
        let again = try setup.bluez.addStrap(address: Self.polar.address, alias: Self.polar.alias, connected: true)
        try setup.waitForStartNotify(again, count: 2)  // one for each bluetoothd
        try setup.bluez.notify(again, [0x00, 0x50])
        try setup.waitForFieldsByGdbus(containing: "'heart_rate': <int64 80>")
    }

    @Test("contact lost: heart_rate_contact false at once, the heart rate goes stale by the usual rule")
    func contactLost() throws {
        let setup = try Setup(config: "[live]\nheart_rate_staleness = \"2s\"\n")
        let strap = try setup.bluez.addStrap(address: Self.polar.address, alias: Self.polar.alias, connected: true)
        try setup.waitForStartNotify(strap)
        let watch = try WatchProcess(bus: setup.session, arguments: ["--json"])
        try setup.bluez.notify(strap, [0x16, 0x48, 0x2C, 0x03])
        try watch.waitForLine { $0.contains(#""heart_rate":72,"#) && $0.contains(#""heart_rate_contact":true"#) }
        // Off the skin: a Polar strap sends 0 bpm with "contact supported, not detected".
        try setup.bluez.notify(strap, [0x04, 0x00])
        try watch.waitForLine { $0.contains(#""heart_rate":72,"#) && $0.contains(#""heart_rate_contact":false"#) }
        // Still off the skin, sending five times a second (the interval paces the strap): the
        // value goes stale and is removed, the contact stays reported.
        try waitUntil(
            "heart_rate gone, contact still false", interval: 0.2,
            details: { "restctl watch --json:\n\(watch.lines.joined(separator: "\n"))" }
        ) {
            try setup.bluez.notify(strap, [0x04, 0x00])
            return watch.lines.contains {
                !$0.contains("\"heart_rate\":") && $0.contains(#""heart_rate_contact":false"#)
            }
        }
        // Bar text: no heart rate shown without contact.
        let bar = try WatchProcess(bus: setup.session, arguments: ["--format", "i3blocks"])
        try bar.waitForLine { $0 == "idle" }
        bar.stop()
        watch.stop()
    }

    @Test("a producer's Live.Update wins over the strap for 10 s")
    func producerWins() throws {
        let setup = try Setup()
        let strap = try setup.bluez.addStrap(address: Self.polar.address, alias: Self.polar.alias, connected: true)
        try setup.waitForStartNotify(strap)
        try setup.bluez.notify(strap, [0x00, 0x48])
        try setup.waitForFieldsByGdbus(containing: "'heart_rate': <int64 72>")
        let override = restctl(setup.session, "live", "--heart-rate", "130")
        #expect(override.succeeded, "\(override)")
        try setup.waitForFieldsByGdbus(containing: "'heart_rate': <int64 130>")
        #expect(!setup.fieldsByGdbus().contains("heart_rate_sensor"))
        try setup.bluez.notify(strap, [0x00, 0x49])
        // The strap's reading was set aside: a later producer field arrives alone.
        #expect(restctl(setup.session, "live", "--done", "1", "--total", "5").succeeded)
        try setup.waitForFieldsByGdbus(containing: "'progress_done': <int64 1>")
        #expect(setup.fieldsByGdbus().contains("'heart_rate': <int64 130>"))
    }

    // Real time: restd's answers and a timer's Expired on time while BlueZ hangs.
    @Test(
        "a BlueZ that never answers StartNotify: one warning after the timeout, timers and replies on time",
        .tags(.realTime))
    func startNotifyNeverAnswers() throws {
        let setup = try Setup()
        // The mock blocks in StartNotify: bluetoothd hung in the middle of a call.
        _ = try setup.bluez.addStrap(
            address: Self.polar.address, alias: Self.polar.alias, connected: true,
            startNotifyCode: "import time; time.sleep(60)")
        try setup.restd.waitForLog(containing: "reading heart rate from Polar H10 1234")
        try setup.client.start(id: "while_bluez_hangs", durationUSec: 1_000_000)
        let started = Stopwatch()
        _ = try setup.client.timers()
        #expect(started.elapsed < 1, "restd answered late while BlueZ hung")
        try setup.expectExpiredOnTime("while_bluez_hangs")
        let log = try setup.restd.waitForLog(containing: "BlueZ did not subscribe to the heart rate of Polar H10 1234")
        #expect(log.components(separatedBy: "BlueZ did not subscribe").count == 2, "\(log)")
        #expect(setup.restd.isRunning)
        setup.bluez.kill()
    }

    // Real time: a strap paced at 100 Hz, the broadcasts counted against the time it took, the timer on time.
    @Test(
        "100 notifications a second are throttled like any producer; the last value is published",
        .tags(.realTime))
    func floodIsThrottled() throws {
        let setup = try Setup()
        let strap = try setup.bluez.addStrap(address: Self.polar.address, alias: Self.polar.alias, connected: true)
        try setup.waitForStartNotify(strap)
        try setup.client.start(id: "during_flood", durationUSec: 2_000_000)
        let started = Stopwatch()
        // 300 values, 10 ms apart (pacing the load, not asserting time): 60…209 bpm twice over.
        var last: UInt8 = 0
        for index in 0..<300 {
            last = UInt8(60 + index % 150)
            try setup.bluez.notify(strap, [0x00, last])
            usleep(10_000)  // pacing the strap, not waiting for anything
        }
        let elapsed = started.elapsed
        // The trailing edge carries the last value.
        try setup.signals.waitFor("the broadcast of \(last) bpm") {
            $0.member == "PropertiesChanged"
                && $0.changedProperties["Fields"]?.vardictEntries?["heart_rate"] == .int64(Int64(last))
        }
        let broadcasts = setup.signals.received.filter {
            $0.member == "PropertiesChanged" && $0.changedProperties["Fields"] != nil
        }.count
        // The broadcast rate is 2 per second: one leading edge, then at most one per half second.
        #expect(broadcasts >= 2 && Double(broadcasts) <= elapsed * 2 + 2, "\(broadcasts) broadcasts in \(elapsed) s")
        try setup.expectExpiredOnTime("during_flood")
    }

    @Test("no system bus at all: one info line, no sensors, everything else as usual")
    func noSystemBus() throws {
        let daemon = try RunningDaemon()  // its system bus address leads nowhere
        let log = try daemon.restd.waitForLog(
            containing: "no heart rate from Bluetooth: cannot connect to the system bus")
        #expect(log.components(separatedBy: "heart rate from Bluetooth").count == 2, "\(log)")
        let json = restctl(daemon.bus, "sensors", "--json")
        #expect(json.succeeded && json.stdout == "[]\n", "\(json)")
        let text = restctl(daemon.bus, "sensors")
        #expect(text.succeeded && text.stdout.isEmpty, "\(text)")
        // Not silent: stderr passes on restd's reason.
        #expect(
            text.stderr.hasPrefix("restctl: restd sees no heart-rate strap: cannot connect to the system bus ("),
            "\(text)")
        #expect(!text.stderr.contains("pair one"), "\(text)")
        #expect(restctl(daemon.bus, "start", "30s").succeeded)
    }

    @Test("bluetooth = \"off\": restd does not touch the system bus")
    func off() throws {
        let setup = try Setup(config: "[heart_rate]\nbluetooth = \"off\"\n")
        let strap = try setup.bluez.addStrap(address: Self.polar.address, alias: Self.polar.alias, connected: true)
        try setup.bluez.notify(strap, [0x00, 0x48])
        #expect(try setup.sensors().isEmpty)
        let text = restctl(setup.session, "sensors")
        #expect(
            text.stderr
                == "restctl: restd sees no heart-rate strap: [heart_rate] bluetooth is \"off\" in restd's config.toml\n",
            "\(text)")
        // restd never connected: the system bus has only the mock and the test's own watchers.
        let peers = busctl(setup.system, "list", "--no-legend", "--unique")
        let restdPeers = peers.stdout.split(separator: "\n").filter { $0.contains(" \(setup.restd.pid) ") }
        #expect(restdPeers.isEmpty, "\(peers.stdout)")
        #expect(setup.startNotifyCount(strap) == 0)
    }

    @Test("idle restd following BlueZ, no strap connected: 0 wake-ups")
    func idleWakeUps() async throws {
        let setup = try Setup()
        try setup.bluez.addStrap(address: Self.polar.address, alias: Self.polar.alias, battery: 55, connected: false)
        try waitUntil("the strap in restctl sensors") { try setup.sensors().count == 1 }
        let wakeUps = try await ProcessActivity.wakeUps(setup.restd.pid, over: 3)
        #expect(wakeUps == 0, "restd woke \(wakeUps) times in 3 s with nothing to do")
    }
}
