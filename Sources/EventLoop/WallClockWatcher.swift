import CSystemd
import Glibc

/// Notices when the wall clock is set (by hand, NTP stepping it, a time zone tool), through a
/// CLOCK_REALTIME timerfd armed far in the future with TFD_TIMER_CANCEL_ON_SET: the kernel
/// cancels it, and wakes us, only when the clock jumps. No wake-ups otherwise.
///
/// The timerfd has to be armed again after each jump. Should that fail, clock changes would go
/// unnoticed from then on: the failure is reported through `onError` and arming is retried
/// every `retryUSec` until it works.
public final class WallClockWatcher {
    /// Arms a timerfd; returns 0 or -1 with errno set (timerfd_settime's contract). Replaceable
    /// so that a test can make it fail.
    public typealias Arm = (_ fd: Int32) -> Int32

    private let fd: Int32
    private let arm: Arm
    private let onChange: () -> Void
    private let onError: (SystemError) -> Void
    private let retryUSec: UInt64
    private unowned let loop: EventLoop
    private var source: IOSource?
    private var retry: TimerSource?

    public init(
        loop: EventLoop, retryUSec: UInt64 = 1_000_000, arm: @escaping Arm = WallClockWatcher.armFarAway,
        onError: @escaping (SystemError) -> Void, onChange: @escaping () -> Void
    ) throws(SystemError) {
        fd = timerfd_create(CLOCK_REALTIME, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        guard fd >= 0 else { throw SystemError(errno: errno, "cannot create the clock-change timer") }
        self.arm = arm
        self.onChange = onChange
        self.onError = onError
        self.retryUSec = retryUSec
        self.loop = loop
        do throws(SystemError) {
            guard arm(fd) == 0 else { throw SystemError(errno: errno, "cannot arm the clock-change timer") }
            source = try loop.addIO(fd: fd, events: EPOLLIN.rawValue) { [unowned self] _ in
                self.clockWasSet()
            }
            retry = try loop.addTimer(clock: CLOCK_MONOTONIC, at: 0, accuracyUSec: 100_000) { [unowned self] now in
                self.rearm(now: now)
            }
            retry?.isEnabled = false
        } catch {
            close(fd)
            throw error
        }
    }

    deinit {
        source?.cancel()
        retry?.cancel()
        close(fd)
    }

    /// The kernel cancelled the timer: the clock was set.
    func clockWasSet() {
        var expirations: UInt64 = 0
        _ = read(fd, &expirations, MemoryLayout<UInt64>.size)  // ECANCELED: the clock was set
        rearm(now: nil)
        onChange()
    }

    private func rearm(now: UInt64?) {
        guard arm(fd) == 0 else {
            onError(
                SystemError(
                    errno: errno,
                    "cannot re-arm the clock-change timer; trying again in "
                        + "\(retryUSec / 1000) ms (wall-clock steps meanwhile go unnoticed)"))
            retry?.schedule(at: (now ?? loop.now(CLOCK_MONOTONIC)) + retryUSec)
            return
        }
        retry?.isEnabled = false
    }

    /// Arms `fd` to fire only when the clock is set: an absolute time never reached.
    public static func armFarAway(_ fd: Int32) -> Int32 {
        var spec = itimerspec()
        spec.it_value.tv_sec = Int.max
        return timerfd_settime(fd, Int32(TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET), &spec, nil)
    }
}
