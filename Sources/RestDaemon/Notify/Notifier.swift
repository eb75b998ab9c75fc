import DBusKit
import Localization
import Logging
import RestCore
import RestNotify
import RestProtocol

/// Shows desktop notifications through org.freedesktop.Notifications (Desktop Notifications
/// Specification 1.3): "Rest over" on expiry, with the urgency and buttons `[notifications]`
/// sets (without a sound of the server's: restd rings the alarm itself), the optional pre-alert, and
/// "Workout done" when a workout ends.
///
/// `NotificationTracker` decides what to show, replace and close; this class only talks to the
/// server. Every call is asynchronous with a 2 s timeout and nothing waits for one, so a
/// missing, silent or crashing server can delay nothing but its own notifications: timers
/// expire and Expired is emitted regardless. The server is addressed by its well-known name and
/// never cached: its capabilities are asked once per owner, and when the name changes hands
/// (NameOwnerChanged) everything still wanted is shown on the new owner.
///
/// Whether a server is there at all (`server`, the Manager's NotificationServer) is learnt without
/// polling: the name's owner and the bus's activatable names are asked once at start, then
/// NameOwnerChanged tells every change, and a call that fails while nobody owns the name says
/// that starting one failed.
final class Notifier {
    static let busName = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"
    static let interface = "org.freedesktop.Notifications"
    /// The server's name, followed with the signals of its notifications.
    private static let following = BusNameFollowing(
        busName, alsoMatching: [MessageBus.signalRule(sender: busName, path: path, interface: interface)])
    /// The longest any call to the notification server may take.
    static let timeoutMilliseconds: Int32 = 2_000

    private let connection: Connection
    /// Carries out what a notification's button asks, through the same commit path as the bus.
    private let performCommand: (TimerCommand) throws(DBusError) -> Void
    private let clock: TimeSource
    private let logger: Logger
    private let messages: Messages
    /// The urgency and buttons of "Rest over" (`[notifications]`); a reload changes them for the
    /// next notification.
    var style: NotificationStyle
    /// The unit weights are said in (`[history] weight_unit`): in a record line and a workout's
    /// volume.
    var weightUnit: WeightUnit
    private var tracker = NotificationTracker()
    /// The live activity's progress now, for the body of "Rest over" ("3/15 sets").
    var liveProgress: () -> LiveProgress? = { nil }

    private enum CapabilityState {
        case unknown
        case asking
        case known(ServerCapabilities)
    }

    /// A Notify call waiting for the capabilities of the current owner.
    private struct PendingNotify {
        let ticket: NotificationTracker.Ticket
        let alert: Alert
        let replacing: UInt32
    }

    private var capabilities = CapabilityState.unknown
    private var waitingForCapabilities: [PendingNotify] = []
    /// Bumped whenever the name changes hands, so that answers from an earlier owner are told apart.
    private var generation: UInt64 = 0
    /// The unique name of the current owner when known: signals from anyone else are ignored.
    private var owner: String?
    /// Bumped whenever a server takes the name where there was none.
    private var appearances: UInt64 = 0
    /// Failed calls: the first of a run is logged as a warning, the rest as debug.
    private var failures: RepeatedFailure

    /// Whether a server can show notifications; nil until the bus has said who owns the name and
    /// what it can start.
    private(set) var server: NotificationServerState?
    /// Told of every change of `server`.
    var onServerChanged: (NotificationServerState) -> Void = { _ in }
    /// Whether the name's owner (or that it has none) has been read since start.
    private var ownerKnown = false
    /// Whether the bus can start a server (it lists the name as activatable); nil until it said.
    private var activatable: Bool?
    /// A call failed while no server owned the name: starting one failed.
    private var startFailed = false
    /// Whether the next `takeServerWarning` says yes: armed each time the server goes missing.
    private var serverWarningDue = false
    private var isPumping = false
    private var pumpAgain = false

