import CSystemd
import Glibc

/// An sd-event loop. Everything attached to it runs on the thread that calls `run()`.
public final class EventLoop {
    package let raw: OpaquePointer

    public init() throws(SystemError) {
        var event: OpaquePointer?
        let result = sd_event_new(&event)
        guard result >= 0, let event else { throw SystemError(errno: -result, "cannot create the event loop") }
        raw = event
    }

    deinit { sd_event_unref(raw) }

    /// Runs until `exit(_:)`; returns the exit code given there.
    public func run() throws(SystemError) -> Int32 {
        let result = sd_event_loop(raw)
        guard result >= 0 else { throw SystemError(errno: -result, "the event loop failed") }
        return result
    }

    /// Runs one iteration, waiting at most `timeoutUSec` (UInt64.max: forever). False once the loop has finished.
    public func runOnce(timeoutUSec: UInt64) throws(SystemError) -> Bool {
        let result = sd_event_run(raw, timeoutUSec)
        guard result >= 0 else {
            if -result == ESTALE { return false }  // already finished
            throw SystemError(errno: -result, "the event loop failed")
        }
        return sd_event_get_state(raw) != Int32(SD_EVENT_FINISHED)
    }

    /// `clock` (µs) as the loop saw it when this iteration woke up, or now before the first:
    /// sd-event's cached reading, what its own sources compare their deadlines with. The clocks
    /// restd arms timers on (CLOCK_MONOTONIC, CLOCK_BOOTTIME, CLOCK_REALTIME) are all ones
    /// sd-event supports; for another, sd_event_now fails and this reads the kernel's.
    public func now(_ clock: clockid_t) -> UInt64 {
        var usec: UInt64 = 0
        guard sd_event_now(raw, clock, &usec) >= 0 else {
            var spec = timespec()
            clock_gettime(clock, &spec)
            return UInt64(spec.tv_sec) * 1_000_000 + UInt64(spec.tv_nsec) / 1000
        }
        return usec
    }

    /// Asks the loop to stop after the current iteration.
    public func exit(_ code: Int32) { sd_event_exit(raw, code) }

    /// Turns on sd-event's watchdog support: it pings systemd at half of `WatchdogSec=` when set.
    public func enableWatchdog() {
        _ = sd_event_set_watchdog(raw, 1)
    }

    // MARK: Sources

    /// A timer on `clock` firing once at `usec` (absolute); re-arm it with `setTime`.
    /// `accuracyUSec` 0 would let sd-event delay it by up to 250 ms: pass 1 where lateness matters.
    /// At `.idle` priority, once elapsed it waits for an iteration with nothing else pending.
    public func addTimer(
        clock: clockid_t, at usec: UInt64, accuracyUSec: UInt64, priority: EventPriority = .normal,
        _ handler: @escaping (UInt64) -> Void
    ) throws(SystemError) -> TimerSource {
        let source = TimerSource(handler: handler)
        var raw: OpaquePointer?
        let userData = Unmanaged.passUnretained(source).toOpaque()
        let result = sd_event_add_time(self.raw, &raw, clock, usec, accuracyUSec, timerCallback, userData)
        guard result >= 0, let raw else { throw SystemError(errno: -result, "cannot add a timer") }
        source.attach(raw)
        try source.setPriority(priority)
        return source
    }

    /// Watches `fd` for `events` (EPOLLIN, …). The loop does not own the fd unless `ownsFD` is set.
    public func addIO(
        fd: Int32, events: UInt32, ownsFD: Bool = false, _ handler: @escaping (UInt32) -> Void
    ) throws(SystemError) -> IOSource {
        let source = IOSource(handler: handler)
        var raw: OpaquePointer?
        let userData = Unmanaged.passUnretained(source).toOpaque()
        let result = sd_event_add_io(self.raw, &raw, fd, events, ioCallback, userData)
        guard result >= 0, let raw else { throw SystemError(errno: -result, "cannot watch fd \(fd)") }
        if ownsFD { sd_event_source_set_io_fd_own(raw, 1) }
        source.attach(raw)
        return source
    }

