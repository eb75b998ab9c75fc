import DBusKit
import Foundation
import RestClient
import RestProtocol
import Testing

/// A private bus with a recorder of mock-server calls, restd's signals, maybe a notification
/// server, and restd (verbose, so that repeated failures show up in its log).
final class NotifyingDaemon {
    let bus: TestBus
    let state: TempDirectory
    let calls: MockCalls
    let signals: SignalWatcher
    var server: NotificationServer?
    private(set) var restd: RestdProcess
    let client: RestdClient

    /// - capabilities: those of the mock server to start first; nil starts none.
    /// - locale: LC_ALL for restd (set explicitly, so that the tests do not depend on the caller's).
    /// - serviceDirectories: for D-Bus activation.
    init(capabilities: [String]? = NotificationServer.fullCapabilities, locale: String = "C.UTF-8",
         serviceDirectories: [String] = []) throws {
        bus = try TestBus(serviceDirectories: serviceDirectories)
        state = try TempDirectory(prefix: "restd-state")
        calls = try MockCalls(bus: bus)
        signals = try SignalWatcher.restd(bus: bus)
        if let capabilities { server = try NotificationServer(bus: bus, capabilities: capabilities) }
        restd = try RestdProcess.start(bus: bus, stateHome: state.path, arguments: ["--verbose"],
                                       environment: ["LC_ALL": locale])
        client = try RestdClient(address: bus.address)
    }

    /// kill -9 restd, let `change` edit its state file, and start it again.
    func restartRestd(editingState change: () throws -> Void) throws {
        restd.kill9()
        try change()
        restd = try RestdProcess.start(bus: bus, stateHome: state.path, arguments: ["--verbose"],
                                       environment: ["LC_ALL": "C.UTF-8"])
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
        #expect(deadline > 0 && fired >= deadline, sourceLocation: sourceLocation)
        #expect(fired - deadline < 1_000_000, "fired \(fired - deadline) µs late", sourceLocation: sourceLocation)
    }

    /// A call to restd is answered at once (well under the 2 s a notification call may take).
    func expectPromptAnswer(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let start = Date()
        _ = try client.timers()
        let elapsed = Date().timeIntervalSince(start)
        #expect(elapsed < 1, "restd took \(elapsed) s to answer", sourceLocation: sourceLocation)
    }

    /// Emits a signal from the mock server.
    func serverEmits(_ signal: String, _ signature: String, _ arguments: DBusValue...) throws {
        try #require(server).emit(signal, signature: signature, arguments)
    }

    func warnings() -> Int {
        restd.log().components(separatedBy: "cannot show desktop notifications").count - 1
    }
}

/// Desktop notifications on a private bus, with python-dbusmock as the notification server.
@Suite("Notifications", .serialized)
struct NotificationTests {
    // MARK: What is shown