    init(
        connection: Connection, clock: TimeSource, logger: Logger, messages: Messages, style: NotificationStyle,
        weightUnit: WeightUnit, perform: @escaping (TimerCommand) throws(DBusError) -> Void
    ) {
        self.connection = connection
        self.performCommand = perform
        self.clock = clock
        self.logger = logger
        failures = RepeatedFailure(logger: logger, recovered: "desktop notifications work again")
        self.messages = messages
        self.style = style
        self.weightUnit = weightUnit
        connection.addSignalFilter { [unowned self] message in
            self.handle(message)
            return false  // others may want these signals too
        }
    }

    /// A set was recorded (before its timer events): the "Rest over" of the rest after it says
    /// the record it beat.
    func setRecorded(_ set: PlannedSet) {
        tracker.noteRecord(
            messages.recordLine(set.record, records: set.records, unit: weightUnit), forRestOn: set.record.timerID)
    }

    /// A listener of committed timer events: what to show, replace or close follows from them.
    func timersChanged(_ events: [TimerEvent]) {
        tracker.record(events, progress: liveProgress())
        pump()
    }

    /// A listener of the workout in progress: its end brings "Workout done".
    func workoutChanged(_ workout: ActiveWorkout?, ended summary: WorkoutSummary?) {
        tracker.recordWorkout(inProgress: workout != nil, ended: summary)
        pump()
    }

    /// Subscribes to the server's signals and to changes of its owner, without waiting.
    func start() {
        // The answer is newer than any NameOwnerChanged that arrives before it.
        Self.following.start(
            on: connection, timeoutMilliseconds: Self.timeoutMilliseconds,
            ruleRefused: { [unowned self] error in
                logger.error(
                    .init(
                        stringLiteral: localized(
                            "cannot watch the notification server (%1$s); notification actions and a server appearing later will go unnoticed",
                            error.message))
                )
            }
        ) { [unowned self] answer in
            ownerKnown = true
            switch answer {
            case .success(let name):
                owner = name
                if let name { logger.debug("notification server: \(name)") }
            case .failure(let error):
                logger.debug("cannot ask who owns \(Self.busName): \(error.message)")
            }
            updateServer()
        }
        askActivatable()
        logger.debug("notifications in \(Localization.language)")
    }

    /// Whether the caller is the first to ask since the server went missing (at start, or when
    /// it left or could not be started): that caller tells the user, once.
    func takeServerWarning() -> Bool {
        guard serverWarningDue, server == .missing else { return false }
        serverWarningDue = false
        return true
    }

    /// Asks the bus whether it can start a notification server (its service files; asked again
    /// when the server leaves, as they may have changed since).
    private func askActivatable() {
        connection.callBus("ListActivatableNames", timeoutMilliseconds: Self.timeoutMilliseconds) {
            [unowned self] result in
            switch result {
            case .success(let reply):
                activatable = reply.arguments().first?.arrayElements?.contains { $0.string == Self.busName } ?? false
            case .failure(let error):
                logger.debug("cannot ask the bus what it can start: \(error.message)")
                activatable = false
            }
            updateServer()
        }
    }

    /// Works `server` out again from what is known, and tells of a change.
    private func updateServer() {
        guard ownerKnown, let activatable else { return }
        let now: NotificationServerState =
            owner != nil ? .running : activatable && !startFailed ? .activatable : .missing
        guard now != server else { return }
        server = now
        serverWarningDue = now == .missing
        if now == .missing {
            logger.warning(
                startFailed
                    ? .init(
                        stringLiteral: localized(
                            "no notification server is running on the session bus, and starting one failed: timers run and Expired is emitted, but \"Rest over\" is not shown"
                        ))
                    : .init(
                        stringLiteral: localized(
                            "no notification server is running on the session bus, and none can be started: timers run and Expired is emitted, but \"Rest over\" is not shown"
                        ))
            )
        } else {
            logger.debug("notification server: \(now.rawValue)")
        }
        onServerChanged(now)
    }

    // MARK: Carrying out what the tracker decides

    /// Makes the calls the tracker asks for. Completions that come back at once (a broken
    /// connection) re-enter here; they are run as one more round instead.
    private func pump() {
        if isPumping {
            pumpAgain = true
            return
        }
        isPumping = true
        defer { isPumping = false }
        repeat {
            pumpAgain = false
            for command in tracker.commands(now: clock.now().realtime) {
                switch command {
                case .show(let ticket, let alert, let replacing):
                    show(PendingNotify(ticket: ticket, alert: alert, replacing: replacing))
                case .close(let id):
                    close(id)
                }
            }
        } while pumpAgain
    }

