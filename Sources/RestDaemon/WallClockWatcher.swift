import CSystemd
import EventLoop
import Glibc

/// Notices when the wall clock is set (by hand, NTP stepping it, a time zone tool), through a
/// CLOCK_REALTIME timerfd armed far in the future with TFD_TIMER_CANCEL_ON_SET: the kernel
/// cancels it, and wakes us, only when the clock jumps. No wake-ups otherwise.
final class WallClockWatcher {
    private let fd: Int32
    private var source: IOSource?

    init(loop: EventLoop, onChange: @escaping () -> Void) throws(SystemError) {
        fd = timerfd_create(CLOCK_REALTIME, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        guard fd >= 0 else { throw SystemError(errno: errno, "cannot create the clock-change timer") }
        do {
            try arm()
            source = try loop.addIO(fd: fd, events: EPOLLIN.rawValue) { [unowned self] _ in
                self.drainAndRearm()
                onChange()
            }
        } catch {
            close(fd)
            throw error
        }
    }

    deinit {
        source?.cancel()
        close(fd)
    }

    private func arm() throws(SystemError) {
        var spec = itimerspec()
        spec.it_value.tv_sec = Int.max  // never reached: only a clock change ends it
        guard timerfd_settime(fd, Int32(TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET), &spec, nil) == 0 else {
            throw SystemError(errno: errno, "cannot arm the clock-change timer")
        }
    }

    private func drainAndRearm() {
        var expirations: UInt64 = 0
        _ = read(fd, &expirations, MemoryLayout<UInt64>.size)  // ECANCELED: the clock was set
        try? arm()
    }
}
