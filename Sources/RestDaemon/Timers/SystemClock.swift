import RestCore

/// The kernel's clocks: CLOCK_REALTIME for what people see, CLOCK_BOOTTIME for deadlines.
struct SystemClock: TimeSource {
    func now() -> Instant { KernelClock.instant() }
}
