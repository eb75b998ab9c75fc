import RestCore
import Synchronization

/// The tests' one clock: both of the core's clocks, moved by hand, never by the kernel (as swift-nio's
/// `EmbeddedEventLoop.advanceTime(by:)` moves its loop's). The core's and the daemon's unit tests
/// drive time with it; only the integration tests that mark themselves `.realTime` wait for the
/// real one.
public final class ManualTimeSource: TimeSource {
    private let current: Mutex<Instant>

    public init(_ start: Instant) {
        current = Mutex(start)
    }

    public func now() -> Instant {
        current.withLock { $0 }
    }

    /// Time passes normally: both clocks advance.
    public func advance(_ usec: USec) {
        current.withLock {
            $0.realtime += usec
            $0.boottime += usec
        }
    }

    /// Someone sets the wall clock; boottime does not move.
    public func jumpWallClock(by usec: Int64) {
        current.withLock { $0.realtime = UInt64(Int64($0.realtime) + usec) }
    }

    /// The machine sleeps: CLOCK_BOOTTIME keeps counting through suspend, so both advance.
    public func suspend(for usec: USec) {
        advance(usec)
    }
}
