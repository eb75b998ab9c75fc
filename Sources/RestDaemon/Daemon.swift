import CSystemd
import DBusKit
import EventLoop
import Glibc
import Logging
import RestCore
import RestNotify
import RestProtocol

/// Where the daemon keeps its state, which bus it serves, and how it is configured.
public struct DaemonSettings: Sendable {
    /// An explicit bus address (tests); nil means the session bus. Never the system bus.
    public var busAddress: String?
    /// The directory holding `state.sqlite`.
    public var stateDirectory: String
    /// The configuration file, read again on SIGHUP.
    public var configPath: String
    /// The configuration read at start-up.
    public var configuration: RestdConfiguration
    /// The limits the configuration does not set.
    public var limits: TimerLimits
    /// The live limits the configuration does not set (`[live]` sets the rate and staleness).
    public var liveLimits: LiveLimits
    /// The language of desktop notifications; by default the one LC_ALL, LC_MESSAGES or LANG selects.
    public var messages: Messages

    public init(
        busAddress: String?, stateDirectory: String, configPath: String = ConfigFile.defaultPath(),
        configuration: RestdConfiguration = RestdConfiguration(), limits: TimerLimits = .standard,
        liveLimits: LiveLimits = .standard,
        messages: Messages = Messages.forEnvironment { getenv($0).map { String(cString: $0) } }
    ) {
        self.busAddress = busAddress
        self.stateDirectory = stateDirectory
        self.configPath = configPath
        self.configuration = configuration
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
    /// Heart rate from a Bluetooth strap through BlueZ (Bluetooth/).
    private var strap: HeartRateFollower!
    private let clock = SystemClock()
    private var notifier: Notifier!
    private let settings: DaemonSettings
    /// The configuration in force: the start-up one, or the last one a reload accepted.
    private(set) var configuration: RestdConfiguration
    /// Called after a reload changed the configuration, with the old and the new one.
    private var configurationObservers: [(RestdConfiguration, RestdConfiguration) -> Void] = []
    /// systemd's STATUS= line; other features add their parts to it.
    let status = StatusReporter()
    private var expiryTimer: TimerSource!
    private var clockWatcher: WallClockWatcher?
    private var signalSources: [SignalSource] = []
    /// Events found while loading state (expired while down, dropped), announced once on the bus.
    private let recoveryEvents: [TimerEvent]

    /// Loads the state and connects to the bus; the daemon serves nothing until `run()`.
    public init(settings: DaemonSettings, logger: Logger) throws {
        self.logger = logger
        self.settings = settings
        self.configuration = settings.configuration
        let now = clock.now()

        let (store, movedAside) = try TimerStore.open(directory: settings.stateDirectory, now: now.realtime)
        if let first = movedAside.first {
            let reason = store.movedAsideReason ?? "it could not be read"
            logger.warning("the state file was moved aside to \(first) (\(reason)); starting empty",
                           metadata: [LogMessageID.metadataKey: .string(LogMessageID.stateRecovered),
                                      "state_file": .string(store.path),
                                      "moved": .array(movedAside.map { .string($0) })])
        }
        let stored = try store.loadAll { skipped in logger.warning("skipping a stored timer: \(skipped)") }
        if let readOnly = store.readOnlyReason {
            logger.warning("\(readOnly): serving \(stored.count) stored timer(s); every change will be refused")
        }
        let limits = settings.configuration.limits(base: settings.limits)
        let (book, events) = TimerBook.restoring(stored, limits: limits, now: now)
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
        service.observe { [unowned self] events in self.logExpiries(events) }
        status.addPart { [unowned self] in
            // Counted in one pass, without copying the timers into arrays: this runs after every
            // committed batch, so with 10,000 timers two filtered copies took half of restd's time.
            var running = 0
            var paused = 0
            for timer in self.service.book.timers.values {
                switch timer.state {
                case .running: running += 1
                case .paused: paused += 1
                case .expired: break
                }
            }
            return StatusReporter.timersPhrase(running: running, paused: paused)
        }
        service.observe { [unowned self] _ in self.status.refresh() }
        // After the signals: Expired is on its way before a notification is even asked for.
        let sound = SoundCommand(loop: loop, argv: configuration.notifications.soundCommand, logger: logger)
        notifier = Notifier(connection: connection, service: service, clock: clock, logger: logger,
                            messages: settings.messages, style: configuration.notifications.style, sound: sound)
        observeConfiguration { [unowned self] _, new in
            self.notifier.style = new.notifications.style
            sound.argv = new.notifications.soundCommand
        }

        expiryTimer = try loop.addTimer(clock: CLOCK_BOOTTIME, at: 0, accuracyUSec: 1) { [unowned self] _ in
            self.service.runDue()
        }
        expiryTimer.isEnabled = false
        service.scheduleWakeup = { [unowned self] boottime in
            if let boottime { self.expiryTimer.schedule(at: boottime) } else { self.expiryTimer.isEnabled = false }
        }
        clockWatcher = try WallClockWatcher(loop: loop) { [unowned self] in self.service.wallClockChanged() }

        server.export(path: RestBus.managerPath, interfaces: [
            ManagerFace.make(service: service) { [unowned self] in self.configuration.defaultDurationUSec },
        ])
        server.addObjectManager(at: RestBus.managerPath)
        server.exportSubtree(at: RestBus.timersPath, TimerFace.subtree(service: service))

        live = try LiveService(loop: loop, server: server, clock: clock,
                               limits: configuration.liveLimits(base: settings.liveLimits), logger: logger)
        server.export(path: RestBus.livePath, interfaces: [LiveFace.make(live: live)])
        observeConfiguration { [unowned self] _, new in
            self.live.setBroadcastRate(new.live.broadcastRate)
            self.live.setHeartRateStaleness(new.live.heartRateStalenessUSec)
        }
        // Heart rate from a Bluetooth strap: one more producer of the live activity.
        strap = HeartRateFollower(loop: loop, clock: clock, choice: configuration.heartRate.bluetooth, logger: logger)
        strap.onReading = { [unowned self] reading in self.live.applyStrapReading(reading.liveFields) }
        live.listSensors = { [unowned self] in self.strap.sensors().map(\.busEntry) }
        observeConfiguration { [unowned self] _, new in self.strap.setChoice(new.heartRate.bluetooth) }

        connection.addFilter { [unowned self] message in self.handleBusEvent(message) }
        // Every peer leaving the bus, so that its subscription ends with it.
        try connection.addMatch(Self.peerLeftRule)

        // Signals are handled between loop iterations, so a write in progress always completes.
        for signal in [SIGTERM, SIGINT] {
            signalSources.append(try loop.addSignal(signal) { [unowned self] in
                self.logger.info("stopping on signal \(signal == SIGTERM ? "SIGTERM" : "SIGINT")")
                ServiceManager.notify("STOPPING=1")
                self.loop.exit(0)
            })
        }
        signalSources.append(try loop.addSignal(SIGHUP) { [unowned self] in self.reloadConfiguration() })
        // Pings systemd at half of WatchdogSec= when the unit sets it (WATCHDOG_USEC); else nothing.
        loop.enableWatchdog()
    }

    /// Calls `observer` with the old and the new configuration after each reload that changed it.
    func observeConfiguration(_ observer: @escaping (RestdConfiguration, RestdConfiguration) -> Void) {
        configurationObservers.append(observer)
    }

    /// SIGHUP: reads the configuration file again. A file with problems is logged and changes
    /// nothing; a good one is put into force at once (every key applies on reload).
    func reloadConfiguration() {
        ServiceManager.notify("RELOADING=1\nMONOTONIC_USEC=\(SystemClock.read(CLOCK_MONOTONIC))")
        defer { status.announceReady() }
        let loaded: (configuration: RestdConfiguration, found: Bool)
        do {
            loaded = try ConfigFile.load(path: settings.configPath)
        } catch {
            for problem in error.problems { logger.error("\(problem)") }
            logger.error("the configuration was not reloaded; the previous one stays in force")
            return
        }
        let old = configuration
        let new = loaded.configuration
        let changed = ConfigKey.changedKeys(from: old, to: new)
        let source = loaded.found ? settings.configPath : "the defaults (\(settings.configPath) does not exist)"
        guard !changed.isEmpty else {
            logger.info("reloaded the configuration from \(source); nothing changed")
            return
        }
        configuration = new
        service.setLimits(new.limits(base: settings.limits))
        if new.defaultDurationUSec != old.defaultDurationUSec {
            server.emitPropertiesChanged(path: RestBus.managerPath, interface: RestBus.managerInterface,
                                         changed: [ManagerProperty.defaultDurationUSec: .uint64(new.defaultDurationUSec)])
        }
        for observer in configurationObservers { observer(old, new) }
        logger.info("reloaded the configuration from \(source); changed: \(changed.joined(separator: ", "))")
    }

    /// One journal entry per expiry, with TIMER_ID and a fixed MESSAGE_ID.
    private func logExpiries(_ events: [TimerEvent]) {
        for case .expired(let id, let deadline, let fired) in events {
            let late = fired > deadline ? fired - deadline : 0
            logger.info("timer \(id.rawValue) expired",
                        metadata: [LogMessageID.metadataKey: .string(LogMessageID.timerExpired),
                                   "timer_id": .string(id.rawValue),
                                   "deadline_usec": .stringConvertible(deadline),
                                   "late_usec": .stringConvertible(late)])
        }
    }

    /// Owns the bus name, announces readiness, and serves until told to stop.
    /// Returns the process exit status.
    public func run() throws -> Int32 {
        try ownBusName()
        notifier.start()
        service.announce(recoveryEvents)
        logger.info("serving \(service.book.timers.count) timer(s) as \(RestBus.name)")
        // Only now is the state loaded and the name owned: what Type=notify waits for.
        status.announceReady()
        strap.start()  // after readiness: the system bus is not what restd serves on
        let code = try loop.run()
        connection.flush()  // a reply queued just before stopping must still leave
        service.closeStore()
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
