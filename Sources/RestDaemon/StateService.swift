import DBusKit
import EventLoop
import Glibc
import Logging
import RestCore
import RestProtocol

/// What one carried-out change did, as the daemon's parts hear of it (`StateService.observers`)
/// and as `StateService.perform` returns it to the caller that asked for it.
struct Committed {
    /// The timer events, applied to the book; often none (a workout that moved).
    var events: [TimerEvent] = []
    /// The set recorded, with the rest it started.
    var set: PlannedSet?
    /// The workout, when it started, moved or ended.
    var workout: WorkoutChange?

    struct WorkoutChange {
        /// The workout in progress now; nil when none is.
        var current: ActiveWorkout?
        /// The summary of the workout that just ended, if one did.
        var ended: WorkoutSummary?
    }
}

/// The one path by which timers, the training history and the workout change: it reads the
/// history's facts a command needs, plans in the core (a pure function of the command, the
/// books, those facts and the time), commits to SQLite, applies the change to the books, tells
/// the observers one `Committed`, and arms the one timer of the next expiry. A command's plan
/// (`TrainingBook.plan`) holds its timer events and its history changes, committed in one
/// transaction and applied together. Nothing else in restd writes to the store.
///
/// Two orders, on purpose (`CommitPolicy`):
///
/// - A caller's command (`perform`: bus methods, notification and media player buttons):
///   read facts → plan → commit → apply → observers (signals) → reply.
///   The change is on disk before anyone hears of it, so no reply or signal can announce what a
///   crash would lose; a change that cannot be stored is refused (StorageFailed) and nothing
///   happens.
/// - restd's own housekeeping (`runDue`, `wallClockChanged`, recovery, an abandoned workout):
///   plan → apply → observers (signals) → commit. Start-up recovery is applied and committed
///   when restd starts, and told to the observers once it serves (`announceRecovered`).
///   It cannot be refused: a rest is over on time even when the disk is full, and the disk's sync
///   (a millisecond, more on a busy disk) is not added to every Expired's lateness. What the next
///   start would recompute from the stored deadlines — the timers' expiries and clean-ups — is
///   written `writeDelayUSec` later, once no other source is pending (`delayedWriter`): a burst
///   of expiries is a few transactions, not one each, and the sync does not compete with the
///   subscribers waking up for the signals. A crash in between only means that the next start
///   finds the deadline passed and announces the expiry again (a pre-alert may be shown again).
///   What no start could recompute, and any change to the history, is written at once
///   (`HousekeepingWrite`): a read of the store never writes, so the history it reads must
///   already hold every change announced. What is left unwritten is written before the next
///   commit (a caller's, or housekeeping written at once) and when the store closes, so that
///   none is written out of order.
final class StateService {
    private(set) var book: TimerBook
    /// The rests in progress and the training rules; its settings follow the configuration.
    private(set) var training: TrainingBook
    private let store: StateStore
    private let clock: TimeSource
    private let logger: Logger
    /// Fires at the next expiry, pre-alert or clean-up (CLOCK_BOOTTIME, 1 µs accuracy); off when none.
    private var expiryTimer: TimerSource!
    /// Fires when the workout in progress is due to be abandoned (CLOCK_REALTIME, the deadline is
    /// a wall-clock one); off when none runs. Never a periodic wake.
    private var abandonTimer: TimerSource!
    private let loop: EventLoop
    /// Housekeeping applied and announced but not yet written, oldest first. It holds at most a
    /// few events per timer: a new timer comes from a caller, whose commit writes these first.
    private var unwritten: [(events: [TimerEvent], history: [HistoryChange], what: String)] = []
    /// Writes `unwritten` `writeDelayUSec` after the first of it, in an iteration where nothing
    /// of normal priority is pending.
    private var delayedWriter: TimerSource!
    /// Long enough for a burst of expiries to be a few writes, not one each; short beside any rest.
    static let writeDelayUSec: UInt64 = 10_000

