import DBusKit
import Foundation
import ProcessHarness
import RestClient
import RestProtocol
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A private bus with a recorder of mock-server calls, restd's signals, maybe a notification
/// server, and restd (verbose, so that repeated failures show up in its log).
@dynamicMemberLookup
final class NotifyingDaemon {
    let daemon: RunningDaemon
    let calls: MockCalls
    let signals: SignalWatcher
    var server: NotificationServer?
    var bus: TestBus { daemon.bus }
    /// XDG_CONFIG_HOME: restd/config.toml inside is what restd reads (and reads again on SIGHUP).
    var configHome: TempDirectory { daemon.config.directory }

    /// - capabilities: those of the mock server to start first; nil starts none.
    /// - locale: LC_ALL for restd (set explicitly, so that the tests do not depend on the caller's).
    /// - serviceDirectories: for D-Bus activation.
    /// - config: the text of restd's config.toml; nil for none (the defaults).
    /// - environment: more of restd's environment (a sound server's `clientEnvironment`).
    init(
        capabilities: [String]? = NotificationServer.fullCapabilities, locale: String = "C.UTF-8",
        serviceDirectories: [String] = [], config: String? = nil, environment: [String: String] = [:]
    ) throws {
        let bus = try TestBus(serviceDirectories: serviceDirectories)
        calls = try MockCalls(bus: bus)
        signals = try SignalWatcher.restd(bus: bus)
        if let capabilities { server = try NotificationServer(bus: bus, capabilities: capabilities) }
        daemon = try RunningDaemon(
            bus: bus, config: config, environment: environment.merging(["LC_ALL": locale]) { _, locale in locale },
            arguments: ["--verbose"])
    }

    subscript<Value>(dynamicMember path: KeyPath<RunningDaemon, Value>) -> Value { daemon[keyPath: path] }

    /// Writes a new config.toml and sends SIGHUP; returns once restd has logged the reload.
    func reload(config: String) throws {
        try daemon.config.write(config)
        let before = daemon.restd.log().components(separatedBy: "reloaded the configuration").count - 1
        daemon.restd.signal(SIGHUP)
        try daemon.restd.waitForLog(containing: "reloaded the configuration", count: before + 1)
    }

    /// kill -9 restd, let `change` edit its state file, and start it again.
    func restartRestd(editingState change: () throws -> Void) throws {
        daemon.restd.kill9()
        try change()
        try daemon.start()
    }

    /// Waits for the Expired signal of `id`: its deadline and when restd fired it.
    @discardableResult
    func expired(_ id: String) throws -> (deadline: UInt64, fired: UInt64) {
        let signal = try signals.waitFor("Expired of \(id)") {
            $0.member == "Expired" && $0.arguments().first == .string(id)
        }
        let arguments = signal.arguments()
        return (arguments[2].uint64 ?? 0, arguments[3].uint64 ?? 0)
    }

    /// Expired for `id` came on time: restd did not wait for any notification server (whose
    /// calls may take up to 2 s) before expiring it.
    func expectOnTime(_ id: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (deadline, fired) = try expired(id)
        let late = Int64(bitPattern: fired &- deadline)  // signed: a wall-clock step could make it negative
        #expect(deadline > 0 && late >= 0, "fired \(late) µs late", sourceLocation: sourceLocation)
        #expect(late < 1_000_000, "fired \(late) µs late", sourceLocation: sourceLocation)
    }

    /// Starts a 1 s timer and waits for its Expired, which has to come on time.
    func startAndExpireOnTime(_ id: String, label: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try daemon.client.start(id: id, durationUSec: 1_000_000, label: label)
        try expectOnTime(id, sourceLocation: sourceLocation)
    }

    /// A call to restd is answered at once (well under the 2 s a notification call may take).
    func expectPromptAnswer(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let start = Stopwatch()
        _ = try daemon.client.timers()
        let elapsed = start.elapsed
        #expect(elapsed < 1, "restd took \(elapsed) s to answer", sourceLocation: sourceLocation)
    }

    /// Emits a signal from the mock server.
    func serverEmits(_ signal: String, _ signature: String, _ arguments: DBusValue...) throws {
        try #require(server).emit(signal, signature: signature, arguments)
    }

    func warnings() -> Int {
        daemon.restd.log().components(separatedBy: "cannot show desktop notifications").count - 1
    }
}

