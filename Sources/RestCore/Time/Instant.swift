/// Microseconds: the unit of every time and duration in restd.
public typealias USec = UInt64

/// One reading of the two clocks a rest timer needs.
///
/// Deadlines run on CLOCK_BOOTTIME, which neither jumps with the wall clock nor stops during
/// suspend; CLOCK_REALTIME is what users see and what survives a reboot.
public struct Instant: Sendable, Equatable, Hashable {
    /// CLOCK_REALTIME in µs since the Unix epoch.
    public var realtime: USec
    /// CLOCK_BOOTTIME in µs since boot.
    public var boottime: USec

    /// Creates a reading from both clocks.
    public init(realtime: USec, boottime: USec) {
        self.realtime = realtime
        self.boottime = boottime
    }
}

/// Where the current time comes from: the kernel clocks in the daemon, a manual clock in tests.
public protocol TimeSource: Sendable {
    /// Reads both clocks.
    func now() -> Instant
}
