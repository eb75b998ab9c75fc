import DBusKit
import Foundation
import ProcessHarness
import RestClient
import RestProtocol
import Testing

/// restd as an MPRIS player, driven by clients nobody here wrote: `playerctl` and GLib's GDBus
/// (`gdbus call`, `gdbus introspect`). Waits on replies, signals and the bus's own
/// NameOwnerChanged, never on time.
@Suite("MPRIS player", .serialized, .tags(.everyBus, .calendar))
struct MediaPlayerTests {
    static let enabled = "[mpris]\nenabled = true\n"

    /// A restd with `config` on a private bus, a client, and a watcher of the MPRIS object's
    /// signals and of the MPRIS name's owner.
    @dynamicMemberLookup
    final class Player {
        let daemon: RunningDaemon
        let watcher: SignalWatcher
        var bus: TestBus { daemon.bus }

        init(config text: String = MediaPlayerTests.enabled) throws {
            let bus = try TestBus()
            // Watching before restd starts, so that nothing it does on the bus goes unseen.
            watcher = try SignalWatcher(
                bus: bus,
                rules: [
                    MessageBus.nameOwnerChangedRule(name: MediaPlayerBus.name),
                    "type='signal',path='\(MediaPlayerBus.path)'",
                    "type='signal',sender='\(RestBus.name)',member='Expired'",
                ])
            daemon = try RunningDaemon(bus: bus, config: text)
        }

        subscript<Value>(dynamicMember path: KeyPath<RunningDaemon, Value>) -> Value { daemon[keyPath: path] }

        /// kill -9, then a new restd on the same state, configuration and bus.
        func crashAndRestart() throws { try daemon.crashAndRestart() }

        /// Whether org.mpris.MediaPlayer2.restd has an owner, as the bus says.
        func nameOwned() throws -> Bool {
            let message = try Message.methodCall(
                destination: MessageBus.name, path: MessageBus.path,
                interface: MessageBus.interface, member: "NameHasOwner")
            try message.append([.string(MediaPlayerBus.name)])
            return try watcher.connection.callBlocking(message, timeoutMilliseconds: 30_000).arguments().first?.bool
                ?? false
        }

        /// Waits until the bus announces that the name was taken (true) or given back (false).
        func waitForName(owned: Bool) throws {
            try watcher.waitFor(owned ? "\(MediaPlayerBus.name) taken" : "\(MediaPlayerBus.name) released") { message in
                guard let change = message.nameOwnerChange, change.name == MediaPlayerBus.name else { return false }
                return change.newOwner.isEmpty != owned
            }
        }

        /// Every signal restd sent before now has reached the watcher: restd answers a Ping only
        /// after what it queued before, and the bus keeps one sender's messages in order.
        func syncWatcher() throws {
            let ping = try Message.methodCall(
                destination: RestBus.name, path: "/", interface: "org.freedesktop.DBus.Peer",
                member: "Ping")
            _ = try watcher.connection.callBlocking(ping, timeoutMilliseconds: 30_000)
            watcher.connection.dispatchAvailable()
        }

        /// The MPRIS object's signals received so far (PropertiesChanged, Seeked).
        var playerSignals: [Message] { watcher.received.filter { $0.path == MediaPlayerBus.path } }

        /// A Player property through GDBus, as `gdbus call` prints it.
        func gdbusGet(_ property: String) -> CommandResult {
            gdbus(
                bus, "call", "--dest", MediaPlayerBus.name, "--object-path", MediaPlayerBus.path,
                "--method", "org.freedesktop.DBus.Properties.Get", MediaPlayerBus.playerInterface, property)
        }

        /// Position through GDBus, in µs.
        func position() throws -> Int64 {
            let result = gdbusGet(MediaPlayerProperty.position)
            // (<int64 12345>,)
            let digits = result.output.split(separator: " ").last?.filter(\.isNumber) ?? ""
            guard result.succeeded, let number = Int64(digits) else {
                throw HarnessError.failed("cannot read Position: \(result)")
            }
            return number
        }
    }