    /// Told, in order, of every change once it is carried out. Set once, by the daemon.
    var observers: [(Committed) -> Void] = []
    /// Runs at `now` before anything due is planned (`runDue`): recovery settles its rests first
    /// and names those whose strap was lost, planned with what is due in one change, so that such
    /// a rest ends as `sensor_lost` rather than `planned` without a write of its own before its
    /// Expired. Set once, by the daemon.
    var beforeDue: (Instant) -> Set<TimerID> = { _ in [] }
    /// Whether heart rate is coming in at `now` (a valid sample in the last 5 s): when not, a
    /// command's rest that may end on recovery starts marked as without it
    /// (`CommandPlan.withoutHeartRate`). Set once, by the daemon.
    var heartRateComingIn: (Instant) -> Bool = { _ in true }
    /// The summary of the last workout that ended (Workout.Summary), read at start-up.
    private(set) var lastWorkoutSummary: WorkoutSummary?
    /// What start-up recovery found, told to the observers once restd serves (`announceRecovered`).
    private var recovered: [TimerEvent]

    /// Whether a change is written before it is applied (and refused when it cannot be), or
    /// after (and only logged when it cannot be), with what the log then calls it.
    private enum CommitPolicy {
        case callersChange
        case housekeeping(what: String)
    }

    /// `book` and `training` as start-up recovery left them, with `recovered` (its timer events)
    /// and `recoveredHistory` (the rests they ended) applied but not yet stored: they are written
    /// here, with the history older than keep_days pruned, and announced by `announceRecovered`.
    init(
        book: TimerBook, training: TrainingBook, recovered: [TimerEvent], recoveredHistory: [HistoryChange],
        store: StateStore, clock: TimeSource, loop: EventLoop, logger: Logger
    ) throws(SystemError) {
        self.book = book
        self.training = training
        self.recovered = recovered
        self.store = store
        self.clock = clock
        self.logger = logger
        self.loop = loop
        writeHousekeeping(
            recovered, history: recoveredHistory, pruneBeforeUSec: pruneCutoff(now: clock.now()),
            what: "the state recovered at start-up")
        // Accuracy 1 µs: sd-event's default would let an expiry fire up to 250 ms late.
        expiryTimer = try loop.addTimer(clock: CLOCK_BOOTTIME, at: 0, accuracyUSec: 1) { [unowned self] _ in
            self.runDue()
        }
        expiryTimer.isEnabled = false
        do {
            lastWorkoutSummary = try store.lastWorkoutSummary()
        } catch {
            logger.error("\(error)")
        }
        abandonTimer = try loop.addTimer(clock: CLOCK_REALTIME, at: 0, accuracyUSec: 1_000_000) { [unowned self] _ in
            self.abandonWorkoutIfDue()
        }
        abandonTimer.isEnabled = false
        delayedWriter = try loop.addTimer(clock: CLOCK_MONOTONIC, at: 0, accuracyUSec: 1_000, priority: .idle) {
            [unowned self] _ in self.writeUnwritten()
        }
        delayedWriter.isEnabled = false
    }

    /// Ends a workout left untouched past `[workout] abandon_after`, as abandoned (restd's own
    /// housekeeping: at start-up, before each command, and when its one timer fires), and arms
    /// that timer for the workout in progress.
    func abandonWorkoutIfDue() {
        let now = clock.now()
        if training.isWorkoutAbandonDue(now: now.realtime) {
            // Housekeeping cannot be refused: a history that cannot be read sums up to nothing.
            let soFar: WorkoutSoFar
            do {
                soFar = try workoutSoFar(now: now)
            } catch {
                logger.error("\(error)")
                soFar = WorkoutSoFar()
            }
            let history = training.planWorkoutAbandon(now: now.realtime, soFar: soFar)
            logger.info(
                "the workout \(MessageText.quoted(training.workout?.name ?? "")) was left untouched; ended as abandoned"
            )
            carryOutHousekeeping([], history: history, now: now, what: "the abandoned workout", write: .now)
        }
        rearmAbandon()
    }

    private func rearmAbandon() {
        if let deadline = training.workoutAbandonDeadline {
            abandonTimer.schedule(at: deadline)
        } else {
            abandonTimer.isEnabled = false
        }
    }

    // MARK: A caller's command: read → plan → commit → apply → signal → reply

