import DBusKit
import EventLoop
import Glibc
import Logging
import RestCore
import RestProtocol

/// Who hears of a batch of timer events once it is carried out (the bus, the log, notifications,
/// the service status), in the order the daemon lists them.
typealias TimerListener = ([TimerEvent]) -> Void

/// The one path by which timers change: it plans in the core, commits to SQLite, applies the
/// events to the book, tells the listeners, and arms the one timer of the next expiry. The
/// training history rides on the same path: a command's plan (`TrainingBook.plan`) holds its
/// timer events and its history changes, committed in one transaction and applied together.
///
/// Two orders, on purpose:
///
/// - A caller's command (`perform`: bus methods, notification buttons):
///   plan → commit → apply → listeners (signals) → reply.
///   The change is on disk before anyone hears of it, so no reply or signal can announce what a
///   crash would lose; a change that cannot be stored is refused (StorageFailed) and nothing
///   happens.
/// - restd's own housekeeping (`runDue`, `wallClockChanged`, start-up recovery):
///   plan → apply → listeners (signals) → commit.
///   It cannot be refused: a rest is over on time even when the disk is full, and the disk's sync
///   (a millisecond, more on a busy disk) is not added to every Expired's lateness. A crash in
///   between only means that the next start finds the deadline passed and announces the expiry
///   again; what the disk missed is recomputed from the stored deadline.
final class TimerService {
    private(set) var book: TimerBook
    /// The rests in progress and the training rules; its settings follow the configuration.
    private(set) var training: TrainingBook
    private let store: TimerStore
    private let clock: TimeSource
    private let logger: Logger
    /// Fires at the next expiry, pre-alert or clean-up (CLOCK_BOOTTIME, 1 µs accuracy); off when none.
    private var expiryTimer: TimerSource!
    /// Fires when the workout in progress is due to be abandoned (CLOCK_REALTIME, the deadline is
    /// a wall-clock one); off when none runs. Never a periodic wake.
    private var abandonTimer: TimerSource!

    /// Called, in order, with every batch of events once it is carried out. Set once, by the daemon.
    var listeners: [TimerListener] = []
    /// Called, in order, with every set once it is committed (after the timer listeners).
    var setListeners: [(PlannedSet) -> Void] = []
    /// Called, in order, when the workout in progress changed (started, moved, ended), with its
    /// summary when it ended.
    var workoutListeners: [(ActiveWorkout?, WorkoutSummary?) -> Void] = []
    /// The summary of the last workout that ended (Workout.Summary), read at start-up.
    private(set) var lastWorkoutSummary: WorkoutSummary?

    init(
        book: TimerBook, training: TrainingBook, store: TimerStore, clock: TimeSource, loop: EventLoop,
        logger: Logger
    ) throws(SystemError) {
        self.book = book
        self.training = training
        self.store = store
        self.clock = clock
        self.logger = logger
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
    }

