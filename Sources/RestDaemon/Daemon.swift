import Clocks
import DBusKit
import EventLoop
import Glibc
import Localization
import Logging
import RestCore
import RestNotify
import RestProtocol
import SoundKit

/// restd's life: open the state, connect to the bus, export the objects, own the name, announce
/// readiness, serve until told to stop, flush, close the state.
///
/// The parts are in files named for their role: `StateService` (the commit path and the expiry
/// timer), the bus objects in their feature folders (each with its methods, properties and
/// signals), `BusName`, `Notify/Notifier`, `Live/LiveService`, `ConfigurationReloader`,
/// `StatusReporter`. This class only wires them, in one visible order: `init`'s numbered steps.
public final class Daemon {
    private let logger: Logger
    private let clock = KernelClock()
    private let loop: EventLoop
    private let connection: Connection
    private let driver: BusDriver
    private let server: ObjectServer
    /// Where the server comes back to a GetManagedObjects reply it writes in slices.
    private let later: LaterQueue
    private let service: StateService
    private let busName: BusName
    private let live: LiveService
    /// Heart rate from a Bluetooth strap through BlueZ (Bluetooth/): one more live producer.
    private let strap: HeartRateFollower
    /// Rests that may end on recovery, fed by the strap (Recovery/).
    private let recovery: RecoveryService
    private let notifier: Notifier
    /// restd's own sounds: cues before a rest ends, the alarm at its end (`[sound]`).
    private let sound: SoundService
    /// When they play: the cues on the rests' deadlines, the alarm while a timer rings.
    private let sounds: SoundScheduler
    /// The followed timer as an MPRIS media player (`[mpris]`, off by default).
    private let mediaPlayer: MediaPlayerService
    /// Imports of other apps' history, staged until committed (the Manager's import calls).
    private let imports: ImportStaging
    private let reloader: ConfigurationReloader
    /// systemd's STATUS= line: "2 timers running, 1 paused, 1 live subscriber".
    private let status = StatusReporter()
    /// Refreshes `status` once the loop is idle: a burst of changes makes one line, not one
    /// socket per change.
    private let statusRefresh: DeferSource
    /// Gives the heap back after large replies and after start-up read many timers.
    private let trimmer: MemoryTrimmer
    private var clockWatcher: WallClockWatcher?
    private var signalSources: [SignalSource] = []

    /// Opens the state and connects to the bus; the daemon serves nothing until `run()`.
    public init(settings: DaemonSettings, logger: Logger) throws {
        self.logger = logger
        let configuration = settings.configuration
        loop = try EventLoop()
        trimmer = try MemoryTrimmer(loop: loop)

        // 1. The state: timers as stored, with what start-up recovery found.
        service = try Self.openService(settings, clock: clock, loop: loop, logger: logger)
        trimmer.releasing = { [unowned service] in service.releaseCachedPages() }

        // 2. The bus.
        connection = try Self.connect(settings)
        driver = try BusDriver(connection: connection, loop: loop)
        server = try ObjectServer(connection: connection)
        later = try LaterQueue(loop: loop)
        statusRefresh = try loop.addDefer(priority: .idle) { [unowned status] in status.refresh() }
        server.continueLater = { [unowned later] work in later.run(work) }
        busName = BusName(connection: connection, loop: loop, logger: logger)

        // 3. The parts, then how they feed each other.
        reloader = ConfigurationReloader(
            configuration: configuration, path: settings.configPath,
            mustExist: settings.configMustExist, status: status, logger: logger)
        sound = try SoundService(
            loop: loop, settings: configuration.sound,
            theme: SoundTheme(environment: { getenv($0).map { String(cString: $0) } }), logger: logger,
            doNotDisturb: DoNotDisturb(connection: connection, logger: logger))
        sounds = try SoundScheduler(
            loop: loop, player: sound, cueCount: configuration.sound.cues, enabled: configuration.sound.enabled
        ) { [unowned service] in service.book }
        notifier = Notifier(
            connection: connection, clock: clock, logger: logger, messages: settings.messages,
            style: configuration.notifications.style, weightUnit: configuration.training.weightUnit
        ) { [unowned service] command throws(DBusError) in
            try service.perform(.timer(command))
        }
        live = try LiveService(
            loop: loop, server: server, clock: clock,
            limits: configuration.liveLimits(base: settings.liveLimits), logger: logger)
        strap = HeartRateFollower(loop: loop, clock: clock, choice: configuration.heartRate.bluetooth, logger: logger)
        recovery = try RecoveryService(queue: service.queue, loop: loop, clock: clock, logger: logger)
        mediaPlayer = try MediaPlayerService(
            server: server, service: service, loop: loop, clock: clock, settings: configuration.mediaPlayer,
            logger: logger)
        imports = try ImportStaging(service: service, connection: connection, loop: loop)
        connectParts()

        // 4. Who hears of every change.
        tellOfChanges()
        // 5. Who hears of a reloaded configuration.
        tellOfReloads(limits: settings.limits)
        // 6. The objects.
        exportObjects()
        // 7. The system around it: clock steps, signals, the watchdog.
        try watchSystem()
    }

