import DBusKit
import Logging
import RestCore
import RestProtocol

/// Owns the timer book and its store, and carries out every change in one order:
/// plan → write to disk → apply in memory → announce → re-arm the wake-up.
final class TimerService {
    private(set) var book: TimerBook
    private let store: TimerStore
    private let clock: TimeSource
    private let logger: Logger

    /// Called, in order, with every batch of events once it is stored and applied
    /// (bus signals, notifications, status).
    private var observers: [([TimerEvent]) -> Void] = []
    /// Called with the CLOCK_BOOTTIME instant of the next wake-up, or nil when none is needed.
    var scheduleWakeup: (USec?) -> Void = { _ in }

    init(book: TimerBook, store: TimerStore, clock: TimeSource, logger: Logger) {
        self.book = book
        self.store = store
        self.clock = clock
        self.logger = logger
    }

    /// Carries out one mutation asked for on the bus. The change is on disk before this returns,
    /// so the caller's reply can never announce something a crash would lose.
    func perform(_ plan: (TimerBook, Instant) throws(TimerError) -> [TimerEvent]) throws(DBusError) {
        let now = clock.now()
        // Expire what is due first, so the operation sees the state a punctual daemon would have.
        runDue(now: now)
        let events: [TimerEvent]
        do {
            events = try plan(book, now)
        } catch {
            throw error.dbusError
        }
        guard !events.isEmpty else { return }
        do {
            try store.apply(events)
        } catch {
            logger.error("could not store a change, refusing it: \(error)")
            throw DBusError(name: RestErrorName.storageFailed,
                            message: "the change could not be saved (\(error)); nothing was changed")
        }
        apply(events, now: now)
    }

    /// Expires due timers and removes old ones; runs when the wake-up fires.
    func runDue(now: Instant? = nil) {
        let now = now ?? clock.now()
        let events = book.due(now: now)
        guard !events.isEmpty else { return }
        commitHousekeeping(events, now: now)
    }

    /// Re-publishes wall-clock instants after the wall clock was set.
    func wallClockChanged() {
        let now = clock.now()
        let events = book.wallClockChanged(now: now)
        logger.info("wall clock changed; \(events.count) running timer(s) re-published")
        guard !events.isEmpty else { return }
        commitHousekeeping(events, now: now)
    }

    /// Persists events the daemon made itself (expiry, clean-up, start-up recovery).
    /// Unlike a caller's mutation they cannot be refused: a timer expires on time even when the
    /// disk is full. What the disk missed is recomputed from the stored deadline at the next start.
    /// So they are announced first and written after: the disk's sync (a millisecond, more on a
    /// busy disk) is not added to every Expired's lateness. A crash in between only means that
    /// the next start finds the deadline passed and announces the expiry again.
    func commitHousekeeping(_ events: [TimerEvent], now: Instant? = nil) {
        apply(events, now: now ?? clock.now())
        do {
            try store.apply(events)
        } catch {
            logger.error("could not store expiry or clean-up: \(error)")
        }
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

    /// Closes the store when restd stops (nothing is written after the loop has ended).
    func closeStore() {
        do {
            try store.close()
        } catch {
            logger.error("\(error)")
        }
    }

    /// Adds an observer of committed events.
    func observe(_ observer: @escaping ([TimerEvent]) -> Void) {
        observers.append(observer)
    }

    /// Announces events already applied to the book (the ones start-up recovery produced).
    func announce(_ events: [TimerEvent]) {
        notifyObservers(events)
        rearm(now: clock.now())
    }

    private func apply(_ events: [TimerEvent], now: Instant) {
        book.apply(events)
        notifyObservers(events)
        rearm(now: now)
    }

    private func notifyObservers(_ events: [TimerEvent]) {
        for observer in observers { observer(events) }
    }

    func rearm(now: Instant) {
        scheduleWakeup(book.nextWakeup(now: now))
    }
}