    /// Ends a workout left untouched past `[workout] abandon_after`, as abandoned (restd's own
    /// housekeeping: at start-up, before each command, and when its one timer fires), and arms
    /// that timer for the workout in progress.
    func abandonWorkoutIfDue() {
        let now = clock.now()
        let history = training.planWorkoutAbandon(now: now.realtime) { workoutSoFar(now: now) }
        if !history.isEmpty {
            logger.info(
                "the workout \(MessageText.quoted(training.workout?.name ?? "")) was left untouched; ended as abandoned"
            )
            let before = training.workout
            training.apply(history)
            tellWorkoutListeners(history, before: before)
            do {
                try store.commit([], history: history)
            } catch {
                logger.error("could not store the abandoned workout: \(error)")
            }
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

    // MARK: A caller's command: commit → apply → signal → reply

    /// Carries out `command`. The change is on disk before this returns, so the caller's reply
    /// can never announce something a crash would lose. For a set, returns the set and its rest.
    @discardableResult
    func perform(_ command: TimerCommand) throws(DBusError) -> PlannedSet? {
        try carryOut { now throws(TimerError) in try planCommand(command, now: now) }
    }

    /// Carries out a workout command (start, next, previous, end) planned by `planning` from the
    /// training book, the timers and the time, on the same path as any command.
    func performWorkout(
        _ planning: (TrainingBook, TimerBook, Instant) throws(TimerError) -> CommandPlan
    ) throws(DBusError) {
        // The books as they are once due expiries have run: read when planning, not before.
        try carryOut { now throws(TimerError) in try planning(self.training, self.book, now) }
    }

    /// The one path of a caller's change: plan it at the time now, commit it (refused with
    /// StorageFailed, nothing changed, when the disk says no), apply it, announce it.
    @discardableResult
    private func carryOut(_ planning: (Instant) throws(TimerError) -> CommandPlan) throws(DBusError) -> PlannedSet? {
        let now = clock.now()
        // Expire what is due first, so the command sees the state a punctual daemon would have.
        runDue(now: now)
        abandonWorkoutIfDue()
        let plan: CommandPlan
        do {
            plan = try planning(now)
        } catch {
            throw error.dbusError
        }
        guard !plan.isEmpty else { return nil }
        do {
            // A set prunes the history older than keep_days in its own transaction.
            let prune = plan.set == nil ? nil : pruneCutoff(now: now)
            try store.commit(plan.events, history: plan.history, pruneBeforeUSec: prune)
        } catch {
            logger.error("could not store a change, refusing it: \(error)")
            throw DBusError(
                name: RestErrorName.storageFailed,
                message: "the change could not be saved (\(error)); nothing was changed")
        }
        let workoutBefore = training.workout
        training.apply(plan.history)
        apply(plan.events, now: now)
        // The workout first: a set's own listeners (the live activity's exercise) come last.
        tellWorkoutListeners(plan.history, before: workoutBefore)
        if let set = plan.set {
            for listener in setListeners { listener(set) }
        }
        return plan.set
    }

    /// The daemon's clock.
    func now() -> Instant { clock.now() }

    /// The sets and rests of the workout in progress so far, for its summary.
    func workoutSoFar(now: Instant) -> WorkoutSoFar {
        guard let workout = training.workout else { return WorkoutSoFar() }
        do {
            return try store.workoutSoFar(since: workout.progress.startedAtUSec, until: now.realtime)
        } catch {
            logger.error("\(error)")
            return WorkoutSoFar()
        }
    }

    private func tellWorkoutListeners(_ history: [HistoryChange], before: ActiveWorkout?) {
        guard before != training.workout else { return }
        let summary = history.lazy.compactMap { change -> WorkoutSummary? in
            if case .workoutEnded(let summary) = change { summary } else { nil }
        }.first
        if let summary { lastWorkoutSummary = summary }
        rearmAbandon()
        for listener in workoutListeners { listener(training.workout, summary) }
    }

    /// Plans in the core; for a set, the store is asked what the history knows first.
    private func planCommand(_ command: TimerCommand, now: Instant) throws(TimerError) -> CommandPlan {
        guard case .completeSet(let id, let input) = command else {
            return try training.plan(command, timers: book, now: now)
        }
        let previous: String?
        do {
            previous = input.exercise == nil ? try store.lastExercise(timer: id) : nil
        } catch {
            logger.error("\(error)")
            previous = nil
        }
        let dayStart = LocalCalendar.startOfDay(containing: now.realtime)
        return try training.plan(
            command, timers: book, now: now, previousExercise: previous,
            facts: { [store, logger] name in
                do {
                    return try store.facts(name, dayStartUSec: dayStart)
                } catch {
                    logger.error("\(error)")
                    return ExerciseFacts()
                }
            }, workoutSoFar: { self.workoutSoFar(now: now) })
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

    /// The store, for the history's queries (read-only use).
    var historyStore: TimerStore { store }

    // MARK: restd's own housekeeping: apply → signal → commit

    /// Expires due timers, sends due pre-alerts and removes old timers; runs when the timer fires.
    func runDue(now: Instant? = nil) {
        let now = now ?? clock.now()
        commitHousekeeping(book.due(now: now), now: now)
    }

    /// Re-publishes wall-clock instants after the wall clock was set.
    func wallClockChanged() {
        let now = clock.now()
        let events = book.wallClockChanged(now: now)
        logger.info("wall clock changed; \(events.count) running timer(s) re-published")
        commitHousekeeping(events, now: now)
    }

    /// Announces what start-up recovery found (already applied to the book and stored).
    func announceRecovered(_ events: [TimerEvent]) {
        tellListeners(events)
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

    private func commitHousekeeping(_ events: [TimerEvent], now: Instant) {
        guard !events.isEmpty else { return }
        let history = training.followHousekeeping(events)
        training.apply(history)
        apply(events, now: now)
        do {
            try store.commit(events, history: history)
        } catch {
            logger.error("could not store expiry or clean-up: \(error)")
        }
    }

    // MARK: Both paths

    private func apply(_ events: [TimerEvent], now: Instant) {
        book.apply(events)
        tellListeners(events)
        rearm(now: now)
    }

    private func tellListeners(_ events: [TimerEvent]) {
        for listener in listeners { listener(events) }
    }

    private func rearm(now: Instant) {
        if let boottime = book.nextWakeup(now: now) {
            expiryTimer.schedule(at: boottime)
        } else {
            expiryTimer.isEnabled = false
        }
    }

    /// Closes the store when restd stops (nothing is written after the loop has ended).
    func closeStore() {
        do {
            try store.close()
        } catch {
            logger.error("\(error)")
        }
    }
}