    /// Handles `signal` (SIGTERM, SIGHUP, …) on the loop; the signal is blocked for the process.
    public func addSignal(_ signal: Int32, _ handler: @escaping () -> Void) throws(SystemError) -> SignalSource {
        let source = SignalSource(handler: handler)
        var raw: OpaquePointer?
        let userData = Unmanaged.passUnretained(source).toOpaque()
        // SD_EVENT_SIGNAL_PROCMASK: sd-event blocks the signal itself.
        let result = sd_event_add_signal(self.raw, &raw, signal | SD_EVENT_SIGNAL_PROCMASK, signalCallback, userData)
        guard result >= 0, let raw else { throw SystemError(errno: -result, "cannot handle signal \(signal)") }
        source.attach(raw)
        return source
    }

    /// Calls `handler` once when child process `pid` exits; sd-event reaps it after the handler
    /// returns. sd-event insists that SIGCHLD be blocked, so it is blocked in the calling thread
    /// (the loop's); where the kernel has pidfds, as on every supported one, sd-event watches
    /// the child's pidfd and the signal itself is never needed.
    public func addChild(pid: pid_t, _ handler: @escaping (ChildExit) -> Void) throws(SystemError) -> ChildSource {
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGCHLD)
        let masked = pthread_sigmask(SIG_BLOCK, &blocked, nil)
        guard masked == 0 else { throw SystemError(errno: masked, "cannot block SIGCHLD") }
        let source = ChildSource(handler: handler)
        var raw: OpaquePointer?
        let userData = Unmanaged.passUnretained(source).toOpaque()
        let result = sd_event_add_child(self.raw, &raw, pid, WEXITED, childCallback, userData)
        guard result >= 0, let raw else { throw SystemError(errno: -result, "cannot watch child process \(pid)") }
        source.attach(raw)
        return source
    }

    /// A source that runs once per iteration while enabled (off after creation). At `.idle`
    /// priority it runs only in an iteration where no source of normal priority is pending.
    public func addDefer(
        priority: EventPriority = .normal, _ handler: @escaping () -> Void
    ) throws(SystemError) -> DeferSource {
        let source = DeferSource(handler: handler)
        var raw: OpaquePointer?
        let userData = Unmanaged.passUnretained(source).toOpaque()
        let result = sd_event_add_defer(self.raw, &raw, deferCallback, userData)
        guard result >= 0, let raw else { throw SystemError(errno: -result, "cannot add a deferred source") }
        source.attach(raw)
        source.isEnabled = false
        try source.setPriority(priority)
        return source
    }
}

/// Of two pending sources sd-event dispatches the one of higher priority first; every source of
/// restd is `.normal` but the work that may wait until nothing else is pending.
public enum EventPriority: Sendable {
    case normal
    case idle
}

/// One sd-event source; removed from the loop when released.
public class EventSource {
    private(set) var raw: OpaquePointer?

    fileprivate func attach(_ raw: OpaquePointer) { self.raw = raw }

    fileprivate func setPriority(_ priority: EventPriority) throws(SystemError) {
        guard priority == .idle, let raw else { return }
        let result = sd_event_source_set_priority(raw, Int64(SD_EVENT_PRIORITY_IDLE))
        guard result >= 0 else { throw SystemError(errno: -result, "cannot set a source's priority") }
    }

    deinit {
        if let raw {
            sd_event_source_set_enabled(raw, Int32(SD_EVENT_OFF))
            sd_event_source_unref(raw)
        }
    }

    /// Enabled sources fire; disabled ones stay attached but quiet.
    public var isEnabled: Bool {
        get {
            var enabled: Int32 = 0
            guard let raw else { return false }
            sd_event_source_get_enabled(raw, &enabled)
            return enabled != Int32(SD_EVENT_OFF)
        }
        set {
            guard let raw else { return }
            sd_event_source_set_enabled(raw, Int32(newValue ? SD_EVENT_ON : SD_EVENT_OFF))
        }
    }

    /// Fires once, then turns itself off.
    public func enableOnce() {
        guard let raw else { return }
        sd_event_source_set_enabled(raw, Int32(SD_EVENT_ONESHOT))
    }