    @Test("the name appears with the followed timer and goes with it; other timers change nothing")
    func nameFollowsTheTimer() throws {
        let player = try Player()
        #expect(try !player.nameOwned())
        let none = playerctl(player.bus, "status")
        #expect(!none.succeeded && none.stderr.contains("No players found"), "\(none)")

        try player.client.start(id: "other", durationUSec: 60_000_000)
        try player.syncWatcher()
        #expect(try !player.nameOwned())

        #expect(restctl(player.bus, "start", "90s").succeeded)
        try player.waitForName(owned: true)
        let list = Command.run(
            ["playerctl", "--list-all"], environment: ["DBUS_SESSION_BUS_ADDRESS": player.bus.address])
        #expect(list.output == "restd", "\(list)")
        let introspection = gdbus(
            player.bus, "introspect", "--dest", MediaPlayerBus.name, "--object-path", MediaPlayerBus.path)
        for part in [
            "interface org.mpris.MediaPlayer2 {", "interface org.mpris.MediaPlayer2.Player {",
            "Seek(in  x Offset);", "SetPosition(in  o TrackId,", "signals:\n      Seeked(x Position);",
            "readonly s Identity = 'Rest timer';", "readonly s DesktopEntry = 'restd';",
            "readonly b CanGoPrevious = false;", "readonly d Rate = 1.0;",
        ] {
            #expect(introspection.stdout.contains(part), "no \(part) in \(introspection)")
        }

        try player.client.cancel(id: "other")
        #expect(restctl(player.bus, "cancel").succeeded)
        try player.waitForName(owned: false)
        #expect(try !player.nameOwned())
        #expect(player.restd.isRunning, "\(player.restd.log())")
    }

    /// A GLib client holding a `Gio.DBusProxy` on the Player, as GNOME Shell's media card does:
    /// it reads the cached properties, presses PlayPause and Seek through the proxy, and waits
    /// (in a GLib main loop) until PropertiesChanged updated its cache and Seeked came.
    static let proxyScript = """
        import sys
        from gi.repository import Gio, GLib
        flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
        bus = Gio.DBusConnection.new_for_address_sync(sys.argv[1], flags, None, None)
        proxy = Gio.DBusProxy.new_sync(bus, Gio.DBusProxyFlags.NONE, None, "org.mpris.MediaPlayer2.restd",
                                       "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Player", None)
        cached = lambda name: proxy.get_cached_property(name).unpack()
        print("status", cached("PlaybackStatus"))
        print("title", cached("Metadata")["xesam:title"])

        def run_until(condition):
            loop = GLib.MainLoop()
            def check(*_):
                if condition(): loop.quit()
            handlers = [proxy.connect("g-properties-changed", check), proxy.connect("g-signal", check)]
            timeout = GLib.timeout_add_seconds(30, loop.quit)
            if not condition(): loop.run()
            GLib.source_remove(timeout)
            for handler in handlers: proxy.disconnect(handler)

        proxy.call_sync("PlayPause", None, Gio.DBusCallFlags.NONE, 30000, None)
        run_until(lambda: cached("PlaybackStatus") == "Paused")
        print("status", cached("PlaybackStatus"))

        seeked = []
        proxy.connect("g-signal", lambda p, sender, name, args: seeked.append(args.unpack()[0]) if name == "Seeked" else None)
        proxy.call_sync("Seek", GLib.Variant("(x)", (-30000000,)), Gio.DBusCallFlags.NONE, 30000, None)
        run_until(lambda: len(seeked) > 0)
        print("seeked", len(seeked))
        print("length", cached("Metadata")["mpris:length"])
        """

