import Foundation
import Glibc
import POSIXSpawn

/// Every child's exit state is guarded by this one condition, and every exit broadcasts
/// it, so a caller can wait for "whichever of these processes ends first" (say `gdbus wait`
/// versus restd crashing) without polling.
private let exitCondition = NSCondition()

/// Exit state shared between a `ChildProcess` and its reaper thread (a separate object so
/// that the thread does not keep the child object alive).
///
/// `@unchecked Sendable`: `termination` is only read or written while holding
/// `exitCondition`.
private final class ExitState: @unchecked Sendable {
    var termination: Termination?
}

/// A launched child process.
///
/// Started with posix_spawn rather than Foundation's `Process`, because the caller's
/// threads (Swift concurrency / Dispatch workers, the benchmark's measuring threads) run
/// with most signals blocked and `Process` passes that mask on: a child would then ignore
/// SIGTERM. Here every child starts with an empty signal mask and default signal
/// dispositions, its standard streams on the given descriptors (or /dev/null) and every
/// other descriptor closed. A thread per child waits for it with waitid(2) and records how
/// it ended, so waiting needs no polling. A child still running when the object goes away
/// is stopped (SIGTERM, SIGKILL 5 s later), so an error path leaks no process.
///
/// `@unchecked Sendable`: all stored properties are immutable after `init`; the exit state
/// lives in `ExitState` and is only touched under `exitCondition`.
public final class ChildProcess: @unchecked Sendable {
    public let executable: String
    public let arguments: [String]
    public let pid: Int32
    private let state = ExitState()

    /// Starts `executable` (a path) with `arguments` (not including argv[0], which is
    /// `argv0` or else the executable) and exactly `environment`. The descriptors are
    /// duplicated into the child; the caller still owns (and may close) its copies.
    public init(
        executable: String, arguments: [String], environment: [String: String],
        argv0: String? = nil, stdin: Int32? = nil, stdout: Int32? = nil, stderr: Int32? = nil
    ) throws {
        let pid: pid_t
        do {
            pid = try Spawn.start(
                [argv0 ?? executable] + arguments, program: executable,
                environment: environment.map { "\($0.key)=\($0.value)" },
                stdin: Self.stream(stdin), stdout: Self.stream(stdout), stderr: Self.stream(stderr),
                closeOtherDescriptors: true)
        } catch {
            throw ProcessHarnessError.system("cannot start \(executable)", error.errno)
        }
        self.executable = executable
        self.arguments = arguments
        self.pid = pid
        let state = self.state
        let childPID = pid
        let reaper = Thread {
            // Wait without reaping, record the end under the lock, and only then reap:
            // while `termination` is nil the pid cannot have been reused, so `signal(_:)`
            // never hits another process.
            var info = siginfo_t()
            var result: Int32
            repeat {
                result = waitid(P_PID, id_t(childPID), &info, WEXITED | WNOWAIT)
            } while result < 0 && errno == EINTR
            let termination: Termination
            if result < 0 {
                termination = .exited(-1)  // reaped by someone else (ECHILD): unknown
            } else if info.si_code == CLD_EXITED {
                termination = .exited(info._sifields._sigchld.si_status)
            } else {
                termination = .signaled(info._sifields._sigchld.si_status)
            }
            exitCondition.lock()
            state.termination = termination
            var status: Int32 = 0
            while waitpid(childPID, &status, 0) < 0 && errno == EINTR {}
            exitCondition.broadcast()
            exitCondition.unlock()
        }
        reaper.name = "reaper \(pid)"
        reaper.start()
    }

    private static func stream(_ descriptor: Int32?) -> Spawn.Stream {
        descriptor.map { .descriptor($0) } ?? .devNull
    }

    deinit {
        if isRunning { stop(grace: 5) }
    }

    /// How it ended, or nil while it is running.
    public var termination: Termination? {
        exitCondition.lock()
        defer { exitCondition.unlock() }
        return state.termination
    }

    public var isRunning: Bool { termination == nil }

    /// Sends `signal` unless the process has already been reaped.
    public func signal(_ signal: Int32) {
        exitCondition.lock()
        defer { exitCondition.unlock() }
        if state.termination == nil {
            _ = kill(pid, signal)
        }
    }

    /// Waits up to `timeout` seconds (`.infinity` for no limit) for the process to end.
    /// Returns how it ended, or nil on timeout.
    @discardableResult
    public func wait(timeout: Double) -> Termination? {
        _ = ChildProcess.wait(until: { self.state.termination != nil }, timeout: timeout)
        return termination
    }

    /// Waits for the end without a time limit (woken by the exit, no polling).
    @discardableResult
    public func waitBlocking() -> Termination {
        wait(timeout: .infinity)!
    }

    /// Waits until any of `children` has ended; false on timeout.
    public static func waitForAny(_ children: [ChildProcess], timeout: Double) -> Bool {
        wait(until: { children.contains { $0.state.termination != nil } }, timeout: timeout)
    }

    /// SIGTERM, up to `grace` seconds to go, then SIGKILL; always reaps.
    @discardableResult
    public func stop(grace: Double = 10) -> Termination {
        signal(SIGTERM)
        if let termination = wait(timeout: grace) { return termination }
        return killAndReap()
    }

    /// SIGKILL and reap.
    @discardableResult
    public func killAndReap() -> Termination {
        signal(SIGKILL)
        // SIGKILL cannot be caught; only a process stuck in the kernel survives it.
        if let termination = wait(timeout: 60) { return termination }
        return .signaled(SIGKILL)
    }

    /// Core wait: `predicate` is evaluated with `exitCondition` held.
    private static func wait(until predicate: () -> Bool, timeout: Double) -> Bool {
        let deadline = timeout.isFinite ? Date(timeIntervalSinceNow: max(0, timeout)) : nil
        exitCondition.lock()
        defer { exitCondition.unlock() }
        while !predicate() {
            if let deadline {
                if !exitCondition.wait(until: deadline) { return predicate() }
            } else {
                exitCondition.wait()
            }
        }
        return true
    }
}