/// Desktop notifications on a private bus, with python-dbusmock as the notification server.
@Suite("Notifications", .serialized, .tags(.everyBus, .calendar))
struct NotificationTests {
    // MARK: What is shown

    @Test("Rest over: arguments and hints as the server receives them; capabilities asked once")
    func restOverArguments() throws {
        let daemon = try NotifyingDaemon()
        try daemon.client.start(id: "squat", durationUSec: 1_000_000, label: "Squat", next: "Bench press")
        try daemon.expired("squat")
        let notify = try #require(try daemon.calls.waitFor("Notify").first)
        #expect(notify.appName == "restd")
        #expect(notify.replacesID == 0)
        #expect(notify.icon == "appointment-soon")
        #expect(notify.summary == "Rest over")
        #expect(notify.body == "Squat · Next: Bench press")
        #expect(notify.actions == ["default", "Dismiss", "add_30s", "+30 s", "restart", "Again"])
        #expect(
            notify.hints == [
                "urgency": .byte(2), "category": .string("x-restd.timer"),
                "suppress-sound": .boolean(true), "desktop-entry": .string("restd"),
            ])
        #expect(notify.expireTimeout == 0)

        try daemon.client.start(id: "bench", durationUSec: 1_000_000)
        let second = try daemon.calls.waitFor("Notify", count: 2)[1]
        #expect(second.body == "bench")
        #expect(daemon.calls.calls("GetCapabilities").count == 1, "\(daemon.calls.calls("GetCapabilities"))")
        #expect(daemon.warnings() == 0, "\(daemon.restd.log())")
    }

    @Test("Rest over after a record set says the record, in pounds when [history] weight_unit is lb")
    func restOverSaysTheRecordInPounds() throws {
        let daemon = try NotifyingDaemon(config: "[history]\nweight_unit = \"lb\"\n")
        // 225 lb (102.06 kg) × 5, then 245 lb (111.13 kg) × 3: heavier, and a better estimate.
        _ = try daemon.client.completeSet(
            id: "squat", exercise: "Squat", reps: 5, weightKg: 102.06, restUSec: 600_000_000)
        _ = try daemon.client.completeSet(
            id: "squat", exercise: "Squat", reps: 3, weightKg: 111.13, restUSec: 1_000_000)
        try daemon.expired("squat")
        let notify = try #require(try daemon.calls.waitFor("Notify").last)
        #expect(notify.summary == "Rest over")
        #expect(
            (notify.body ?? "").hasSuffix(
                "\nrecord: Squat 245 lb × 3, heaviest (was 225 lb), estimated 1RM 269.5 lb (was 262.5)"),
            "\(notify.body)")
    }

    @Test(
        "actions only when advertised, escaped markup only when advertised",
        arguments: [
            ["body", "body-markup", "actions"], ["body", "actions"], ["body", "body-markup"], ["body"],
        ])
    func capabilityVariants(_ capabilities: [String]) throws {
        let daemon = try NotifyingDaemon(capabilities: capabilities)
        try daemon.client.start(id: "t", durationUSec: 1_000_000, label: "<b>x</b> & y", next: "a<i>b")
        let notify = try #require(try daemon.calls.waitFor("Notify").first)
        if capabilities.contains("body-markup") {
            #expect(notify.body == "&lt;b&gt;x&lt;/b&gt; &amp; y · Next: a&lt;i&gt;b")
        } else {
            #expect(notify.body == "<b>x</b> & y · Next: a<i>b")
        }
        #expect(
            notify.actions
                == (capabilities.contains("actions")
                    ? ["default", "Dismiss", "add_30s", "+30 s", "restart", "Again"] : []))
        #expect(notify.summary == "Rest over")
    }

    @Test("German from the German catalog when LC_ALL selects de_DE.UTF-8")
    func german() throws {
        try German.requireCatalog()
        let daemon = try NotifyingDaemon(locale: German.locale, environment: ["LOCPATH": "/nonexistent"])
        try daemon.client.start(id: "squat", durationUSec: 1_000_000, label: "Kniebeuge", next: "Bankdrücken")
        let notify = try #require(try daemon.calls.waitFor("Notify").first)
        #expect(notify.summary == "Pause beendet")
        #expect(notify.body == "Kniebeuge · Weiter mit: Bankdrücken")
        #expect(notify.actions == ["default", "Schließen", "add_30s", "+30 s", "restart", "Nochmal"])
    }

    @Test("a timer started with notify false shows nothing, and Expired still comes")
    func notifyFalse() throws {
        let daemon = try NotifyingDaemon()
        try daemon.client.start(id: "quiet", durationUSec: 1_000_000, notify: false)
        try daemon.client.start(id: "loud", durationUSec: 2_000_000)
        try daemon.expired("quiet")
        let notify = try daemon.calls.waitFor("Notify")
        // Notifications are asked for in order of expiry: had "quiet" had one, it would be first.
        #expect(notify.map(\.body) == ["loud"])
    }

    // MARK: Actions

    @Test("+30 s runs the expired timer again for 30 s and closes its notification; ActivationToken is ignored")
    func addThirtySeconds() throws {
        let daemon = try NotifyingDaemon()
        try daemon.client.start(id: "t", durationUSec: 1_000_000)
        try daemon.expired("t")
        let notify = try #require(try daemon.calls.waitFor("Notify").first)
        let id = 1  // the template numbers notifications 1, 2, 3…
        try daemon.serverEmits("ActivationToken", "us", .uint32(UInt32(id)), .string("token-123"))
        try daemon.serverEmits("ActionInvoked", "us", .uint32(UInt32(id)), .string("add_30s"))
        let close = try #require(try daemon.calls.waitFor("CloseNotification").first)
        #expect(close.closedID == Int64(id))
        let timer = try daemon.client.timer(id: "t")
        #expect(timer.state == "running")
        #expect(timer.durationUSec == 30_000_000)
        #expect(notify.replacesID == 0)
        #expect(daemon.restd.isRunning)
        #expect(!daemon.restd.log().contains("error"), "\(daemon.restd.log())")
    }

    @Test("Again restarts the timer with the duration of its Start")
    func again() throws {
        let daemon = try NotifyingDaemon()
        try daemon.client.start(id: "t", durationUSec: 1_000_000)
        try daemon.client.adjust(id: "t", deltaUSec: 1_000_000)  // this run: 2 s; Start said 1 s
        try daemon.expired("t")
        try daemon.calls.waitFor("Notify")
        try daemon.serverEmits("ActionInvoked", "us", .uint32(1), .string("restart"))
        let restarted = try daemon.signals.waitFor("the restart") {
            $0.member == "PropertiesChanged" && $0.changedProperties["State"] == .string("running")
        }
        #expect(restarted.changedProperties["DurationUSec"] == .uint64(1_000_000))
        #expect(try #require(try daemon.calls.waitFor("CloseNotification").first).closedID == 1)
        // The new run ends with a new notification.
        #expect(try daemon.calls.waitFor("Notify", count: 2)[1].summary == "Rest over")
    }

    @Test("the default action dismisses; ids restd did not create and other senders are ignored")
    func defaultActionAndStrangers() throws {
        let daemon = try NotifyingDaemon()
        try daemon.client.start(id: "t", durationUSec: 1_000_000)
        try daemon.expired("t")
        try daemon.calls.waitFor("Notify")
        // Not restd's notification: nothing happens.
        try daemon.serverEmits("ActionInvoked", "us", .uint32(999), .string("restart"))
        try daemon.serverEmits("NotificationClosed", "uu", .uint32(999), .uint32(2))
        // Restd's id, but not from the notification server. (Sent with the project's binding:
        // `gdbus emit` fails now and then with "Error flushing connection: The connection is
        // closed", 69 times in 400 in a loop on this machine.)
        let stranger = try Connection.open(address: daemon.bus.address)
        let forged = try Message.signal(
            path: NotificationServer.path, interface: NotificationServer.interface,
            name: "ActionInvoked")
        try forged.append([.uint32(1), .string("restart")])
        #expect(stranger.send(forged))
        // The bus routes each connection's messages in order: once it has answered this, the
        // forged signal is on its way to restd, ahead of anything sent after.
        let ping = try Message.methodCall(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
            interface: "org.freedesktop.DBus.Peer", member: "Ping")
        _ = try stranger.callBlocking(ping, timeoutMilliseconds: 30_000)
        // The real thing, last: once its effect is seen, the others have been handled too.
        try daemon.serverEmits("ActionInvoked", "us", .uint32(1), .string("default"))
        let close = try daemon.calls.waitFor("CloseNotification")
        #expect(close.map(\.closedID) == [1])
        let timer = try daemon.client.timer(id: "t")
        #expect(timer.state == "expired", "no action restarted it")
        #expect(daemon.calls.calls("Notify").count == 1)
    }

    // MARK: [notifications] in config.toml

    @Test("urgency and buttons come from config.toml, in its order; the pre-alert stays low and without buttons")
    func styleFromConfig() throws {
        let daemon = try NotifyingDaemon(
            config: """
                [notifications]
                urgency = "normal"
                actions = ["cancel", "add_1m"]
                """)
        try daemon.client.start(id: "t", durationUSec: 2_000_000, label: "Plank", warnUSec: 1_000_000)
        let shown = try daemon.calls.waitFor("Notify", count: 2)
        let (warning, expiry) = (shown[0], shown[1])
        #expect(warning.hints?["urgency"] == .byte(0))
        #expect(warning.actions == [])
        #expect(expiry.summary == "Rest over")
        #expect(expiry.hints?["urgency"] == .byte(1))
        #expect(expiry.actions == ["default", "Dismiss", "cancel", "Cancel", "add_1m", "+1 min"])
        #expect(expiry.expireTimeout == -1, "only a critical Rest over is kept until dismissed")
    }

    @Test("German labels for every button")
    func germanButtons() throws {
        let daemon = try NotifyingDaemon(
            locale: "de_DE.UTF-8",
            config: """
                [notifications]
                actions = ["add_30s", "add_1m", "restart", "cancel"]
                """)
        try daemon.client.start(id: "t", durationUSec: 1_000_000)
        let notify = try #require(try daemon.calls.waitFor("Notify").first)
        #expect(
            notify.actions == [
                "default", "Schließen", "add_30s", "+30 s", "add_1m", "+1 Min.", "restart", "Nochmal",
                "cancel", "Abbrechen",
            ])
        #expect(notify.hints?["urgency"] == .byte(2))
    }

    @Test("actions = [] leaves only the default action, which dismisses")
    func noButtons() throws {
        let daemon = try NotifyingDaemon(config: "[notifications]\nactions = []\n")
        try daemon.client.start(id: "t", durationUSec: 1_000_000)
        let notify = try #require(try daemon.calls.waitFor("Notify").first)
        #expect(notify.actions == ["default", "Dismiss"])
    }

    @Test("+1 min runs the expired timer again for a minute and closes its notification")
    func addOneMinute() throws {
        let daemon = try NotifyingDaemon(config: "[notifications]\nactions = [\"add_1m\", \"cancel\"]\n")
        try daemon.client.start(id: "t", durationUSec: 1_000_000)
        try daemon.expired("t")
        try daemon.calls.waitFor("Notify")
        try daemon.serverEmits("ActionInvoked", "us", .uint32(1), .string("add_1m"))
        let running = try daemon.signals.waitFor("the +1 min run") {
            $0.member == "PropertiesChanged" && $0.changedProperties["State"] == .string("running")
        }
        #expect(running.changedProperties["DurationUSec"] == .uint64(60_000_000))
        #expect(try #require(try daemon.calls.waitFor("CloseNotification").first).closedID == 1)
        let timer = try daemon.client.timer(id: "t")
        #expect(timer.state == "running" && timer.durationUSec == 60_000_000)
        #expect(timer.remainingUSec > 30_000_000, "a minute, not 30 s")
    }

    @Test("Cancel removes the timer and closes its notification")
    func cancelAction() throws {
        let daemon = try NotifyingDaemon(config: "[notifications]\nactions = [\"add_1m\", \"cancel\"]\n")
        try daemon.client.start(id: "t", durationUSec: 1_000_000)
        try daemon.expired("t")
        try daemon.calls.waitFor("Notify")
        try daemon.serverEmits("ActionInvoked", "us", .uint32(1), .string("cancel"))
        let removed = try daemon.signals.waitFor("the timer's removal") { $0.member == "InterfacesRemoved" }
        #expect(removed.arguments().first == .objectPath(RestBus.timerPath(id: "t")))
        #expect(try #require(try daemon.calls.waitFor("CloseNotification").first).closedID == 1)
        #expect(try daemon.client.timers().isEmpty)
        #expect(!daemon.restd.log().contains("could not be carried out"), "\(daemon.restd.log())")
    }

    @Test("SIGHUP: the next notification has the new urgency and buttons; one already shown keeps its own")
    func reloadChangesTheNextNotification() throws {
        let daemon = try NotifyingDaemon()
        try daemon.client.start(id: "a", durationUSec: 1_000_000)
        let first = try #require(try daemon.calls.waitFor("Notify").first)
        #expect(first.hints?["urgency"] == .byte(2))
        #expect(first.actions == ["default", "Dismiss", "add_30s", "+30 s", "restart", "Again"])

        try daemon.reload(config: "[notifications]\nurgency = \"low\"\nactions = [\"cancel\"]\n")
        try daemon.restd.waitForLog(containing: "changed: notifications.urgency, notifications.actions")
        try daemon.client.start(id: "b", durationUSec: 1_000_000)
        let second = try daemon.calls.waitFor("Notify", count: 2)[1]
        #expect(second.body == "b")
        #expect(second.hints?["urgency"] == .byte(0))
        #expect(second.actions == ["default", "Dismiss", "cancel", "Cancel"])

        // The first notification still offers +30 s, and it still works.
        try daemon.serverEmits("ActionInvoked", "us", .uint32(1), .string("add_30s"))
        #expect(try #require(try daemon.calls.waitFor("CloseNotification").first).closedID == 1)
        #expect(try daemon.client.timer(id: "a").durationUSec == 30_000_000)
    }

    @Test(
        "[sound] command plays at each ring, whatever the notification server can do, and without one",
        arguments: [nil, ["body", "actions"], NotificationServer.fullCapabilities])
    func soundCommand(_ capabilities: [String]?) throws {
        let sounds = try TempDirectory(prefix: "restd-snd")
        // A space in the name: the argv reaches the program as it is, without a shell.
        let played = sounds.path("rest over")
        let daemon = try NotifyingDaemon(
            capabilities: capabilities,
            config: """
                [sound]
                command = ["touch", "\(played)"]
                """)
        try daemon.client.start(id: "t", durationUSec: 1_000_000)
        try daemon.expired("t")
        try daemon.restd.waitForLog(containing: "sound command started: touch")
        try waitForFile(played)
        // Silenced, the ring is not started again, and restd reaps what ran: no zombie.
        #expect(daemon.daemon.run("silence").succeeded)
        try waitUntil("restd has no child left") { children(of: daemon.restd.pid).isEmpty }
        if capabilities != nil { #expect(!daemon.restd.log().contains("warning"), "\(daemon.restd.log())") }
    }

    @Test("a sound command that cannot be started is logged once; a reload brings one that works")
    func soundCommandMissing() throws {
        let daemon = try NotifyingDaemon(
            capabilities: ["body", "actions"],
            config: """
                [sound]
                command = ["/nonexistent/restd-no-player", "x.oga"]
                """)
        try daemon.client.start(id: "a", durationUSec: 1_000_000)
        try daemon.calls.waitFor("Notify")
        try daemon.restd.waitForLog(
            containing: "cannot run the sound command /nonexistent/restd-no-player: No such file or directory")
        // One alarm for every ringing timer: b's rings anew once a's is silenced.
        #expect(daemon.daemon.run("silence").succeeded)
        try daemon.client.start(id: "b", durationUSec: 1_000_000)
        try daemon.calls.waitFor("Notify", count: 2)
        let log = try daemon.restd.waitForLog(containing: "the sound command failed again")
        #expect(log.components(separatedBy: "further failures are logged only with --verbose").count - 1 == 1, "\(log)")
        _ = try daemon.client.timers()
        #expect(daemon.restd.isRunning)

        // SIGHUP: the next Rest over runs the new command.
        let sounds = try TempDirectory(prefix: "restd-snd")
        let played = sounds.path("played")
        try daemon.reload(config: "[sound]\ncommand = [\"touch\", \"\(played)\"]\n")
        try daemon.restd.waitForLog(containing: "changed: sound.command")
        #expect(daemon.daemon.run("silence").succeeded)
        try daemon.client.start(id: "c", durationUSec: 1_000_000)
        try daemon.calls.waitFor("Notify", count: 3)
        try waitForFile(played)
        let after = try daemon.restd.waitForLog(containing: "finished")
        #expect(!after.contains("works again"), "a new command starts with a clean slate")
    }

    // MARK: One notification per timer

    @Test("replacing or cancelling a timer closes its Rest over notification")
    func replaceAndCancelClose() throws {
        let daemon = try NotifyingDaemon()
        try daemon.client.start(id: "a", durationUSec: 1_000_000)
        try daemon.client.start(id: "b", durationUSec: 1_000_000)
        try daemon.expired("a")
        try daemon.expired("b")
        let shown = try daemon.calls.waitFor("Notify", count: 2)
        let ids = Dictionary(
            uniqueKeysWithValues: shown.enumerated().map { ($0.element.body ?? "", Int64($0.offset + 1)) })
        try daemon.client.start(id: "a", durationUSec: 60_000_000, label: "replaced")
        #expect(try daemon.calls.waitFor("CloseNotification").map(\.closedID) == [ids["a"]])
        try daemon.client.cancel(id: "b")
        #expect(try daemon.calls.waitFor("CloseNotification", count: 2).map(\.closedID) == [ids["a"], ids["b"]])
    }

    @Test("the pre-alert is low-urgency and the expiry replaces it")
    func preAlert() throws {
        let daemon = try NotifyingDaemon()
        try daemon.client.start(id: "t", durationUSec: 3_000_000, label: "Plank", warnUSec: 2_000_000)
        let warning = try #require(try daemon.calls.waitFor("Notify").first)
        // Rounded up from what is left when the Notify is built: 2 s, or 1 s on a slow machine.
        #expect(warning.summary == "2 s left" || warning.summary == "1 s left", "\(warning.summary ?? "")")
        #expect(warning.body == "Plank")
        #expect(warning.replacesID == 0)
        #expect(warning.actions == [])
        #expect(warning.hints?["urgency"] == .byte(0))
        #expect(warning.hints?["sound-name"] == nil)
        #expect(warning.expireTimeout == -1)
        try daemon.expired("t")
        let expiry = try daemon.calls.waitFor("Notify", count: 2)[1]
        #expect(expiry.summary == "Rest over")
        #expect(expiry.replacesID == 1, "replaces the pre-alert")
        #expect(expiry.hints?["urgency"] == .byte(2))
        #expect(daemon.calls.calls("CloseNotification").isEmpty)
    }

    // MARK: Late expiry

    @Test("a rest that ended while restd was down says how long ago; one over an hour ago shows nothing")
    func lateExpiry() throws {
        let daemon = try NotifyingDaemon()
        try daemon.client.start(id: "a_old", durationUSec: 3_600_000_000, label: "Old")
        try daemon.client.start(id: "b_recent", durationUSec: 3_600_000_000, label: "Squat", next: "Bench press")
        try daemon.restartRestd {
            // restd was down (or the machine asleep) while both deadlines passed.
            let now = RunningDaemon.realtimeNow()
            try setDeadline(of: "a_old", to: now - 61 * 60_000_000, in: daemon.state)
            try setDeadline(of: "b_recent", to: now - 3 * 60_000_000 - 20_000_000, in: daemon.state)
        }
        let notify = try #require(try daemon.calls.waitFor("Notify").first)
        #expect(notify.body == "Squat · ended 3 min ago · Next: Bench press")
        #expect(notify.summary == "Rest over")
        // a_old sorts first: had it been shown, it would have been the first Notify.
        #expect(daemon.calls.calls("Notify").count == 1)
    }

    @Test("a D-Bus activatable server is started by the first notification, which it then shows once")
    func activatedServer() throws {
        let services = try TempDirectory(prefix: "restd-svc")
        try services.write(
            "org.freedesktop.Notifications.service",
            """
            [D-BUS Service]
            Name=org.freedesktop.Notifications
            Exec=\(NotificationServer.python) -m dbusmock --template notification_daemon -p '{"capabilities": "body actions"}'

            """)
        let daemon = try NotifyingDaemon(capabilities: nil, serviceDirectories: [services.path])
        try daemon.client.start(id: "t", durationUSec: 1_000_000, label: "T")
        try daemon.expired("t")
        let notify = try daemon.calls.waitFor("Notify")
        #expect(notify.map(\.labelInBody) == ["T"], "\(daemon.bus.log())")
        #expect(notify.first?.actions?.isEmpty == false)
        // Once: a call that woke the server up is not repeated when its name then appears.
        #expect(daemon.calls.calls("Notify").count == 1)
    }

    // Real time: restd's 2 s timeout for a server that answers late.
    @Test(
        "an activated server that takes its name at once but answers only after restd's 2 s timeout is asked again",
        .tags(.realTime))
    func slowActivatedServer() throws {
        let services = try TempDirectory(prefix: "restd-svc")
        // A dbusmock template: like a server that is up on the bus but still loading, the first
        // GetCapabilities is answered after 3 s, when restd has given up on it.
        let template = try services.write(
            "slow_notifications.py",
            """
            BUS_NAME = 'org.freedesktop.Notifications'
            MAIN_OBJ = '/org/freedesktop/Notifications'
            MAIN_IFACE = 'org.freedesktop.Notifications'
            SYSTEM_BUS = False

            def load(mock, parameters):
                mock.next_id = 1
                mock.slow = True
                mock.AddMethods(MAIN_IFACE, [
                    ('GetCapabilities', '', 'as',
                     'import time\\nif self.slow:\\n    self.slow = False\\n    time.sleep(3)\\nret = ["body", "actions"]'),
                    ('CloseNotification', 'u', '', ''),
                    ('Notify', 'susssasa{sv}i', 'u', 'ret = self.next_id\\nself.next_id += 1'),
                ])

            """)
        try services.write(
            "org.freedesktop.Notifications.service",
            """
            [D-BUS Service]
            Name=org.freedesktop.Notifications
            Exec=\(NotificationServer.python) -m dbusmock --template \(template)

            """)
        let daemon = try NotifyingDaemon(capabilities: nil, serviceDirectories: [services.path])
        try daemon.startAndExpireOnTime("t", label: "T")
        let notify = try daemon.calls.waitFor("Notify")
        #expect(notify.map(\.labelInBody) == ["T"], "\(daemon.restd.log())")
        #expect(daemon.calls.calls("GetCapabilities").count == 2, "asked again once")
        #expect(daemon.calls.calls("Notify").count == 1)
    }

    // MARK: Failures

    // Real time: timers expire on time and restd answers at once whatever the server does.
    @Test(
        "no server: timers expire on time, one warning, and notifications come when a server does",
        .tags(.realTime))
    func absentServer() throws {
        let daemon = try NotifyingDaemon(capabilities: nil)
        try daemon.startAndExpireOnTime("a", label: "A")
        try daemon.restd.waitForLog(containing: "cannot show desktop notifications")
        // Asked again for the next one (not joined to the first ask), failing quietly.
        try daemon.startAndExpireOnTime("b", label: "B")
        try daemon.expectPromptAnswer()
        try daemon.restd.waitForLog(containing: "desktop notification failed again")
        #expect(daemon.warnings() == 1, "\(daemon.restd.log())")

        daemon.server = try NotificationServer(bus: daemon.bus)
        // What could not be shown is shown now.
        let shown = try daemon.calls.waitFor("Notify", count: 2)
        #expect(Set(shown.compactMap(\.labelInBody)) == ["A", "B"], "\(shown)")
        try daemon.client.start(id: "c", durationUSec: 1_000_000, label: "C")
        #expect(try daemon.calls.waitFor("Notify", count: 3)[2].body == "C")
        try daemon.restd.waitForLog(containing: "desktop notifications work again")
    }

    // Real time: timers expire on time and restd answers at once whatever the server does.
    @Test(
        "a server that never answers: timers expire on time, restd answers at once, one warning",
        .tags(.realTime))
    func silentServer() throws {
        let daemon = try NotifyingDaemon()
        let silent = try #require(daemon.server)
        // It takes the call, then never answers anything again.
        try silent.addMethod("GetCapabilities", in: "", out: "as", code: "import time; time.sleep(3600)")
        try daemon.startAndExpireOnTime("a", label: "A")
        try daemon.calls.waitFor("GetCapabilities")
        // restd's GetCapabilities is now waiting for its 2 s timeout; restd itself is not.
        try daemon.expectPromptAnswer()
        try daemon.restd.waitForLog(containing: "cannot show desktop notifications")
        // Still silent for the next timer: asked again, failing again, not logged as a warning again.
        try daemon.startAndExpireOnTime("b", label: "B")
        try daemon.expectPromptAnswer()
        try daemon.restd.waitForLog(containing: "desktop notification failed again")
        #expect(daemon.warnings() == 1, "\(daemon.restd.log())")
        #expect(daemon.calls.calls("GetCapabilities").count == 1, "the silent server got only the first")

        silent.kill()
        daemon.server = try NotificationServer(bus: daemon.bus)
        let shown = try daemon.calls.waitFor("Notify", count: 2)
        #expect(Set(shown.compactMap(\.labelInBody)) == ["A", "B"], "\(shown)")
        #expect(shown.allSatisfy { $0.server == daemon.server?.uniqueName })
    }

    // Real time: timers expire on time and restd answers at once whatever the server does.
    @Test(
        "a server that replies with the wrong signatures: timers expire on time, restd answers at once",
        .tags(.realTime))
    func wrongSignatureServer() throws {
        let daemon = try NotifyingDaemon()
        let odd = try #require(daemon.server)
        // Capabilities as one string, ids as strings: nothing the specification allows.
        try odd.addMethod("GetCapabilities", in: "", out: "s", code: "ret = 'actions body-markup'")
        try odd.addMethod("Notify", in: "susssasa{sv}i", out: "s", code: "ret = 'forty-two'")
        try daemon.startAndExpireOnTime("a", label: "A")
        try daemon.calls.waitFor("GetCapabilities")
        try daemon.expectPromptAnswer()
        try daemon.startAndExpireOnTime("b", label: "B")
        try daemon.expectPromptAnswer()
        #expect(daemon.restd.isRunning, "\(daemon.restd.log())")
    }

    // Real time: timers expire on time and restd answers at once whatever the server does.
    @Test(
        "a server that crashes in the middle of Notify: the timer expires on time, one warning, a new server works",
        .tags(.realTime))
    func crashingServer() throws {
        let daemon = try NotifyingDaemon()
        let crashing = try #require(daemon.server)
        try crashing.addMethod("Notify", in: "susssasa{sv}i", out: "u", code: "import os; os._exit(3)")
        try daemon.startAndExpireOnTime("a", label: "A")
        try daemon.calls.waitFor("Notify")
        #expect(crashing.waitForExit() == .exited(3), "\(crashing.log())")
        try daemon.restd.waitForLog(containing: "cannot show desktop notifications")
        try daemon.expectPromptAnswer()
        try daemon.startAndExpireOnTime("b", label: "B")
        try daemon.restd.waitForLog(containing: "desktop notification failed again")
        #expect(daemon.warnings() == 1, "\(daemon.restd.log())")

        daemon.server = try NotificationServer(bus: daemon.bus)
        let shown = try daemon.calls.waitFor("Notify", count: 3)
        #expect(Set(shown.dropFirst().compactMap(\.labelInBody)) == ["A", "B"], "\(shown)")
        #expect(daemon.restd.isRunning)
    }
}

extension MockCall {
    /// The first part of a Notify body: shown late, "A" becomes "A · ended 5 s ago".
    var labelInBody: String? { body?.components(separatedBy: " · ").first }
}

/// Moves a running timer's deadline in restd's state file (restd must not be running).
private func setDeadline(of id: String, to endsAt: UInt64, in state: TempDirectory) throws {
    let at = StateFile.Value.integer(Int64(endsAt))
    let changed = try StateFile(in: state).execute(
        "UPDATE timers SET ends_at_usec = ?, started_at_usec = ? - duration_usec, updated_at_usec = ? WHERE id = ?",
        at, at, at, .text(id))
    guard changed == 1 else { throw HarnessError.failed("no timer \(id) in the state file") }
}

/// Waits (generous timeout) until `path` exists: what a command restd started leaves behind.
private func waitForFile(_ path: String, timeout: Double = 30) throws {
    try waitUntil("\(path) to exist", timeout: timeout) { FileManager.default.fileExists(atPath: path) }
}

/// The pids of a process's children, zombies included (/proc/PID/task/*/children).
private func children(of pid: Int32) -> [String] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    return tasks.flatMap { task in
        ((try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? "")
            .split(separator: " ").map(String.init)
    }
}