    @Test("Rest over: arguments and hints as the server receives them; capabilities asked once")
    func restOverArguments() throws {
        let daemon = try NotifyingDaemon()
        try daemon.client.start(id: "squat", durationUSec: 1_000_000, label: "Squat", next: "Bench press")
        try daemon.expectOnTime("squat")
        let notify = try #require(try daemon.calls.waitFor("Notify").first)
        #expect(notify.appName == "restd")
        #expect(notify.replacesID == 0)
        #expect(notify.icon == "appointment-soon")
        #expect(notify.summary == "Rest over")
        #expect(notify.body == "Squat · Next: Bench press")
        #expect(notify.actions == ["default", "Dismiss", "add-30s", "+30 s", "again", "Again"])
        #expect(notify.hints == [
            "urgency": .byte(2), "category": .string("x-restd.timer"),
            "sound-name": .string("alarm-clock-elapsed"), "desktop-entry": .string("restd"),
        ])
        #expect(notify.expireTimeout == 0)

        try daemon.client.start(id: "bench", durationUSec: 1_000_000)
        let second = try daemon.calls.waitFor("Notify", count: 2)[1]
        #expect(second.body == "bench")
        #expect(daemon.calls.calls("GetCapabilities").count == 1, "\(daemon.calls.calls("GetCapabilities"))")
        #expect(daemon.warnings() == 0, "\(daemon.restd.log())")
    }

    @Test("actions only when advertised, escaped markup only when advertised", arguments: [
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
        #expect(notify.actions == (capabilities.contains("actions")
            ? ["default", "Dismiss", "add-30s", "+30 s", "again", "Again"] : []))
        #expect(notify.summary == "Rest over")
    }

    @Test("German when LC_ALL selects de, even without a generated German locale")
    func german() throws {
        let daemon = try NotifyingDaemon(locale: "de_DE.UTF-8")
        try daemon.client.start(id: "squat", durationUSec: 1_000_000, label: "Kniebeuge", next: "Bankdrücken")
        let notify = try #require(try daemon.calls.waitFor("Notify").first)
        #expect(notify.summary == "Pause beendet")
        #expect(notify.body == "Kniebeuge · Weiter mit: Bankdrücken")
        #expect(notify.actions == ["default", "Schließen", "add-30s", "+30 s", "again", "Nochmal"])
    }

    @Test("a timer started with notify false shows nothing, and Expired still comes")
    func notifyFalse() throws {
        let daemon = try NotifyingDaemon()
        try daemon.client.start(id: "quiet", durationUSec: 1_000_000, notify: false)
        try daemon.client.start(id: "loud", durationUSec: 2_000_000)
        try daemon.expectOnTime("quiet")
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
        try daemon.serverEmits("ActionInvoked", "us", .uint32(UInt32(id)), .string("add-30s"))
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
        try daemon.serverEmits("ActionInvoked", "us", .uint32(1), .string("again"))
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
        try daemon.serverEmits("ActionInvoked", "us", .uint32(999), .string("again"))
        try daemon.serverEmits("NotificationClosed", "uu", .uint32(999), .uint32(2))
        // Restd's id, but not from the notification server.
        let forged = gdbus(daemon.bus, "emit", "--object-path", NotificationServer.path,
                           "--signal", "\(NotificationServer.interface).ActionInvoked", "uint32 1", "'again'")
        #expect(forged.succeeded, "\(forged)")
        // The real thing, last: once its effect is seen, the others have been handled too.
        try daemon.serverEmits("ActionInvoked", "us", .uint32(1), .string("default"))
        let close = try daemon.calls.waitFor("CloseNotification")
        #expect(close.map(\.closedID) == [1])
        let timer = try daemon.client.timer(id: "t")
        #expect(timer.state == "expired", "no action restarted it")
        #expect(daemon.calls.calls("Notify").count == 1)
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
        let ids = Dictionary(uniqueKeysWithValues: shown.enumerated().map { ($0.element.body ?? "", Int64($0.offset + 1)) })
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
        #expect(warning.summary == "2 s left")
        #expect(warning.body == "Plank")
        #expect(warning.replacesID == 0)
        #expect(warning.actions == [])
        #expect(warning.hints?["urgency"] == .byte(0))
        #expect(warning.hints?["sound-name"] == nil)
        #expect(warning.expireTimeout == -1)
        try daemon.expectOnTime("t")
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
        try services.write("org.freedesktop.Notifications.service", """
            [D-BUS Service]
            Name=org.freedesktop.Notifications
            Exec=\(NotificationServer.python) -m dbusmock --template notification_daemon -p '{"capabilities": "body actions"}'

            """)
        let daemon = try NotifyingDaemon(capabilities: nil, serviceDirectories: [services.path])
        try daemon.client.start(id: "t", durationUSec: 1_000_000, label: "T")
        try daemon.expectOnTime("t")
        let notify = try daemon.calls.waitFor("Notify")
        #expect(notify.map(\.labelInBody) == ["T"], "\(daemon.bus.log())")
        #expect(notify.first?.actions?.isEmpty == false)
        // Once: a call that woke the server up is not repeated when its name then appears.
        #expect(daemon.calls.calls("Notify").count == 1)
    }

    // MARK: Failures

    @Test("no server: timers expire on time, one warning, and notifications come when a server does")
    func absentServer() throws {
        let daemon = try NotifyingDaemon(capabilities: nil)
        try daemon.client.start(id: "a", durationUSec: 1_000_000, label: "A")
        try daemon.client.start(id: "b", durationUSec: 1_500_000, label: "B")
        try daemon.expectOnTime("a")
        try daemon.expectOnTime("b")
        try daemon.expectPromptAnswer()
        try daemon.restd.waitForLog("desktop notification failed again")
        #expect(daemon.warnings() == 1, "\(daemon.restd.log())")

        daemon.server = try NotificationServer(bus: daemon.bus)
        // What could not be shown is shown now.
        let shown = try daemon.calls.waitFor("Notify", count: 2)
        #expect(Set(shown.compactMap(\.labelInBody)) == ["A", "B"], "\(shown)")
        try daemon.client.start(id: "c", durationUSec: 1_000_000, label: "C")
        #expect(try daemon.calls.waitFor("Notify", count: 3)[2].body == "C")
        try daemon.restd.waitForLog("desktop notifications work again")
    }

    @Test("a server that never answers: timers expire on time, restd answers at once, one warning")
    func silentServer() throws {
        let daemon = try NotifyingDaemon()
        let silent = try #require(daemon.server)
        // It takes the call, then never answers anything again.
        try silent.addMethod("GetCapabilities", in: "", out: "as", code: "import time; time.sleep(3600)")
        try daemon.client.start(id: "a", durationUSec: 1_000_000, label: "A")
        try daemon.expectOnTime("a")
        try daemon.calls.waitFor("GetCapabilities")
        // restd's GetCapabilities is now waiting for its 2 s timeout; restd itself is not.
        try daemon.expectPromptAnswer()
        try daemon.restd.waitForLog("cannot show desktop notifications")
        // Still silent for the next timer: asked again, failing again, not logged as a warning again.
        try daemon.client.start(id: "b", durationUSec: 1_000_000, label: "B")
        try daemon.expectOnTime("b")
        try daemon.expectPromptAnswer()
        try daemon.restd.waitForLog("desktop notification failed again")
        #expect(daemon.warnings() == 1, "\(daemon.restd.log())")
        #expect(daemon.calls.calls("GetCapabilities").count == 1, "the silent server got only the first")

        silent.kill()
        daemon.server = try NotificationServer(bus: daemon.bus)
        let shown = try daemon.calls.waitFor("Notify", count: 2)
        #expect(Set(shown.compactMap(\.labelInBody)) == ["A", "B"], "\(shown)")
        #expect(shown.allSatisfy { $0.server == daemon.server?.uniqueName })
    }

    @Test("a server that replies with the wrong signatures: timers expire on time, restd answers at once")
    func wrongSignatureServer() throws {
        let daemon = try NotifyingDaemon()
        let odd = try #require(daemon.server)
        // Capabilities as one string, ids as strings: nothing the specification allows.
        try odd.addMethod("GetCapabilities", in: "", out: "s", code: "ret = 'actions body-markup'")
        try odd.addMethod("Notify", in: "susssasa{sv}i", out: "s", code: "ret = 'forty-two'")
        try daemon.client.start(id: "a", durationUSec: 1_000_000, label: "A")
        try daemon.expectOnTime("a")
        try daemon.calls.waitFor("GetCapabilities")
        try daemon.expectPromptAnswer()
        try daemon.client.start(id: "b", durationUSec: 1_000_000, label: "B")
        try daemon.expectOnTime("b")
        try daemon.expectPromptAnswer()
        #expect(daemon.restd.isRunning, "\(daemon.restd.log())")
    }

    @Test("a server that crashes in the middle of Notify: the timer expires on time, one warning, a new server works")
    func crashingServer() throws {
        let daemon = try NotifyingDaemon()
        let crashing = try #require(daemon.server)
        try crashing.addMethod("Notify", in: "susssasa{sv}i", out: "u", code: "import os; os._exit(3)")
        try daemon.client.start(id: "a", durationUSec: 1_000_000, label: "A")
        try daemon.expectOnTime("a")
        try daemon.calls.waitFor("Notify")
        #expect(crashing.waitForExit() == .exited(3), "\(crashing.log())")
        try daemon.restd.waitForLog("cannot show desktop notifications")
        try daemon.expectPromptAnswer()
        try daemon.client.start(id: "b", durationUSec: 1_000_000, label: "B")
        try daemon.expectOnTime("b")
        try daemon.restd.waitForLog("desktop notification failed again")
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

/// Moves a running timer's deadline in restd's state file (restd must not be running), with
/// Python's sqlite3: the test bundle does not link SQLite itself.
private func setDeadline(of id: String, to endsAt: UInt64, in state: TempDirectory) throws {
    let database = state.path("restd/state.sqlite")
    let script = """
        import sqlite3, sys
        db = sqlite3.connect(sys.argv[1])
        n = db.execute("UPDATE timers SET ends_at_usec = ?, started_at_usec = ? - duration_usec, updated_at_usec = ? WHERE id = ?",
                       (int(sys.argv[3]), int(sys.argv[3]), int(sys.argv[3]), sys.argv[2])).rowcount
        db.commit()
        sys.exit(0 if n == 1 else 1)
        """
    let result = Command.run([NotificationServer.python, "-c", script, database, id, String(endsAt)])
    guard result.succeeded else { throw HarnessError.failed("could not edit \(database): \(result)") }
}
