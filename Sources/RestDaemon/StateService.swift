import DBusKit
import EventLoop
import Glibc
import Localization
import Logging
import RestCore
import RestProtocol

/// The one door of every change. A caller's `Command` (`perform`) and restd's own `Occurrence`s
/// (posted on `queue`) take one path: read what the history must tell (`Books.questions`), plan in
/// the core, write as the plan says (a caller's first, refused when it cannot be; restd's own
/// after its signals, at once or batched), apply, tell the observers, re-arm the wake-ups.
/// Before a caller's command, what is due by then is drained first, as restd's own messages.
final class StateService {
    private(set) var books: Books
    var book: TimerBook { books.timers }
    var training: TrainingBook { books.training }
    /// Where restd's own messages wait; drained in order, each carried out before the next.
    let queue = OccurrenceQueue()
    /// The rests followed on recovery: settled before what is due, asked whether heart rate comes.
    weak var recovery: RecoveryService?
    /// Told, in order, of every change once it is carried out. Set once, by the daemon.
    var observers: [(Committed) -> Void] = []
    /// The summary of the last workout that ended (Workout.Summary), read at start-up.
    private(set) var lastWorkoutSummary: WorkoutSummary?
    private let store: StateStore
    private let clock: TimeSource
    private let logger: Logger
    /// The daemon's sd-event loop; in the unit tests, the manual clock.
    private let loop: any TimerScheduling
    /// What start-up recovery found, told to the observers once restd serves (`announceRecovered`).
    private var recovered: [TimerEvent]
    /// Plans applied and announced but not yet written, oldest first; written before the next
    /// write, `writeDelayUSec` after the first batched one, and when the store closes.
    private var unwritten: [ChangePlan] = []
    /// The next expiry, pre-alert or clean-up (CLOCK_BOOTTIME, 1 µs accuracy); the workout's
    /// abandonment (CLOCK_REALTIME: its deadline is a wall-clock one); the batched write (idle
    /// priority). Each is off when nothing waits for it: never a periodic wake.
    private var expiryTimer: (any ScheduledTimer)!
    private var abandonTimer: (any ScheduledTimer)!
    private var delayedWriter: (any ScheduledTimer)!
    /// Long enough for a burst of expiries to be a few writes, not one each; short beside any rest.
    static let writeDelayUSec: UInt64 = 10_000

    /// `books` as start-up recovery left them, with `recovered` (its timer events) and
    /// `recoveredHistory` applied but not yet stored: written here, with the history older than
    /// keep_days pruned, and announced by `announceRecovered`.
    init(
        books: Books, recovered: [TimerEvent], recoveredHistory: [HistoryChange], store: StateStore,
        clock: TimeSource, loop: any TimerScheduling, logger: Logger
    ) throws(SystemError) {
        self.books = books
        self.recovered = recovered
        self.store = store
        self.clock = clock
        self.logger = logger
        self.loop = loop
        var startUp = ChangePlan(events: recovered, history: recoveredHistory)
        startUp.pruneBeforeUSec = books.training.settings.historyCutoffUSec(now: clock.now().realtime)
        startUp.write = .afterAnnouncing
        startUp.what = localized("the state recovered at start-up")
        try? write(startUp)
        do {
            lastWorkoutSummary = try store.lastWorkoutSummary()
        } catch {
            logger.error("\(error)")
        }
        expiryTimer = try loop.addTimer(clock: CLOCK_BOOTTIME, at: 0, accuracyUSec: 1, priority: .normal) {
            [unowned self] _ in
            self.catchUp(now: self.clock.now(), marksRunning: true)
        }
        abandonTimer = try loop.addTimer(
            clock: CLOCK_REALTIME, at: 0, accuracyUSec: 1_000_000, priority: .normal
        ) { [unowned self] _ in
            self.queue.post(.workoutAbandonDue, at: self.clock.now())
        }
        delayedWriter = try loop.addTimer(clock: CLOCK_MONOTONIC, at: 0, accuracyUSec: 1_000, priority: .idle) {
            [unowned self] _ in self.writeUnwritten()
        }
        for timer in [expiryTimer, abandonTimer, delayedWriter] { timer?.isEnabled = false }
        queue.carryOut = { [unowned self] occurrence, now in try? self.carryOut(.occurrence(occurrence), now: now) }
    }

    /// Carries out a caller's `command` at the time now, once what was due by then is carried out;
    /// refused with StorageFailed, nothing changed, when the disk cannot be read or written. The
    /// change is on disk before this returns. Returns what was carried out (nothing, when the plan
    /// changed nothing: pausing a paused timer).
    @discardableResult
    func perform(_ command: Command) throws(DBusError) -> Committed {
        let now = clock.now()
        catchUp(now: now, marksRunning: false)
        queue.post(.workoutAbandonDue, at: now)
        return try queue.holding { () throws(DBusError) -> Committed in try carryOut(.command(command), now: now) }
    }

    /// What a punctual restd would have carried out by `now`, as its own messages: rests that
    /// recovered or whose strap came back, how the followed rests recovered so far, then what is
    /// due (with the rests whose strap was lost; `Occurrence.due`).
    func catchUp(now: Instant, marksRunning: Bool) {
        let lost = recovery?.settle(now: now) ?? []
        recovery?.noteMetrics(now: now)
        queue.post(.due(strapsLost: lost, marksRunning: marksRunning), at: now)
    }

