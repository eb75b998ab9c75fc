import Clocks
import Glibc

/// Elapsed time on CLOCK_MONOTONIC: what the harness and the tests measure and wait with.
/// The wall clock is no stopwatch: it jumps when someone sets it, and a test run may shift it.
public struct Stopwatch: Sendable {
    private let startSeconds: Double

    /// Starts counting now.
    public init() { startSeconds = KernelClock.monotonicSeconds }

    /// Seconds since `init`.
    public var elapsed: Double { KernelClock.monotonicSeconds - startSeconds }
}

/// A moment `seconds` from now on CLOCK_MONOTONIC, for loops that wait with a time limit.
public struct Deadline: Sendable {
    private let atSeconds: Double

    public init(secondsFromNow seconds: Double) { atSeconds = KernelClock.monotonicSeconds + seconds }

    /// Seconds left (negative once it has passed).
    public var remaining: Double { atSeconds - KernelClock.monotonicSeconds }

    public var hasPassed: Bool { remaining <= 0 }
}
