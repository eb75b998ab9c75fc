import Glibc

/// What arms timers on the clocks restd reads: the daemon's sd-event loop (`EventLoop`), or in a
/// unit test the manual clock (TestClock's `ManualTimeSource`), which fires them as the test
/// moves time, so that the daemon's own timing is tested without waiting for it.
public protocol TimerScheduling: AnyObject {
    associatedtype Timer: ScheduledTimer

    /// A timer on `clock` firing once at `usec` (absolute), as `EventLoop.addTimer` describes.
    func addTimer(
        clock: clockid_t, at usec: UInt64, accuracyUSec: UInt64, priority: EventPriority,
        _ handler: @escaping (UInt64) -> Void
    ) throws(SystemError) -> Timer

    /// `clock` (µs) as the timers compare their deadlines with it.
    func now(_ clock: clockid_t) -> UInt64
}

/// A one-shot timer: armed by `schedule(at:)`, quiet while disabled.
public protocol ScheduledTimer: AnyObject {
    var isEnabled: Bool { get set }
    /// Re-arms the timer for `usec` (absolute, on its clock) and enables it once.
    func schedule(at usec: UInt64)
}

extension EventLoop: TimerScheduling {}
extension TimerSource: ScheduledTimer {}
