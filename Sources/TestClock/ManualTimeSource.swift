import EventLoop
import Glibc
import RestCore
import Synchronization

/// The tests' one clock, moved by hand, never by the kernel, and the timers armed on it (as
/// swift-nio's `EmbeddedEventLoop.advanceTime(by:)` moves its loop's scheduled tasks). The core's
/// and the daemon's unit tests drive time with it: a service given it as its loop has its timers
/// fired as the test moves time, in deadline order, each with the clocks set to its deadline.
/// Only the integration tests that mark themselves `.realTime` wait for the real one.
public final class ManualTimeSource: TimeSource, TimerScheduling {
    private struct Clocks {
        var instant: Instant
        /// CLOCK_MONOTONIC, which stops while the machine sleeps.
        var monotonic: UInt64
    }

    private let clocks: Mutex<Clocks>
    /// Armed and fired on the test's thread only; released with the service that armed them.
    nonisolated(unsafe) private var timers: [WeakTimer] = []
    nonisolated(unsafe) private var timersCreated = 0

    public init(_ start: Instant) {
        clocks = Mutex(Clocks(instant: start, monotonic: start.boottime))
    }

    public func now() -> Instant {
        clocks.withLock { $0.instant }
    }

    /// Time passes normally: every clock advances, and the timers due on the way fire.
    public func advance(_ usec: USec) {
        pass(usec) {
            $0.instant.realtime += $1; $0.instant.boottime += $1; $0.monotonic += $1
        }
    }

    /// Someone sets the wall clock; boottime does not move. Wall-clock timers now due fire.
    public func jumpWallClock(by usec: Int64) {
        clocks.withLock { $0.instant.realtime = UInt64(Int64($0.instant.realtime) + usec) }
        pass(0) { _, _ in }
    }

    /// The machine sleeps: CLOCK_BOOTTIME and the wall clock count through suspend, CLOCK_MONOTONIC
    /// does not; what came due during it fires on waking, in deadline order.
    public func suspend(for usec: USec) {
        clocks.withLock {
            $0.instant.realtime += usec; $0.instant.boottime += usec
        }
        pass(0) { _, _ in }
    }

    // MARK: Timers

    /// A timer on `clock` (CLOCK_BOOTTIME, CLOCK_REALTIME or CLOCK_MONOTONIC), enabled once at
    /// `usec` as sd-event's are. It fires at its deadline exactly: the accuracy sd-event may use
    /// to fire it later is not modelled.
    public func addTimer(
        clock: clockid_t, at usec: UInt64, accuracyUSec: UInt64, priority: EventPriority,
        _ handler: @escaping (UInt64) -> Void
    ) throws(SystemError) -> ManualTimer {
        precondition(
            [CLOCK_BOOTTIME, CLOCK_REALTIME, CLOCK_MONOTONIC].contains(clock), "not a clock restd arms timers on")
        timersCreated += 1
        let timer = ManualTimer(
            clock: clock, deadline: usec, priority: priority, order: timersCreated, handler: handler)
        timers.removeAll { $0.timer == nil }
        timers.append(WeakTimer(timer: timer))
        return timer
    }

    public func now(_ clock: clockid_t) -> UInt64 {
        let clocks = clocks.withLock { $0 }
        switch clock {
        case CLOCK_REALTIME: return clocks.instant.realtime
        case CLOCK_MONOTONIC: return clocks.monotonic
        default: return clocks.instant.boottime
        }
    }

    /// Moves the clocks `usec` on with `move`, stopping at each enabled timer's deadline on the
    /// way (the soonest first; of two due at once, normal priority before idle, then the older) to
    /// turn it off and fire it, as sd-event fires a one-shot timer. A handler may arm timers;
    /// those due within what is left fire too.
    private func pass(_ usec: USec, move: (inout Clocks, USec) -> Void) {
        var left = usec
        while let next = nextDue(within: left) {
            let (timer, wait) = next
            clocks.withLock { move(&$0, wait) }
            left -= wait
            timer.isEnabled = false
            withExtendedLifetime(timer) { timer.handler(timer.deadline) }
        }
        clocks.withLock { move(&$0, left) }
    }

    private func nextDue(within usec: USec) -> (ManualTimer, USec)? {
        let due = timers.compactMap(\.timer).filter(\.isEnabled).map { timer in
            let reading = self.now(timer.clock)
            return (timer, timer.deadline > reading ? timer.deadline - reading : 0)
        }.filter { $0.1 <= usec }
        return due.min { a, b in
            (a.1, a.0.priority == .idle ? 1 : 0, a.0.order) < (b.1, b.0.priority == .idle ? 1 : 0, b.0.order)
        }
    }
}

/// A timer armed on a `ManualTimeSource`, fired when the test moves time past its deadline.
public final class ManualTimer: ScheduledTimer {
    let clock: clockid_t
    private(set) var deadline: UInt64
    let priority: EventPriority
    let order: Int
    let handler: (UInt64) -> Void
    public var isEnabled = true

    init(clock: clockid_t, deadline: UInt64, priority: EventPriority, order: Int, handler: @escaping (UInt64) -> Void) {
        self.clock = clock
        self.deadline = deadline
        self.priority = priority
        self.order = order
        self.handler = handler
    }

    public func schedule(at usec: UInt64) {
        deadline = usec
        isEnabled = true
    }
}

private struct WeakTimer {
    weak var timer: ManualTimer?
}