    /// The one path: facts → plan → write as the plan says → apply → observers → wake-ups.
    @discardableResult
    private func carryOut(_ change: Change, now: Instant) throws(DBusError) -> Committed {
        let facts = try facts(for: change, now: now)
        let plan: ChangePlan
        do {
            plan = try books.plan(
                change, facts: facts, heartRateComingIn: recovery?.heartRateComingIn(at: now) ?? true, now: now)
        } catch {
            throw error.dbusError
        }
        switch plan.logged {
        case .info(let line)?: logger.info("\(line)")
        case .debug(let line)?: logger.debug("\(line)")
        case nil: break
        }
        guard !plan.isEmpty else {
            if !plan.notes.isEmpty { apply(plan, now: now) }
            return Committed(imported: plan.imported)
        }
        if plan.write == .first {
            writeUnwritten()
            try write(plan)
        } else {
            unwritten.append(plan)
        }
        let committed = apply(plan, now: now)
        for observer in observers { observer(committed) }
        if plan.write == .afterAnnouncing {
            writeUnwritten()
        } else if plan.write == .batched, !unwritten.isEmpty, !delayedWriter.isEnabled {
            delayedWriter.schedule(at: loop.now(CLOCK_MONOTONIC) + Self.writeDelayUSec)
        }
        return committed
    }

    /// The history's answer to what planning `change` needs. A caller's command that cannot be
    /// answered is refused for the true reason; restd's own is planned without the answer.
    private func facts(for change: Change, now: Instant) throws(DBusError) -> HistoryFacts {
        do {
            return try store.answer(books.questions(for: change, now: now))
        } catch {
            guard case .command = change else {
                logger.error("\(error)")
                return HistoryFacts()
            }
            logger.error(
                .init(stringLiteral: localized("could not read the history for a command, refusing it: %1$s", error)))
            throw DBusError(name: RestErrorName.storageFailed, message: localized("%1$s; nothing was changed", error))
        }
    }

    /// Writes a plan in one transaction. A caller's that cannot be stored is refused
    /// (StorageFailed, nothing changed); restd's own is logged, and the next start recomputes it
    /// from the stored deadlines.
    private func write(_ plan: ChangePlan) throws(DBusError) {
        do {
            try store.commit(plan.events, history: plan.history, pruneBeforeUSec: plan.pruneBeforeUSec)
        } catch {
            guard plan.write == .first else {
                return logger.error(.init(stringLiteral: localized("could not store %1$s: %2$s", plan.what, error)))
            }
            logger.error(.init(stringLiteral: localized("could not store a change, refusing it: %1$s", error)))
            throw DBusError(
                name: RestErrorName.storageFailed,
                message: localized("the change could not be saved (%1$s); nothing was changed", error))
        }
    }

    /// Writes the plans not yet written, oldest first, in one transaction.
    private func writeUnwritten() {
        guard !unwritten.isEmpty else { return }
        var batch = ChangePlan(events: unwritten.flatMap(\.events), history: unwritten.flatMap(\.history))
        batch.write = .batched
        var what: [String] = []
        for plan in unwritten where !what.contains(plan.what) { what.append(plan.what) }
        batch.what = what.joined(separator: ", ")
        unwritten = []
        delayedWriter.isEnabled = false
        try? write(batch)
    }

    /// Applies a plan to the books and re-arms the wake-ups; returns what the observers hear.
    @discardableResult
    private func apply(_ plan: ChangePlan, now: Instant) -> Committed {
        let workoutBefore = books.training.workout
        books.apply(plan)
        rearm(now: now)
        var committed = Committed(events: plan.events, set: plan.set, fixed: plan.fixed, imported: plan.imported)
        if books.training.workout != workoutBefore {
            let ended = plan.history.lazy.compactMap { change -> WorkoutSummary? in
                if case .workoutEnded(let summary) = change { summary } else { nil }
            }.first
            if let ended { lastWorkoutSummary = ended }
            committed.workout = Committed.WorkoutChange(current: books.training.workout, ended: ended)
        }
        return committed
    }

    private func rearm(now: Instant) {
        expiryTimer.schedule(at: books.timers.nextWakeup(now: now))
        abandonTimer.schedule(at: books.training.workoutAbandonDeadline)
    }

    /// Announces what start-up recovery found (already applied and stored), once restd serves.
    func announceRecovered() {
        let events = recovered
        recovered = []
        if !events.isEmpty { for observer in observers { observer(Committed(events: events)) } }
        rearm(now: clock.now())
    }

    /// The store, for the history's reads. Reading never writes: restd's own changes to the
    /// history are written right after they are announced, in the same loop iteration.
    func storeForReading() -> StateStore { store }

    /// The store's cache, given back with the heap after a large read (`MemoryTrimmer`).
    func releaseCachedPages() { store.releaseCachedPages() }

    /// Writes what is unwritten and closes the store, when restd stops.
    func closeStore() {
        writeUnwritten()
        do {
            try store.close()
        } catch {
            logger.error("\(error)")
        }
    }
}

extension ScheduledTimer {
    /// Armed at `usec`, or off when nil.
    fileprivate func schedule(at usec: USec?) {
        if let usec { schedule(at: usec) } else { isEnabled = false }
    }
}
