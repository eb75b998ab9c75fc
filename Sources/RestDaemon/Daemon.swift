import CSystemd
import DBusKit
import EventLoop
import Glibc
import Logging
import RestCore
import RestNotify
import RestProtocol

/// Where the daemon keeps its state and which bus it serves.
public struct DaemonSettings: Sendable {
    /// An explicit bus address (tests); nil means the session bus. Never the system bus.
    public var busAddress: String?
    /// The directory holding `state.sqlite`.
    public var stateDirectory: String
    public var limits: TimerLimits
    public var liveLimits: LiveLimits
    /// The language of desktop notifications; by default the one LC_ALL, LC_MESSAGES or LANG selects.
    public var messages: Messages

    public init(
        busAddress: String?, stateDirectory: String, limits: TimerLimits = .standard,
        liveLimits: LiveLimits = .standard,
        messages: Messages = Messages.forEnvironment { getenv($0).map { String(cString: $0) } }
    ) {
        self.busAddress = busAddress
        self.stateDirectory = stateDirectory
        self.limits = limits
        self.liveLimits = liveLimits
        self.messages = messages
    }

    /// `$XDG_STATE_HOME/restd`, else `~/.local/state/restd`.
    public static func defaultStateDirectory() -> String {
        if let state = getenv("XDG_STATE_HOME").map({ String(cString: $0) }), state.hasPrefix("/") {
            return state + "/restd"
        }
        let home = getenv("HOME").map { String(cString: $0) } ?? "."
        return home + "/.local/state/restd"
    }
}

/// Why the daemon could not start or had to stop.
public struct DaemonError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// restd: timers on the bus, kept in SQLite, expiring from one armed timer.
public final class Daemon {
    private let logger: Logger
    private let loop: EventLoop
    private let connection: Connection
    private let driver: BusDriver
    private let server: ObjectServer
    private let service: TimerService
    private var live: LiveService!
    private let clock = SystemClock()
    private var notifier: Notifier!
    private var expiryTimer: TimerSource!
    private var clockWatcher: WallClockWatcher?
    private var signalSources: [SignalSource] = []
    /// Events found while loading state (expired while down, dropped), announced once on the bus.
    private let recoveryEvents: [TimerEvent]

    /// Loads the state and connects to the bus; the daemon serves nothing until `run()`.
    public init(settings: DaemonSettings, logger: Logger) throws {
        self.logger = logger
        let now = clock.now()

        let (store, movedAside) = try TimerStore.open(directory: settings.stateDirectory, now: now.realtime)
        if let first = movedAside.first {
            let reason = store.movedAsideReason ?? "it could not be read"
            logger.warning("the state file was moved aside to \(first) (\(reason)); starting empty",
                           metadata: ["moved": .array(movedAside.map { .string($0) })])
        }
        let stored = try store.loadAll { skipped in logger.warning("skipping a stored timer: \(skipped)") }
        let (book, events) = TimerBook.restoring(stored, limits: settings.limits, now: now)
        recoveryEvents = events
        service = TimerService(book: book, store: store, clock: clock, logger: logger)
        do {
            try store.apply(events)
        } catch {
            logger.error("could not store the state recovered at start-up: \(error)")
        }

        loop = try EventLoop()
        do {
            if let address = settings.busAddress {
                connection = try Connection.open(address: address)
            } else {
                connection = try Connection.session()
            }
        } catch {
            throw DaemonError("cannot connect to the session bus: \(error.message)")
        }
        driver = try BusDriver(connection: connection, loop: loop)
        server = try ObjectServer(connection: connection)
        try setUp(settings: settings)
    }