    private func show(_ notification: PendingNotify) {
        switch capabilities {
        case .known(let capabilities):
            notify(notification, capabilities: capabilities)
        case .asking:
            waitingForCapabilities.append(notification)
        case .unknown:
            waitingForCapabilities.append(notification)
            askCapabilities()
        }
    }

    private func askCapabilities() {
        capabilities = .asking
        let generation = self.generation
        let appearances = self.appearances
        callServer("GetCapabilities", []) { [unowned self] result in
            // Another owner since: its capabilities are asked anew, and what was held is re-planned.
            guard generation == self.generation else {
                if case .failure(let error) = result { noteFailure(error) }
                return
            }
            let waiting = waitingForCapabilities
            waitingForCapabilities = []
            switch result {
            case .success(let reply):
                // Anything but a list of strings is read as no capabilities: plain text, no actions.
                let advertised = reply.arguments().first?.arrayElements?.compactMap(\.string) ?? []
                let known = ServerCapabilities(advertised: advertised)
                capabilities = .known(known)
                if owner == nil { owner = reply.sender }
                logger.debug("notification server \(reply.sender ?? "?") can: \(advertised.joined(separator: " "))")
                for notification in waiting { notify(notification, capabilities: known) }
            case .failure(let error) where appearances != self.appearances:
                // A server took the name while we asked: it was being started (D-Bus activation by
                // this very call, say) and did not answer in time. Asked again, now that it is up.
                logger.debug(
                    "a notification server appeared while asking for its capabilities (\(error.message)); asking again")
                waitingForCapabilities = waiting
                askCapabilities()
            case .failure(let error):
                capabilities = .unknown
                noteFailure(error)
                noteStartFailure()
                for notification in waiting { tracker.failed(notification.ticket) }
            }
            pump()
        }
    }

    private func notify(_ notification: PendingNotify, capabilities: ServerCapabilities) {
        let request = NotificationContent.request(
            for: notification.alert, replacing: notification.replacing, capabilities: capabilities,
            messages: messages, style: style, weightUnit: weightUnit, now: clock.now().realtime)
        var hints: [String: DBusValue] = [
            "urgency": .byte(request.hints.urgency.rawValue),
            "category": .string(request.hints.category),
            "desktop-entry": .string(request.hints.desktopEntry),
        ]
        if let sound = request.hints.soundName { hints["sound-name"] = .string(sound) }
        if request.hints.suppressSound { hints["suppress-sound"] = .boolean(true) }
        let arguments: [DBusValue] = [
            .string(request.appName), .uint32(request.replacesID), .string(request.icon), .string(request.summary),
            .string(request.body), .strings(request.actions), .vardict(hints), .int32(request.expireTimeoutMS),
        ]
        let generation = self.generation
        callServer("Notify", arguments) { [unowned self] result in
            // From an earlier owner (which crashed in the middle of it, say): only worth a log line.
            guard generation == self.generation else {
                if case .failure(let error) = result { noteFailure(error) }
                return
            }
            switch result {
            case .success(let reply):
                guard case .uint32(let id)? = reply.arguments().first else {
                    noteFailure(
                        DBusError(
                            .failed,
                            localized("Notify answered %1$s instead of an id", MessageText.quoted(reply.signature))))
                    tracker.failed(notification.ticket)
                    break
                }
                if owner == nil { owner = reply.sender }
                failures.succeeded()
                logger.debug("notification \(id) for \(notification.ticket.subject): \(request.summary)")
                tracker.shown(notification.ticket, id: id)
            case .failure(let error):
                noteFailure(error)
                noteStartFailure()
                tracker.failed(notification.ticket)
            }
            pump()
        }
    }

    /// A call to the server failed: with nobody owning the name, the bus could not start one.
    private func noteStartFailure() {
        guard owner == nil, !startFailed else { return }
        startFailed = true
        updateServer()
    }