    /// Carries out `command`, the one path of a caller's change: at the time now, once what is
    /// due has run, the history's facts it needs are read, it is planned in the core, committed,
    /// applied and announced; refused with StorageFailed, nothing changed, when the disk cannot
    /// be read or written. The change is on disk before this returns, so the caller's reply can never
    /// announce something a crash would lose. Returns what was carried out: nothing when the
    /// plan changed nothing (pausing a paused timer).
    @discardableResult
    func perform(_ command: Command) throws(DBusError) -> Committed {
        let now = clock.now()
        // Expire what is due first, so the command sees the state a punctual daemon would have.
        // A rest whose strap was lost is marked only when it expires here: the command ends it,
        // or it is marked at its end or the next housekeeping, not in a write of its own first.
        runDue(now: now, marksLostRests: false)
        abandonWorkoutIfDue()
        let facts: HistoryFacts
        do {
            facts = try readFacts(for: command, now: now)
        } catch {
            // Planned without them, the command would be refused for a wrong reason (a set "with
            // no previous set") or recorded wrong: refused for the true one.
            logger.error("could not read the history for a command, refusing it: \(error)")
            throw DBusError(name: RestErrorName.storageFailed, message: "\(error); nothing was changed")
        }
        var plan: CommandPlan
        do {
            plan = try training.plan(command, timers: book, facts: facts, now: now)
        } catch {
            throw error.dbusError
        }
        if !heartRateComingIn(now) { plan = plan.withoutHeartRate(now: now) }
        guard !plan.isEmpty else { return Committed() }
        // A set prunes the history older than keep_days in its own transaction.
        let prune = plan.set == nil ? nil : pruneCutoff(now: now)
        // Housekeeping first, in its own transaction: the change is planned on top of it, and is
        // not refused when only the housekeeping cannot be written.
        writeUnwritten()
        try write(plan.events, history: plan.history, pruneBeforeUSec: prune, policy: .callersChange)
        return applyAndAnnounce(events: plan.events, history: plan.history, set: plan.set, now: now)
    }

    /// What the history says that planning `command` needs, and nothing more: for a set, its
    /// timer's previous exercise, its exercise's facts, and the workout so far when it is the
    /// workout's last; for End, the workout so far.
    private func readFacts(for command: Command, now: Instant) throws(StoreError) -> HistoryFacts {
        var facts = HistoryFacts()
        switch command {
        case .completeSet(let id, let input):
            if input.exercise == nil { facts.previousExercise = try store.lastExercise(timer: id) }
            if let name = training.exercise(ofSet: input, previousExercise: facts.previousExercise) {
                facts.exercises[name.key] = try store.facts(
                    name, dayStartUSec: LocalCalendar.startOfDay(containing: now.realtime),
                    weightKg: training.weight(ofSet: input))
            }
            if training.setEndsWorkout(input) { facts.workoutSoFar = try workoutSoFar(now: now) }
        case .workout(.end):
            facts.workoutSoFar = try workoutSoFar(now: now)
        case .timer, .workout:
            break
        }
        return facts
    }

    /// The sets and rests of the workout in progress so far, for its summary.
    private func workoutSoFar(now: Instant) throws(StoreError) -> WorkoutSoFar {
        guard let workout = training.workout else { return WorkoutSoFar() }
        return try store.workoutSoFar(since: workout.progress.startedAtUSec, until: now.realtime)
    }

    /// History before this instant is pruned (`[history] keep_days`).
    func pruneCutoff(now: Instant) -> USec {
        training.settings.historyCutoffUSec(now: now.realtime)
    }

    /// Puts new training settings (from a reloaded configuration) into force for the next set.
    func setTrainingSettings(_ settings: TrainingSettings) {
        training.settings = settings
        // A new abandon_after moves the deadline of the workout in progress.
        abandonWorkoutIfDue()
    }

    /// RR intervals from a heart-rate strap: kept with the rests in progress.
    func noteRRIntervals(_ milliseconds: [Int]) {
        training.noteRRIntervals(milliseconds)
    }

    /// How heart rate recovered during the open rest on timer `id`: kept with the rest in
    /// progress, stored when it is next written.
    func noteRecovery(_ metrics: RecoveryMetrics, timer id: TimerID) {
        training.noteRecovery(metrics, timer: id)
    }

