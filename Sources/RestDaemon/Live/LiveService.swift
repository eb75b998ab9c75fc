import DBusKit
import EventLoop
import Glibc
import Localization
import Logging
import RestCore
import RestProtocol

/// The live activity on the bus: producers' updates merged, then published through throttled
/// streams — the broadcast (PropertiesChanged of Fields, at MaxRateHz) and one per subscriber
/// (the unicast Changed signal, at the rate it asked for). Each stream has exactly one timer,
/// armed only while a trailing publication is pending: nothing wakes up when nothing changes.
final class LiveService {
    typealias Fields = [String: LiveValue]

    private let loop: EventLoop
    private let server: ObjectServer
    private let clock: TimeSource
    private let logger: Logger
    private var activity: LiveActivity
    private var broadcast: Stream!
    private var subscribers: [String: Stream] = [:]
    private var staleTimer: TimerSource!
    /// When the stale timer is armed for; nil while it is off. It is only ever moved earlier:
    /// armed before the fields go stale, it fires, finds nothing stale yet and is armed for when
    /// they do. So a producer's update, which pushes staleness on, moves no timer: one wake-up
    /// per staleness interval while updates keep coming instead of a timer change per update.
    private var staleTimerDue: USec?
    private let backlog: SubscriberBacklog
    /// CLOCK_REALTIME of the broadcast's last publication.
    private(set) var updatedAtUSec: USec = 0
    private var broadcastWasEmpty = true
    /// The broadcast's rate (the MaxRateHz property): `[live] broadcast_rate`.
    private(set) var broadcastRateHz: Double

    /// Called when the number of subscribers changes (for the service status).
    var onSubscribersChanged: () -> Void = {}
    /// The heart-rate straps BlueZ knows, as the Sensors method returns them (`aa{sv}`
    /// entries); empty without a strap reader.
    var listSensors: () -> [[String: DBusValue]] = { [] }
    /// Why restd's strap reader reads no strap ("" when it follows bluetoothd): the
    /// SensorsProblem method.
    var sensorsProblem: () -> String = { "" }
    /// Told whenever the current fields (`currentFields`) change, before any throttling (the MPRIS
    /// player throttles its own way, and reads them when it shows them).
    var onFieldsChanged: () -> Void = {}
    /// Told of each heart_rate a producer sends (`Live.Update`), as a heart-rate sample: a script
    /// bridging a sensor restd cannot read (ANT+, a watch) counts for recovery as a strap does.
    var onHeartRateSample: (HeartSample) -> Void = { _ in }

    /// One throttled stream and its one timer, which fires the trailing edge.
    private final class Stream {
        var throttle: ThrottledStream<Fields>
        private(set) var timer: TimerSource!

        init(intervalUSec: USec, loop: EventLoop, onTrailingEdge: @escaping (Stream) -> Void) throws {
            throttle = ThrottledStream(intervalUSec: intervalUSec, lastPublished: [:])
            timer = try loop.addTimer(clock: CLOCK_BOOTTIME, at: 0, accuracyUSec: 1000) { [unowned self] _ in
                onTrailingEdge(self)
            }
            timer.isEnabled = false
        }
    }

    init(loop: EventLoop, server: ObjectServer, clock: TimeSource, limits: LiveLimits, logger: Logger) throws {
        self.loop = loop
        self.server = server
        self.clock = clock
        self.logger = logger
        activity = LiveActivity(limits: limits)
        backlog = SubscriberBacklog(connection: server.connection, logger: logger)
        broadcastRateHz = limits.broadcastRateHz
        broadcast = try Stream(
            intervalUSec: ThrottledStream<Fields>.interval(forRateHz: limits.broadcastRateHz), loop: loop
        ) {
            [unowned self] stream in self.fire(stream, to: nil)
        }
        staleTimer = try loop.addTimer(clock: CLOCK_BOOTTIME, at: 0, accuracyUSec: 1000) { [unowned self] _ in
            self.removeStaleHeartRate()
        }
        staleTimer.isEnabled = false
        // A subscription ends with its subscriber's connection.
        let connection = server.connection
        try connection.addMatch(MessageBus.nameOwnerChangedRule(leavingOnly: true))
        connection.addSignalFilter { [unowned self] message in
            if let change = message.nameOwnerChange, change.newOwner.isEmpty { unsubscribe(change.name) }
            return false  // others watch names too
        }
        backlog.onOverflow = { [unowned self] name, queued in
            logger.warning(
                .init(
                    stringLiteral: localized(
                        "subscriber %1$s does not read its messages (%2$s bytes waiting on the bus); dropped", name,
                        queued))
            )
            unsubscribe(name)
        }
    }

    var subscriberCount: Int { subscribers.count }

    // MARK: Configuration