    @Test("a GDBus proxy (python3-gi) sees the cached properties change and Seeked come, and its calls are committed")
    func gdbusProxy() throws {
        let player = try Player()
        try player.client.start(id: "default", durationUSec: 90_000_000, label: "Squat")
        try player.waitForName(owned: true)
        let result = Command.run(["/usr/bin/python3", "-c", Self.proxyScript, player.bus.address], timeout: 60)
        #expect(result.succeeded, "\(result)")
        #expect(
            result.stdout == "status Playing\ntitle Squat\nstatus Paused\nseeked 1\nlength 120000000\n", "\(result)")
        let timer = try player.client.timer(id: "default")
        #expect(timer.state == "paused" && timer.durationUSec == 120_000_000)
    }

    @Test("a restd restarted after kill -9 on a stored followed timer owns the name again")
    func restartedOnState() throws {
        let player = try Player()
        try player.client.start(id: "default", durationUSec: 600_000_000, label: "Squat")
        try player.client.pause(id: "default")
        try player.waitForName(owned: true)
        try player.crashAndRestart()
        try player.waitForName(owned: false)
        player.watcher.discardReceived()
        if try !player.nameOwned() { try player.waitForName(owned: true) }
        #expect(playerctl(player.bus, "status").output == "Paused")
        #expect(playerctl(player.bus, "metadata", "xesam:title").output == "Squat")
    }

    @Test("playerctl status, metadata, play-pause, next and stop drive the rest through the commit path")
    func playerctlDrivesTheRest() throws {
        let player = try Player()
        try player.client.updateLive([
            "workout": .string("Push day"), "heart_rate": .int32(142),
            "progress_done": .int32(3), "progress_total": .int32(5),
        ])
        try player.client.start(id: "default", durationUSec: 90_000_000, label: "Squat", next: "Bench press")
        try player.waitForName(owned: true)

        #expect(playerctl(player.bus, "status").output == "Playing")
        let metadata = playerctl(player.bus, "metadata")
        let lines = metadata.output.split(separator: "\n").map {
            $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        }
        #expect(
            lines == [
                "restd mpris:length 90000000",
                "restd mpris:trackid '/io/restd/Rest1/timer/default'",
                "restd xesam:album Push day",
                "restd xesam:artist Next: Bench press",
                "restd xesam:comment ♥ 142 bpm · 3/5",
                "restd xesam:title Squat",
            ], "\(metadata)")
        #expect(
            playerctl(player.bus, "metadata", "--format", "{{title}} — {{artist}}").output
                == "Squat — Next: Bench press")

        // play-pause: the same committed, acknowledged pause as `restctl pause`.
        #expect(playerctl(player.bus, "play-pause").succeeded)
        #expect(try player.client.timer(id: "default").state == "paused")
        #expect(playerctl(player.bus, "status").output == "Paused")
        #expect(restctl(player.bus, "status").output.hasPrefix("default  paused"))
        #expect(playerctl(player.bus, "play-pause").succeeded)
        #expect(try player.client.timer(id: "default").state == "running")

        // next: the rest ends now, without Expired or "Rest over"; on a rest that is over, it runs again.
        #expect(playerctl(player.bus, "next").succeeded)
        #expect(try player.client.timer(id: "default").state == "expired")
        #expect(playerctl(player.bus, "status").output == "Stopped")
        try player.syncWatcher()
        let statuses = player.playerSignals.compactMap {
            $0.changedProperties[MediaPlayerProperty.playbackStatus]?.string
        }
        #expect(statuses == ["Paused", "Playing", "Stopped"])
        #expect(!player.watcher.received.contains { $0.member == "Expired" })
        #expect(playerctl(player.bus, "next").succeeded)
        #expect(try player.client.timer(id: "default").state == "running")

        // stop: the timer is cancelled, and the player goes with it.
        #expect(playerctl(player.bus, "stop").succeeded)
        #expect(try player.client.timers().isEmpty)
        try player.waitForName(owned: false)
    }

    @Test("Position read twice a second apart advanced by that second, with no signal in between")
    func positionIsComputedWhenRead() throws {
        let player = try Player()
        try player.client.start(id: "default", durationUSec: 600_000_000)
        try player.waitForName(owned: true)
        try player.syncWatcher()
        let signalsBefore = player.playerSignals.count

        let before = RunningDaemon.realtimeNow()
        let first = try player.position()
        let between = RunningDaemon.realtimeNow()
        try RunningDaemon.waitUntilPast(between + 1_000_000)
        let second = try player.position()
        let after = RunningDaemon.realtimeNow()
        // restd read the clock once inside each call: the two readings are at least the second
        // waited apart, and at most the whole time the two calls took.
        #expect(second - first >= 1_000_000, "\(first) then \(second)")
        #expect(second - first <= Int64(after - before), "\(first) then \(second) within \(after - before) µs")
        let seconds = Double(playerctl(player.bus, "position").output) ?? -1
        #expect(seconds * 1_000_000 >= Double(second), "playerctl position \(seconds)")

        try player.syncWatcher()
        #expect(player.playerSignals.count == signalsBefore, "\(player.playerSignals.map { $0.member ?? "" })")
    }

    @Test("a Seek by GDBus and by playerctl changes the time left that restctl status shows, with Seeked")
    func seekShowsInRestctlStatus() throws {
        let player = try Player()
        try player.client.start(id: "default", durationUSec: 90_000_000, label: "Squat")
        try player.waitForName(owned: true)
        #expect(playerctl(player.bus, "pause").succeeded)
        let before = try player.client.timer(id: "default")

        // Back 30 s: 30 s more rest.
        let back = gdbus(
            player.bus, "call", "--dest", MediaPlayerBus.name, "--object-path", MediaPlayerBus.path,
            "--method", "org.mpris.MediaPlayer2.Player.Seek", "--", "-30000000")
        #expect(back.succeeded, "\(back)")
        let added = try player.client.timer(id: "default")
        #expect(added.remainingUSec == before.remainingUSec + 30_000_000)
        #expect(added.durationUSec == 120_000_000)
        let status = restctl(player.bus, "status", "--json")
        #expect(status.output.contains("\"remaining_usec\":\(added.remainingUSec)"), "\(status)")
        #expect(restctl(player.bus, "status").output.contains(TimeFormat.countdown(usec: added.remainingUSec)))

        // Forward 10 s with playerctl: 10 s less.
        #expect(playerctl(player.bus, "position", "10+").succeeded)
        #expect(try player.client.timer(id: "default").remainingUSec == added.remainingUSec - 10_000_000)

        try player.syncWatcher()
        let seeked = player.playerSignals.filter { $0.member == "Seeked" }
        #expect(seeked.count == 2)
        let lengths = player.playerSignals.compactMap {
            $0.changedProperties[MediaPlayerProperty.metadata]?.vardictEntries?[MediaPlayerMetadataKey.length]
        }
        #expect(lengths == [.int64(120_000_000), .int64(110_000_000)])
        // The position does not move when time is added or removed: the length does.
        #expect(
            seeked.map { $0.arguments() }
                == Array(repeating: [.int64(Int64(90_000_000 - before.remainingUSec))], count: 2))
    }

    @Test("enabled and disabled by SIGHUP: the name comes and goes with the configuration")
    func reloadTurnsItOnAndOff() throws {
        let player = try Player(config: "")
        try player.client.start(id: "squat", durationUSec: 300_000_000)
        try player.syncWatcher()
        #expect(try !player.nameOwned())

        try player.config.write("[mpris]\nenabled = true\ntimer = \"squat\"\n")
        player.restd.signal(SIGHUP)
        try player.waitForName(owned: true)
        #expect(playerctl(player.bus, "metadata", "mpris:trackid").output == "'/io/restd/Rest1/timer/squat'")

        try player.config.write("[mpris]\nenabled = false\ntimer = \"squat\"\n")
        player.restd.signal(SIGHUP)
        try player.waitForName(owned: false)
        #expect(try player.client.timer(id: "squat").state == "running")
    }

    @Test("a player is born with the live activity as it is now: album and comment at once, not 5 s later")
    func bornWithTheLiveFields() throws {
        let player = try Player()
        try player.client.updateLive(["workout": .string("Push day"), "heart_rate": .int32(100)])
        try player.client.updateLive(["heart_rate": .int32(120)])  // held back by the 5 s throttle
        try player.client.start(id: "default", durationUSec: 600_000_000)
        try player.waitForName(owned: true)
        // What a widget reads the moment the player appears.
        let metadata = playerctl(player.bus, "metadata", "--format", "{{xesam:album}}|{{xesam:comment}}")
        #expect(metadata.output == "Push day|♥ 120 bpm", "\(metadata)")
    }

    // Real time: the throttle's 5 s interval through the real daemon (its logic: ThrottledStream on the hand-moved clock).
    @Test(
        "heart rate changes reach Metadata at most once every 5 s: the first at once, the last at the end",
        .tags(.realTime))
    func liveCommentIsThrottled() throws {
        let player = try Player()
        try player.client.start(id: "default", durationUSec: 600_000_000)
        try player.waitForName(owned: true)
        let started = Stopwatch()
        for bpm in [100, 101, 102] { try player.client.updateLive(["heart_rate": .int32(Int32(bpm))]) }
        try player.syncWatcher()
        // A precondition: the three updates came within one interval.
        #expect(started.elapsed < 4, "the updates took too long to test the throttle")
        let comments = {
            player.playerSignals.compactMap {
                $0.changedProperties[MediaPlayerProperty.metadata]?.vardictEntries?[MediaPlayerMetadataKey.comment]
            }
        }
        #expect(comments() == [.strings(["♥ 100 bpm"])])
        try player.watcher.waitFor("the trailing Metadata") { message in
            message.changedProperties[MediaPlayerProperty.metadata]?.vardictEntries?[MediaPlayerMetadataKey.comment]
                == .strings(["♥ 102 bpm"])
        }
        #expect(started.elapsed >= 4.9)
        #expect(comments() == [.strings(["♥ 100 bpm"]), .strings(["♥ 102 bpm"])])
    }

    enum Quiet: String, CaseIterable, CustomTestStringConvertible {
        case idle, paused
        var testDescription: String { rawValue }
    }

    @Test(
        "with MPRIS enabled, restd does not wake while idle or while the followed rest is paused",
        arguments: Quiet.allCases)
    func sleepsWithMediaPlayer(_ quiet: Quiet) async throws {
        let player = try Player()
        switch quiet {
        case .idle:
            try player.client.start(id: "default", durationUSec: 60_000_000)
            try player.waitForName(owned: true)
            #expect(restctl(player.bus, "cancel").succeeded)
            try player.waitForName(owned: false)
        case .paused:
            try player.client.updateLive([
                "workout": .string("Push day"), "progress_done": .int32(1),
                "progress_total": .int32(5),
            ])
            try player.client.start(id: "default", durationUSec: 600_000_000)
            try player.waitForName(owned: true)
            // The player is new, so its Metadata follows at once; the live broadcast within 0.5 s.
            try player.client.updateLive(["progress_done": .int32(2)])
            #expect(playerctl(player.bus, "pause").succeeded)
            try player.watcher.waitFor("the Metadata with 2/5") { message in
                message.changedProperties[MediaPlayerProperty.metadata]?.vardictEntries?[MediaPlayerMetadataKey.comment]
                    == .strings(["2/5"])
            }
            try waitUntil("the live broadcast of 2/5") { try player.client.liveFields()["progress_done"] == .int64(2) }
            #expect(playerctl(player.bus, "status").output == "Paused")
        }
        #expect(try ProcessActivity.threads(player.restd.pid) == 1, "\(player.restd.log())")
        let wakeUps = try await ProcessActivity.wakeUps(player.restd.pid, over: SleepTests.quietSeconds)
        #expect(wakeUps == 0, "restd woke \(wakeUps) times in \(SleepTests.quietSeconds) s\n\(player.restd.log())")
    }
}