    // MARK: The steps of init

    /// 1. The commit path over the stored state.
    private static func openService(
        _ settings: DaemonSettings, clock: KernelClock, loop: EventLoop, logger: Logger
    ) throws -> StateService {
        let state = try openState(settings, now: clock.now(), logger: logger)
        return try StateService(
            books: Books(timers: state.book, training: state.training, publishedAt: clock.now()),
            recovered: state.recovered,
            recoveredHistory: state.recoveredHistory, store: state.store, clock: clock, loop: loop, logger: logger)
    }

    /// 2. The connection to the bus restd serves on: the settings' address, else the session bus.
    private static func connect(_ settings: DaemonSettings) throws -> Connection {
        do throws(DBusError) {
            if let address = settings.busAddress { return try Connection.open(address: address) }
            return try Connection.session()
        } catch {
            throw DaemonError(localized("cannot connect to the session bus: %1$s", error.message))
        }
    }

    /// 3. Recovery settles before timers fall due and follows the heart rate the live activity
    /// shows: the strap's, or a producer's while it takes precedence. The MPRIS player and the
    /// notifier read the live activity.
    private func connectParts() {
        service.recovery = recovery
        strap.onReading = { [unowned live, unowned service, unowned recovery] reading, now in
            let counts = live.applyStrapReading(reading.liveFields)
            let intervals = reading.measurement.rrIntervalsMilliseconds
            if !intervals.isEmpty { service.queue.post(.rrIntervals(intervals), at: now) }
            if counts { recovery.sampleArrived(HeartSample(reading.measurement, atUSec: now.boottime)) }
        }
        live.onHeartRateSample = { [unowned recovery] sample in recovery.sampleArrived(sample) }
        live.listSensors = { [unowned strap] in strap.sensors().map(\.busEntry) }
        live.sensorsProblem = { [unowned strap] in strap.problem }
        live.onFieldsChanged = { [unowned mediaPlayer] in mediaPlayer.liveFieldsChanged() }
        mediaPlayer.liveFields = { [unowned live] in live.currentFields }
        notifier.liveProgress = { [unowned live] in live.progress }
    }

    /// 4. Who hears of every change, in this order: the bus first, so that Expired is on its
    /// way before a notification is even asked for; the sounds next, the alarm before the
    /// notification; the live activity after MPRIS and
    /// recovery, its exercise and progress following the workout and the set; the journal's
    /// line, which nobody waits on, last, and systemd's status once the loop is idle.
    ///
    /// Signals caused by a method call are queued before that call's reply (listeners run while
    /// the call is handled): a caller that sees the reply has already been sent every signal of
    /// its change. The interface XML says so, and a test checks it.
    private func tellOfChanges() {
        let expiryLog = ExpiryLog(logger: logger)
        service.observers = [
            { [server, unowned service] change in
                if !change.events.isEmpty { TimerObject.emit(change.events, on: server) }
                if let workout = change.workout {
                    WorkoutObject.emitChanged(
                        .init(workout: workout.current, lastSummary: service.lastWorkoutSummary), on: server)
                }
                if let set = change.set { HistoryObject.emitSetRecorded(set, on: server) }
                if let fixed = change.fixed { HistoryObject.emitSetsChanged(fixed, on: server) }
            },
            { [unowned sounds] change in
                if !change.events.isEmpty { sounds.timersChanged(change.events) }
            },
            { [unowned notifier] change in
                if let set = change.set { notifier.setRecorded(set) }
                if !change.events.isEmpty { notifier.timersChanged(change.events) }
                if let workout = change.workout { notifier.workoutChanged(workout.current, ended: workout.ended) }
            },
            { [unowned mediaPlayer] change in
                if !change.events.isEmpty { mediaPlayer.timersChanged(change.events) }
            },
            { [unowned recovery, unowned service] change in
                if !change.events.isEmpty {
                    recovery.timersChanged(change.events, openRests: service.training.openRests)
                }
            },
            { [unowned live] change in
                if let workout = change.workout {
                    if let current = workout.current { live.applyWorkout(current) } else { live.removeWorkout() }
                }
                if let set = change.set { live.applySet(set) }
            },
            { change in expiryLog.timersChanged(change.events) },
            { [unowned statusRefresh] change in if !change.events.isEmpty { statusRefresh.enableOnce() } },
        ]
        status.addPart { [unowned service] in Self.timersPhrase(service.book) }
        status.addPart { [unowned live] in StatusReporter.subscribersPhrase(live.subscriberCount) }
        live.onSubscribersChanged = { [unowned statusRefresh] in statusRefresh.enableOnce() }
    }