    /// Detaches from the loop now rather than when released.
    public func cancel() {
        guard let raw else { return }
        sd_event_source_set_enabled(raw, Int32(SD_EVENT_OFF))
        sd_event_source_unref(raw)
        self.raw = nil
    }
}

public final class TimerSource: EventSource {
    fileprivate let handler: (UInt64) -> Void
    fileprivate init(handler: @escaping (UInt64) -> Void) { self.handler = handler }

    /// Re-arms the timer for `usec` (absolute, on its clock) and enables it once.
    public func schedule(at usec: UInt64) {
        guard let raw else { return }
        sd_event_source_set_time(raw, usec)
        enableOnce()
    }
}

public final class IOSource: EventSource {
    fileprivate let handler: (UInt32) -> Void
    fileprivate init(handler: @escaping (UInt32) -> Void) { self.handler = handler }

    /// Watches for `events` (EPOLLIN, …) from now on.
    public func setEvents(_ events: UInt32) {
        guard let raw else { return }
        sd_event_source_set_io_events(raw, events)
    }
}

public final class SignalSource: EventSource {
    fileprivate let handler: () -> Void
    fileprivate init(handler: @escaping () -> Void) { self.handler = handler }
}

/// How a child process ended.
public enum ChildExit: Equatable, Sendable, CustomStringConvertible {
    /// It exited with this status.
    case exited(Int32)
    /// A signal ended it.
    case killed(signal: Int32)

    public var description: String {
        switch self {
        case .exited(let status): "exited with status \(status)"
        case .killed(let signal): "was killed by signal \(signal)"
        }
    }
}

public final class ChildSource: EventSource {
    fileprivate let handler: (ChildExit) -> Void
    fileprivate init(handler: @escaping (ChildExit) -> Void) { self.handler = handler }
}

public final class DeferSource: EventSource {
    fileprivate let handler: () -> Void
    fileprivate init(handler: @escaping () -> Void) { self.handler = handler }
}

// sd-event calls these with the Swift source as userdata; the source outlives its registration
// because releasing it removes the registration (EventSource.deinit).

private func timerCallback(_ source: OpaquePointer?, _ usec: UInt64, _ userData: UnsafeMutableRawPointer?) -> Int32 {
    guard let userData else { return 0 }
    let source = Unmanaged<TimerSource>.fromOpaque(userData).takeUnretainedValue()
    // The handler may release its own source (and so this closure): keep both alive until it returns.
    withExtendedLifetime(source) { source.handler(usec) }
    return 0
}

private func ioCallback(
    _ source: OpaquePointer?, _ fd: Int32, _ events: UInt32, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let userData else { return 0 }
    let source = Unmanaged<IOSource>.fromOpaque(userData).takeUnretainedValue()
    // The handler may release its own source (and so this closure): keep both alive until it returns.
    withExtendedLifetime(source) { source.handler(events) }
    return 0
}

private func signalCallback(
    _ source: OpaquePointer?, _ info: UnsafePointer<signalfd_siginfo>?, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let userData else { return 0 }
    let source = Unmanaged<SignalSource>.fromOpaque(userData).takeUnretainedValue()
    // The handler may release its own source (and so this closure): keep both alive until it returns.
    withExtendedLifetime(source) { source.handler() }
    return 0
}

private func childCallback(
    _ source: OpaquePointer?, _ info: UnsafePointer<siginfo_t>?, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let userData, let info else { return 0 }
    let source = Unmanaged<ChildSource>.fromOpaque(userData).takeUnretainedValue()
    let status = info.pointee._sifields._sigchld.si_status
    let exit: ChildExit = info.pointee.si_code == CLD_EXITED ? .exited(status) : .killed(signal: status)
    // The handler may release its own source (and so this closure): keep both alive until it returns.
    withExtendedLifetime(source) { source.handler(exit) }
    return 0
}

private func deferCallback(_ source: OpaquePointer?, _ userData: UnsafeMutableRawPointer?) -> Int32 {
    guard let userData else { return 0 }
    let source = Unmanaged<DeferSource>.fromOpaque(userData).takeUnretainedValue()
    // The handler may release its own source (and so this closure): keep both alive until it returns.
    withExtendedLifetime(source) { source.handler() }
    return 0
}