    /// A followed rest's heart rate, once restd stops following it (`RecoveryService`): written
    /// at once, with the housekeeping not yet written, since no start could compute it again;
    /// nothing is announced, no timer changes. Nothing is kept with `heart_rate_keep_days` 0.
    func keepHeartRate(_ trace: HeartRateTrace, now: Instant) {
        guard training.settings.heartRateKeepDays > 0 else { return }
        let cutoff = training.settings.heartRateCutoffUSec(now: now.realtime)
        unwritten.append(([], [.heartRateKept(trace, pruneBeforeUSec: cutoff)], "a rest's heart rate"))
        writeUnwritten()
    }

    /// The store, for the history's reads. Reading never writes: a caller's change to the history
    /// is written before it is announced, restd's own right after (`HousekeepingWrite`), in the
    /// same loop iteration, so what a read finds is what restd has announced.
    func storeForReading() -> StateStore { store }

    // MARK: restd's own housekeeping: apply → signal → commit

    /// Expires due timers, sends due pre-alerts and removes old timers; runs when the timer fires.
    func runDue(now: Instant? = nil) {
        runDue(now: now ?? clock.now(), marksLostRests: true)
    }

    /// What is due, with the rests whose strap was lost (all of them, or with `marksLostRests`
    /// false only those that expire now), in one housekeeping change.
    private func runDue(now: Instant, marksLostRests: Bool) {
        let lost = beforeDue(now)
        carryOutHousekeeping(
            book.due(now: now, recoveryLost: lost, marksRunning: marksLostRests), now: now,
            write: lost.isEmpty ? .soon : .now)
    }

    /// Ends a rest that may end on recovery because the heart rate recovered at
    /// `atBoottimeUSec`: as an expiry ("Rest over", Expired) stamped then, with `recovered` and
    /// the heart rate then. Nothing when the rest is no longer running.
    func endRecovered(_ id: TimerID, heartRateBPM: Int?, atBoottimeUSec: USec, now: Instant) {
        carryOutHousekeeping(
            book.endRecovered(id, heartRateBPM: heartRateBPM, atBoottimeUSec: atBoottimeUSec, now: now), now: now,
            write: .now)
    }

    /// Unmarks a rest whose strap is back: recovery may end it again.
    func recoveryRegained(_ id: TimerID, now: Instant) {
        carryOutHousekeeping(book.recoveryRegained(id), now: now, write: .now)
    }

    /// Marks a rest whose strap was lost: it runs to its planned maximum and ends as
    /// `sensor_lost` (its EndReason says so from now).
    func recoveryLost(_ id: TimerID, now: Instant) {
        carryOutHousekeeping(book.recoveryLost(id), now: now, write: .now)
    }

    /// Re-publishes wall-clock instants after the wall clock was set.
    func wallClockChanged() {
        let now = clock.now()
        let events = book.wallClockChanged(now: now)
        logger.info("wall clock changed; \(events.count) running timer(s) re-published")
        carryOutHousekeeping(events, now: now, write: .now)
    }

    /// Announces what start-up recovery found (already applied and stored), once restd serves.
    func announceRecovered() {
        let events = recovered
        recovered = []
        if !events.isEmpty { announce(Committed(events: events)) }
        rearm(now: clock.now())
    }

    /// Puts new limits (from a reloaded configuration) into force: what they make due now (an
    /// expired timer past a shorter retention) goes at once, and the wake-up is re-armed.
    func setLimits(_ limits: TimerLimits) {
        guard limits != book.limits else { return }
        book.limits = limits
        let now = clock.now()
        runDue(now: now)
        rearm(now: now)
    }

    /// When housekeeping is written, once it is announced.
    private enum HousekeepingWrite {
        /// `writeDelayUSec` later, with what follows: timer events the next start would recompute
        /// from the stored deadlines if a crash lost them — an expiry, a clean-up; a pre-alert may
        /// be shown again. Housekeeping that changes the history is written at once even so: the
        /// history's reads never write, and must find it.
        case soon
        /// At once: what no start could recompute — a rest ended on recovery or marked as its
        /// strap lost or back, the wall clock's step, an abandoned workout.
        case now
    }