    private func setUp(settings: DaemonSettings) throws {
        let signals = TimerSignals(server: server)
        service.observe { signals.publish($0) }
        // After the signals: Expired is on its way before a notification is even asked for.
        notifier = Notifier(connection: connection, service: service, clock: clock, logger: logger,
                            messages: settings.messages)

        expiryTimer = try loop.addTimer(clock: CLOCK_BOOTTIME, at: 0, accuracyUSec: 1) { [unowned self] _ in
            self.service.runDue()
        }
        expiryTimer.isEnabled = false
        service.scheduleWakeup = { [unowned self] boottime in
            if let boottime { self.expiryTimer.schedule(at: boottime) } else { self.expiryTimer.isEnabled = false }
        }
        clockWatcher = try WallClockWatcher(loop: loop) { [unowned self] in self.service.wallClockChanged() }

        server.export(path: RestBus.managerPath, interfaces: [ManagerFace.make(service: service)])
        server.addObjectManager(at: RestBus.managerPath)
        server.exportSubtree(at: RestBus.timersPath, TimerFace.subtree(service: service))

        live = try LiveService(loop: loop, server: server, clock: clock, limits: settings.liveLimits, logger: logger)
        server.export(path: RestBus.livePath, interfaces: [LiveFace.make(live: live)])

        connection.addFilter { [unowned self] message in self.handleBusEvent(message) }
        // Every peer leaving the bus, so that its subscription ends with it.
        try connection.addMatch(Self.peerLeftRule)

        for signal in [SIGTERM, SIGINT] {
            signalSources.append(try loop.addSignal(signal) { [unowned self] in
                self.logger.info("stopping on signal \(signal)")
                self.loop.exit(0)
            })
        }
    }

    /// Owns the bus name, announces readiness, and serves until told to stop.
    /// Returns the process exit status.
    public func run() throws -> Int32 {
        try ownBusName()
        notifier.start()
        service.announce(recoveryEvents)
        logger.info("serving \(service.book.timers.count) timer(s) as \(RestBus.name)")
        _ = sd_notify(0, "READY=1\nSTATUS=\(statusLine())")
        let code = try loop.run()
        connection.flush()  // a reply queued just before stopping must still leave
        return code
    }

    /// Takes the bus name. A predecessor that was just killed may still hold it for a moment,
    /// until the bus notices its socket closed: wait up to 5 s for it to be released, then give up.
    private func ownBusName() throws {
        for attempt in 0..<100 {
            let reply: Connection.RequestNameReply
            do {
                reply = try connection.requestName(RestBus.name)
            } catch {
                throw DaemonError("cannot own the bus name \(RestBus.name): \(error.message)")
            }
            if reply == .primaryOwner || reply == .alreadyOwner { return }
            if attempt == 0 { logger.info("\(RestBus.name) is taken; waiting up to 5 s for it to be released") }
            usleep(50_000)
        }
        throw DaemonError("another restd already owns \(RestBus.name) on this bus")
    }

    private func statusLine() -> String {
        let running = service.book.timers.values.filter { $0.state == .running }.count
        return "\(running) timer\(running == 1 ? "" : "s") running"
    }

    private static let peerLeftRule = "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
        + "interface='org.freedesktop.DBus',member='NameOwnerChanged',arg2=''"

    /// Bus-level events: losing the bus or the name ends the daemon with a failure status, so
    /// that systemd restarts it.
    private func handleBusEvent(_ message: Message) -> Bool {
        if message.isSignal("org.freedesktop.DBus.Local", "Disconnected") {
            logger.error("lost the connection to the bus; exiting")
            loop.exit(1)
            return true
        }
        if message.isSignal("org.freedesktop.DBus", "NameLost"), message.arguments().first?.string == RestBus.name {
            logger.error("lost the bus name \(RestBus.name); exiting")
            loop.exit(1)
            return true
        }
        if message.isSignal("org.freedesktop.DBus", "NameOwnerChanged"), message.sender == "org.freedesktop.DBus" {
            let args = message.arguments()
            if args.count == 3, let name = args[0].string, args[2].string == "" { live.unsubscribe(name) }
            return false  // other parts may watch names too
        }
        return false
    }
}