    private func close(_ id: UInt32) {
        callServer("CloseNotification", [.uint32(id)]) { [unowned self] result in
            // The notification may be gone already (dismissed, server restarted): nothing to do.
            if case .failure(let error) = result {
                logger.debug("closing notification \(id): \(error.message)")
            }
        }
    }

    // MARK: Signals

    private func handle(_ message: Message) {
        if let change = Self.following.ownerChange(in: message) {
            ownerChanged(oldOwner: change.oldOwner, newOwner: change.newOwner)
            return
        }
        // Only the owner we are talking to speaks for the notifications we created.
        guard message.interface == Self.interface, message.path == Self.path,
            let sender = message.sender, sender == owner
        else { return }
        let arguments = message.arguments()
        switch (message.member, message.signature) {
        case ("ActionInvoked"?, "us"):
            guard case .uint32(let id) = arguments[0], let key = arguments[1].string else { return }
            let request = tracker.invoked(id: id, action: key)
            if let request { perform(request) }
            pump()
        case ("NotificationClosed"?, "uu"):
            guard case .uint32(let id) = arguments[0], case .uint32(let reason) = arguments[1] else { return }
            let timer = tracker.closed(id: id)
            // Dismissed by the person (reason 2): they have heard it, the alarm stops.
            if let timer, reason == Self.closedByUser { silence(timer) }
            pump()
        default:
            // ActivationToken (sent before ActionInvoked for servers that support it) and
            // anything newer: nothing to do.
            break
        }
    }

    private func ownerChanged(oldOwner: String, newOwner: String) {
        logger.debug(newOwner.isEmpty ? "the notification server left the bus" : "notification server: \(newOwner)")
        owner = newOwner.isEmpty ? nil : newOwner
        // A new situation either way: a server that left may be started again, if the bus still can.
        startFailed = false
        updateServer()
        if newOwner.isEmpty { askActivatable() }
        if oldOwner.isEmpty {
            appearances += 1
            // A server appeared where there was none (perhaps activated by our own call, which
            // then reaches it): nothing of ours was on screen, only what failed is tried again.
            tracker.retryFailed()
        } else {
            // The server left or was replaced: its ids and capabilities mean nothing now, and
            // everything still wanted is shown again, on the new one or, when none is there,
            // on one D-Bus activation may start.
            generation += 1
            capabilities = .unknown
            waitingForCapabilities = []
            tracker.serverChanged()
        }
        pump()
    }

    /// NotificationClosed's reason when the user dismissed the notification.
    static let closedByUser: UInt32 = 2

    /// Stops the alarm of the rest whose "Rest over" the person dismissed.
    private func silence(_ id: TimerID) {
        do {
            try performCommand(.silence(id))
        } catch {
            // The timer went away meanwhile: nothing rings.
            logger.debug("silencing timer \(id) after its notification was dismissed: \(error.message)")
        }
    }

    /// Carries out an action the user chose in a notification, as if it had come over the bus.
    private func perform(_ request: NotificationTracker.Request) {
        let id = request.timerID
        logger.debug("notification action \(request.action.key) for timer \(id)")
        let command: TimerCommand =
            switch request.action {
            case .add30s, .add1m: .adjust(id, deltaUSec: request.action.deltaUSec ?? 0)
            case .restart: .restart(id)
            case .cancel: .cancel(id)
            }
        do {
            try performCommand(command)
        } catch {
            logger.warning(
                .init(stringLiteral: localized("a notification's action could not be carried out: %1$s", error.message))
            )
        }
    }

    private func noteFailure(_ error: DBusError) {
        failures.failed(
            warning:
                .init(
                    stringLiteral: localized(
                        "cannot show desktop notifications: %1$s (%2$s); timers run and Expired is emitted as usual, and notifications come back with a notification server",
                        error.message, error.name)),
            again: "desktop notification failed again: \(error.message)")
    }

    private func callServer(
        _ member: String, _ arguments: [DBusValue], completion: @escaping (Result<Message, DBusError>) -> Void
    ) {
        connection.call(
            destination: Self.busName, path: Self.path, interface: Self.interface, member: member, arguments,
            timeoutMilliseconds: Self.timeoutMilliseconds, completion: completion)
    }
}