    /// A new broadcast rate (a reload): MaxRateHz changes, with PropertiesChanged, and a
    /// publication already pending moves to the end of the new interval.
    func setBroadcastRate(_ rateHz: Double) {
        guard rateHz != broadcastRateHz else { return }
        broadcastRateHz = rateHz
        LiveObject.emitChanged([LiveProperty.maxRateHz], of: self, on: server)
        let interval = ThrottledStream<Fields>.interval(forRateHz: rateHz)
        act(on: broadcast, broadcast.throttle.setInterval(interval), to: nil, now: clock.now())
    }

    /// A new staleness interval for heart_rate (a reload); it applies from the next update of
    /// heart_rate on (see `LiveActivity.setHeartRateStaleUSec`).
    func setHeartRateStaleness(_ usec: USec) {
        activity.setHeartRateStaleUSec(usec)
    }

    /// The last broadcast snapshot: what the Fields property shows.
    var publishedFields: Fields { broadcast.throttle.lastPublished ?? [:] }

    /// The fields as they are now, throttle or not. Read, not kept: a copy kept elsewhere
    /// would make every update copy the activity's fields before changing them.
    var currentFields: Fields { activity.fields }

    /// Sets done of sets planned as the activity has them now, throttle or not.
    var progress: LiveProgress? { LiveProgress(fields: activity.fields) }

    // MARK: Producers

    func update(_ entries: Fields, removing removed: Set<String> = []) throws(DBusError) {
        let now = clock.now()
        let changed: Bool
        do {
            changed = try activity.update(entries, removing: removed, boottime: now.boottime)
        } catch {
            throw error.dbusError
        }
        rearmStaleTimer()
        if changed { offerToAll(now: now) }
        if case .integer(let bpm)? = entries[LiveKey.heartRate] {
            let contact: HeartRateMeasurement.Contact =
                switch entries[LiveKey.heartRateContact] {
                case .boolean(false)?: .lost
                case .boolean(true)?: .detected
                default: .unsupported
                }
            onHeartRateSample(HeartSample(atUSec: now.boottime, beatsPerMinute: Int(bpm), contact: contact))
        }
    }

    /// A strap's reading (restd's own Bluetooth producer): the same throttle and staleness as
    /// Update, and a producer's heart_rate takes precedence over it for a while. Returns whether
    /// the reading counts (it does not while a producer's heart_rate takes precedence): only
    /// then is it the heart rate recovery follows.
    @discardableResult
    func applyStrapReading(_ entries: Fields) -> Bool {
        let now = clock.now()
        let counts = activity.takesStrapReading(boottime: now.boottime)
        let changed = activity.applyStrapReading(entries, boottime: now.boottime)
        rearmStaleTimer()
        if changed { offerToAll(now: now) }
        return counts
    }

    /// A set was recorded (restd's own producer, like a strap): the activity shows its exercise
    /// and its sets done in a row today, out of the exercise's `sets` when configured. The
    /// progress belongs to the exercise: another exercise starts it again, without the total
    /// of the one before.
    /// During a workout it shows the workout's name, and the sets done out of those planned
    /// in the whole workout ("3/15").
    func applySet(_ set: PlannedSet) {
        if let workout = set.workout {
            applyWorkout(workout, exercise: set.record.exercise)
            return
        }
        let done = Int64(min(set.setsInARow, 1000))
        var entries: Fields = [LiveKey.exercise: .string(set.record.exercise), LiveKey.progressDone: .integer(done)]
        var removed: Set<String> = []
        if let planned = set.setsPlanned {
            entries[LiveKey.progressTotal] = .integer(max(Int64(planned), done))
        } else if activity.fields[LiveKey.exercise] == .string(set.record.exercise),
            case .integer(let total)? = activity.fields[LiveKey.progressTotal]
        {
            // Another producer's total for this exercise stays; once passed, it follows the count.
            entries[LiveKey.progressTotal] = .integer(max(total, done))
        } else {
            removed.insert(LiveKey.progressTotal)
        }
        do {
            try update(entries, removing: removed)
        } catch {
            logger.warning(
                .init(stringLiteral: localized("could not show the set in the live activity: %1$s", error.message)))
        }
    }

    /// The workout in progress (started, or moved to another exercise): its name, the exercise
    /// (the one just done, else the one coming), and its sets done of planned.
    func applyWorkout(_ workout: ActiveWorkout, exercise: String? = nil) {
        let entries: Fields = [
            LiveKey.workout: .string(workout.name),
            LiveKey.exercise: .string(exercise ?? workout.progress.currentExercise?.name ?? ""),
            LiveKey.progressDone: .integer(Int64(workout.progress.setsDone)),
            LiveKey.progressTotal: .integer(Int64(max(workout.progress.plan.setsPlanned, workout.progress.setsDone))),
        ]
        do {
            try update(entries)
        } catch {
            logger.warning(
                .init(stringLiteral: localized("could not show the workout in the live activity: %1$s", error.message)))
        }
    }

    /// The workout ended: its name, exercise and progress leave the activity, so that nothing
    /// shows them with what comes next (a later rest's "Rest over", the bars).
    func removeWorkout() {
        let keys: Set<String> = [LiveKey.workout, LiveKey.exercise, LiveKey.progressDone, LiveKey.progressTotal]
        do {
            try update([:], removing: keys)
        } catch {
            logger.warning(
                .init(
                    stringLiteral: localized("could not clear the workout from the live activity: %1$s", error.message))
            )
        }
    }