    /// 5. Every key applies on reload; `limits` are the settings' base for `[limits]`.
    private func tellOfReloads(limits: TimerLimits) {
        let manager = managerSettings
        reloader.listeners = [
            { [unowned service] _, new in
                // Nothing of a reload is written, so nothing can refuse it.
                _ = try? service.perform(.reload(new.limits(base: limits), new.trainingSettings))
            },
            { [unowned sound, unowned sounds] _, new in
                sound.settings = new.sound
                sounds.enabled = new.sound.enabled
                sounds.cueCount = new.sound.cues
            },
            { [unowned notifier] _, new in
                notifier.style = new.notifications.style
                notifier.weightUnit = new.training.weightUnit
            },
            { [unowned live] _, new in
                live.setBroadcastRate(new.live.broadcastRate)
                live.setHeartRateStaleness(new.live.heartRateStalenessUSec)
            },
            { [unowned strap] _, new in strap.setChoice(new.heartRate.bluetooth) },
            { [unowned mediaPlayer] _, new in mediaPlayer.setSettings(new.mediaPlayer) },
            { [server] old, new in
                var changed: [String] = []
                if new.defaultDurationUSec != old.defaultDurationUSec {
                    changed.append(ManagerProperty.defaultDurationUSec)
                }
                if new.training.weightUnit != old.training.weightUnit { changed.append(ManagerProperty.weightUnit) }
                if !changed.isEmpty { ManagerObject.emitChanged(changed, of: manager, on: server) }
            },
        ]
    }

    /// 6. The Manager (the object manager of the timers below it), the live, history and
    /// workout objects; the MPRIS player exports itself while it has a timer to show.
    private func exportObjects() {
        let manager = managerSettings
        server.export(
            path: RestBus.managerPath,
            interfaces: [ManagerObject.make(service: service, settings: manager, imports: imports)])
        notifier.onServerChanged = { [server] _ in
            ManagerObject.emitChanged([ManagerProperty.notificationServer], of: manager, on: server)
        }
        sound.onServerStateChanged = { [server] _ in
            ManagerObject.emitChanged([ManagerProperty.soundServer], of: manager, on: server)
        }
        server.addObjectManager(at: RestBus.managerPath)
        server.exportSubtree(at: RestBus.timersPath, TimerObject.subtree(service: service))
        server.export(path: RestBus.livePath, interfaces: [LiveObject.make(live: live)])
        server.export(
            path: RestBus.historyPath,
            interfaces: [HistoryObject.make(service: service, trimmer: trimmer)])
        server.export(path: RestBus.workoutPath, interfaces: [WorkoutObject.make(service: service)])
    }

    /// What the Manager's properties read.
    private var managerSettings: ManagerObject.Settings {
        ManagerObject.Settings(reloader: reloader, notifier: notifier, sound: sound)
    }

    /// 7. Clock steps, SIGTERM/SIGINT (handled between loop iterations, so a write in progress
    /// always completes), SIGHUP's reload, and systemd's watchdog.
    private func watchSystem() throws {
        clockWatcher = try WallClockWatcher(
            loop: loop,
            onError: { [logger] error in
                logger.error(
                    .init(
                        stringLiteral: localized(
                            "cannot arm the clock-change timer (%1$s); steps of the wall clock go unnoticed until it is armed again",
                            String(cString: strerror(error.errno)))))
            }
        ) {
            [unowned service, clock] in
            let now = clock.now()
            service.queue.post(.wallClockStepped(offsetUSec: service.books.wallClock.step(at: now)), at: now)
        }
        for signal in [SIGTERM, SIGINT] {
            signalSources.append(
                try loop.addSignal(signal) { [unowned self] in
                    logger.info("stopping on signal \(signal == SIGTERM ? "SIGTERM" : "SIGINT")")
                    ServiceManager.notify("STOPPING=1")
                    loop.exit(0)
                })
        }
        signalSources.append(try loop.addSignal(SIGHUP) { [unowned reloader] in _ = try? reloader.reload() })
        // Pings systemd at half of WatchdogSec= when the unit sets it (WATCHDOG_USEC); else nothing.
        loop.enableWatchdog()
    }

