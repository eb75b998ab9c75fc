import CSystemd
import Glibc

/// The physical floor of expiry lateness on this machine: how late a thread wakes from an
/// absolute CLOCK_REALTIME timerfd, with nothing else in the way.
enum TimerfdFloor {
    /// Lateness in ms of `samples` sleeps, each to a deadline `meanGap` seconds (±50 %) after
    /// the previous wake-up, so that they spread over about samples × meanGap seconds.
    static func measure(samples: Int, meanGap: Double) -> [Double] {
        let fd = timerfd_create(CLOCK_REALTIME, Int32(TFD_CLOEXEC))
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var lateness: [Double] = []
        lateness.reserveCapacity(samples)
        for _ in 0..<samples {
            let target = Clock.realtimeNSec + Int64(Double.random(in: 0.5...1.5) * meanGap * 1e9)
            var spec = itimerspec(it_interval: timespec(),
                                  it_value: timespec(tv_sec: Int(target / 1_000_000_000), tv_nsec: Int(target % 1_000_000_000)))
            guard timerfd_settime(fd, Int32(TFD_TIMER_ABSTIME), &spec, nil) == 0 else { return lateness }
            var expirations: UInt64 = 0
            while read(fd, &expirations, 8) < 0 && errno == EINTR {}
            lateness.append(Double(Clock.realtimeNSec - target) / 1e6)
        }
        return lateness
    }
}

/// The design restd replaces: a process that wakes once a second (60 wake-ups a minute)
/// to count down. `restd-bench --tick-baseline` runs it until killed; scenario 2 counts its
/// context switches the same way as restd's.
enum TickBaseline {
    static func run() -> Never {
        let fd = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC))
        var spec = itimerspec(it_interval: timespec(tv_sec: 1, tv_nsec: 0), it_value: timespec(tv_sec: 1, tv_nsec: 0))
        timerfd_settime(fd, 0, &spec, nil)
        var expirations: UInt64 = 0
        while true { _ = read(fd, &expirations, 8) }
    }
}