    func end() {
        let now = clock.now()
        guard activity.end() else { return }
        rearmStaleTimer()
        onFieldsChanged()
        // The end of an activity is published at once on every stream, outside the rate.
        act(on: broadcast, broadcast.throttle.publishImmediately([:], now: now.boottime), to: nil, now: now)
        for (name, stream) in subscribers {
            act(on: stream, stream.throttle.publishImmediately([:], now: now.boottime), to: name, now: now)
        }
    }

    private func removeStaleHeartRate() {
        staleTimerDue = nil  // fired, and so off
        let now = clock.now()
        guard activity.removeStale(boottime: now.boottime) else { return rearmStaleTimer() }
        logger.debug("heart_rate or the strap's fields went stale and were removed")
        rearmStaleTimer()
        offerToAll(now: now)
    }

    private func rearmStaleTimer() {
        guard let staleAt = activity.staleAt else {
            if staleTimerDue != nil { staleTimer.isEnabled = false }
            staleTimerDue = nil
            return
        }
        if let due = staleTimerDue, due <= staleAt { return }
        staleTimer.schedule(at: staleAt)
        staleTimerDue = staleAt
    }

    // MARK: Subscribers

    func subscribe(_ name: String, rateHz: Double) throws(DBusError) {
        let limits = activity.limits
        guard rateHz.isFinite, limits.subscriberRateHz.contains(rateHz) else {
            throw DBusError(
                .invalidArgs,
                localized(
                    "max_rate_hz %1$s is out of range: give %2$s to %3$s Hz", MessageText.number(rateHz),
                    MessageText.number(limits.subscriberRateHz.lowerBound),
                    MessageText.number(limits.subscriberRateHz.upperBound)))
        }
        let interval = ThrottledStream<Fields>.interval(forRateHz: rateHz)
        let now = clock.now()
        if let stream = subscribers[name] {
            act(on: stream, stream.throttle.setInterval(interval), to: name, now: now)
            return
        }
        guard subscribers.count < limits.maxSubscribers else {
            throw DBusError(
                name: RestErrorName.limitExceeded,
                message: localizedPlural(
                    "at most %1$d subscriber is served at once; read the Fields property and its PropertiesChanged instead, or try again later",
                    "at most %1$d subscribers are served at once; read the Fields property and its PropertiesChanged instead, or try again later",
                    count: limits.maxSubscribers, limits.maxSubscribers))
        }
        let stream: Stream
        do {
            stream = try Stream(intervalUSec: interval, loop: loop) { [unowned self] stream in
                self.fire(stream, to: name)
            }
        } catch {
            throw DBusError(.failed, localized("cannot add a subscriber: %1$s", String(describing: error)))
        }
        subscribers[name] = stream
        onSubscribersChanged()
        // A new subscriber gets the current fields at once, if there are any.
        act(on: stream, stream.throttle.offer(activity.fields, now: now.boottime), to: name, now: now)
    }

    func unsubscribe(_ name: String) {
        guard let stream = subscribers.removeValue(forKey: name) else { return }
        stream.timer.cancel()
        backlog.forget(name)
        onSubscribersChanged()
    }

    // MARK: Publishing

    private func offerToAll(now: Instant) {
        onFieldsChanged()
        act(on: broadcast, broadcast.throttle.offer(activity.fields, now: now.boottime), to: nil, now: now)
        for (name, stream) in subscribers {
            act(on: stream, stream.throttle.offer(activity.fields, now: now.boottime), to: name, now: now)
        }
    }

    private func fire(_ stream: Stream, to name: String?) {
        let now = clock.now()
        act(on: stream, stream.throttle.fire(activity.fields, now: now.boottime), to: name, now: now)
    }

    private func act(on stream: Stream, _ action: ThrottledStream<Fields>.Action, to name: String?, now: Instant) {
        switch action {
        case .publish(let fields):
            if let name {
                LiveObject.emitChanged(fields, atUSec: now.realtime, to: name, on: server)
                backlog.sent(to: name)
            } else {
                publishBroadcast(fields, now: now)
            }
        case .schedule(let due):
            stream.timer.schedule(at: due)
        case .none:
            break
        }
    }

    /// PropertiesChanged of the live object: Fields and UpdatedAtUSec, and Active when it flips.
    /// `fields` are what the broadcast's stream has just published (its `lastPublished`).
    private func publishBroadcast(_ fields: Fields, now: Instant) {
        var changed = [LiveProperty.fields, LiveProperty.updatedAtUSec]
        if fields.isEmpty != broadcastWasEmpty { changed.append(LiveProperty.active) }
        broadcastWasEmpty = fields.isEmpty
        updatedAtUSec = now.realtime
        LiveObject.emitChanged(changed, of: self, on: server)
    }
}