    /// Owns the bus name, announces readiness, and serves until told to stop.
    /// Returns the process exit status.
    public func run() throws -> Int32 {
        // Whatever ends the loop, restd's housekeeping not yet written is written.
        defer { service.closeStore() }
        // Before the name is requested: the bus answers who owns org.freedesktop.Notifications,
        // and what it can start, before it routes any call to restd, so that the first call
        // (the one that activated restd, say) already reads NotificationServer right.
        notifier.start()
        try busName.request { [unowned self] in
            mediaPlayer.start()
            service.announceRecovered()
            // A rest that rang when restd stopped rings on, and the cues of those counting down
            // are armed, whether or not start-up changed anything.
            sounds.timersChanged([])
            // A workout left untouched while restd was down ends now; else its deadline is armed,
            // and the live activity shows it again, as it did before the restart.
            service.queue.post(.workoutAbandonDue, at: clock.now())
            if let workout = service.training.workout { live.applyWorkout(workout) }
            logger.info("serving \(service.book.timers.count) timer(s) as \(RestBus.name)")
            // Only now is the state loaded and the name owned: what Type=notify waits for.
            status.announceReady()
            // Reading thousands of timers left the heap fragmented: give it back once.
            trimmer.replied(entries: service.book.timers.count)
            strap.start()  // after readiness: the system bus is not what restd serves on
        }
        let code = try loop.run()
        server.finishReplies()
        connection.flush()  // a reply queued just before stopping must still leave
        return code
    }

    // MARK: Start-up

    /// The stored timers with the start-up rules applied, and what they found: the timer
    /// events, and the rests they ended (applied to the books; `StateService` stores them).
    private static func openState(
        _ settings: DaemonSettings, now: Instant, logger: Logger
    ) throws
        -> (
            store: StateStore, book: TimerBook, training: TrainingBook, recovered: [TimerEvent],
            recoveredHistory: [HistoryChange]
        )
    {
        let (store, movedAside) = try openStore(settings, now: now)
        if let first = movedAside.first {
            let reason = store.movedAsideReason ?? localized("it could not be read")
            logger.warning(
                .init(
                    stringLiteral: localized(
                        "the state file was moved aside to %1$s (%2$s); starting empty", first, reason)),
                metadata: [
                    LogMessageID.metadataKey: .string(LogMessageID.stateRecovered),
                    "state_file": .string(store.path),
                    "moved": .array(movedAside.map { .string($0) }),
                ])
        }
        let stored = try store.loadAll { skipped in logger.warning("\(skipped)") }
        if let readOnly = store.readOnlyReason {
            logger.warning(
                .init(
                    stringLiteral: localizedPlural(
                        "%1$s: serving %2$d stored timer; every change will be refused",
                        "%1$s: serving %2$d stored timers; every change will be refused", count: stored.count, readOnly,
                        stored.count))
            )
        }
        let limits = settings.configuration.limits(base: settings.limits)
        let (book, events) = TimerBook.restoring(consume stored, limits: limits, now: now)
        var training = TrainingBook(settings: settings.configuration.trainingSettings)
        do {
            let (openRests, lastSetID) = try store.loadTraining()
            // The workout in progress resumes at the same set.
            let workout = try store.loadWorkout().flatMap { stored -> ActiveWorkout? in
                do {
                    return try stored.restored()
                } catch {
                    logger.error(
                        .init(
                            stringLiteral: localized(
                                "could not resume the workout %1$s: %2$s", MessageText.quoted(stored.name), "\(error)"))
                    )
                    return nil
                }
            }
            training = TrainingBook(
                settings: settings.configuration.trainingSettings, openRests: openRests,
                lastSetID: lastSetID, workout: workout)
        } catch {
            logger.error(.init(stringLiteral: localized("could not read the training history: %1$s", error)))
        }
        // A rest whose timer went while restd was down ends as a running restd would have ended it.
        let history = training.followHousekeeping(events)
        training.apply(history)
        return (store, book, training, events, history)
    }

    /// The state directory, locked for this restd, and its store; another restd's directory is
    /// refused with `DaemonError.Reason.stateInUse`.
    private static func openStore(
        _ settings: DaemonSettings, now: Instant
    ) throws -> (store: StateStore, movedAside: [String]) {
        do {
            return try StateStore.open(
                directory: settings.stateDirectory, now: now.realtime,
                holder: StateDirectory.Holder(pid: getpid(), bus: settings.busAddressForLock))
        } catch {
            guard error.inUse != nil else { throw error }
            throw DaemonError(error.description, reason: .stateInUse)
        }
    }

    /// "2 timers running, 1 paused": the book keeps the counts, so that refreshing the status after
    /// a batch of changes costs nothing with 10,000 timers.
    private static func timersPhrase(_ book: TimerBook) -> String {
        let counts = book.counts
        return StatusReporter.timersPhrase(running: counts.running, paused: counts.paused)
    }
}