    private func carryOutHousekeeping(_ events: [TimerEvent], now: Instant, write: HousekeepingWrite) {
        guard !events.isEmpty else { return }
        carryOutHousekeeping(
            events, history: training.followHousekeeping(events), now: now, what: "expiry or clean-up", write: write)
    }

    /// Housekeeping's one path: applied and announced now, written as `write` says. Queued
    /// before it is announced, so that an observer that writes (a rest's heart rate) writes it
    /// first, in order.
    private func carryOutHousekeeping(
        _ events: [TimerEvent], history: [HistoryChange], now: Instant, what: String, write: HousekeepingWrite
    ) {
        unwritten.append((events, history, what))
        applyAndAnnounce(events: events, history: history, now: now)
        switch write {
        case .soon where !history.isEmpty, .now:
            writeUnwritten()
        case .soon:
            // An observer may have written it already (a rest's heart rate is written at once).
            if !unwritten.isEmpty && !delayedWriter.isEnabled {
                delayedWriter.schedule(at: loop.now(CLOCK_MONOTONIC) + Self.writeDelayUSec)
            }
        }
    }

    /// Writes the housekeeping not yet written, oldest first, in one transaction.
    private func writeUnwritten() {
        guard !unwritten.isEmpty else { return }
        let batches = unwritten
        unwritten = []
        delayedWriter.isEnabled = false
        var what: [String] = []
        for batch in batches where !what.contains(batch.what) { what.append(batch.what) }
        writeHousekeeping(
            batches.flatMap(\.events), history: batches.flatMap(\.history), what: what.joined(separator: " and "))
    }

    // MARK: Both paths

    /// Writes a change in one transaction. A caller's change that cannot be stored is refused
    /// (StorageFailed, nothing changed); housekeeping that cannot be stored is logged, and the
    /// next start recomputes it from the stored deadlines.
    private func write(
        _ events: [TimerEvent], history: [HistoryChange], pruneBeforeUSec: USec? = nil, policy: CommitPolicy
    ) throws(DBusError) {
        do {
            try store.commit(events, history: history, pruneBeforeUSec: pruneBeforeUSec)
        } catch {
            switch policy {
            case .callersChange:
                logger.error("could not store a change, refusing it: \(error)")
                throw DBusError(
                    name: RestErrorName.storageFailed,
                    message: "the change could not be saved (\(error)); nothing was changed")
            case .housekeeping(let what):
                logger.error("could not store \(what): \(error)")
            }
        }
    }

    /// Housekeeping's write: never refused, only a caller's change is.
    private func writeHousekeeping(
        _ events: [TimerEvent], history: [HistoryChange], pruneBeforeUSec: USec? = nil, what: String
    ) {
        try? write(events, history: history, pruneBeforeUSec: pruneBeforeUSec, policy: .housekeeping(what: what))
    }

    /// Applies a change to the books, re-arms the wake-ups, and tells the observers; returns
    /// what they were told.
    @discardableResult
    private func applyAndAnnounce(
        events: [TimerEvent], history: [HistoryChange], set: PlannedSet? = nil, now: Instant
    ) -> Committed {
        let workoutBefore = training.workout
        training.apply(history)
        book.apply(events)
        rearm(now: now)
        var committed = Committed(events: events, set: set)
        if training.workout != workoutBefore {
            let ended = history.lazy.compactMap { change -> WorkoutSummary? in
                if case .workoutEnded(let summary) = change { summary } else { nil }
            }.first
            if let ended { lastWorkoutSummary = ended }
            rearmAbandon()
            committed.workout = Committed.WorkoutChange(current: training.workout, ended: ended)
        }
        announce(committed)
        return committed
    }

    private func announce(_ committed: Committed) {
        for observer in observers { observer(committed) }
    }

    private func rearm(now: Instant) {
        if let boottime = book.nextWakeup(now: now) {
            expiryTimer.schedule(at: boottime)
        } else {
            expiryTimer.isEnabled = false
        }
    }

    /// The store's cache, given back with the heap after a large read (`MemoryTrimmer`).
    func releaseCachedPages() {
        store.releaseCachedPages()
    }

    /// Writes what housekeeping left unwritten and closes the store, when restd stops.
    func closeStore() {
        writeUnwritten()
        do {
            try store.close()
        } catch {
            logger.error("\(error)")
        }
    }
}
