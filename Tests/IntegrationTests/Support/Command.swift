import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Running real external programs (dbus-daemon, restd, busctl, gdbus, restctl)
// from the integration tests: a small process primitive with exit waiting that
// can time out, and `Command.run` for one-shot programs whose output we keep.

/// Errors raised by the harness itself (not by the program under test).
enum HarnessError: Error, CustomStringConvertible {
    case system(String, Int32)
    case notFound(String)
    case timedOut(String)
    case failed(String)

    var description: String {
        switch self {
        case .system(let what, let code): "\(what): \(String(cString: strerror(code)))"
        case .notFound(let what): what
        case .timedOut(let what): what
        case .failed(let what): what
        }
    }
}

/// How a child process ended.
enum Termination: Sendable, Equatable, CustomStringConvertible {
    /// It called exit (or returned from main) with this code.
    case exited(Int32)
    /// It was killed by this signal.
    case signaled(Int32)

    /// One number for both cases, the convention used by `CommandResult.status`
    /// and `RestdProcess.waitForExit`: the exit code (0…255), or the *negated*
    /// signal number for a death by signal (SIGKILL → -9), so the two never mix.
    var status: Int32 {
        switch self {
        case .exited(let code): code
        case .signaled(let signal): -signal
        }
    }

    var description: String {
        switch self {
        case .exited(let code): "exited with status \(code)"
        case .signaled(let signal): "killed by signal \(signal) (\(signalName(signal)))"
        }
    }
}

func signalName(_ signal: Int32) -> String {
    switch signal {
    case SIGHUP: "SIGHUP"
    case SIGINT: "SIGINT"
    case SIGQUIT: "SIGQUIT"
    case SIGILL: "SIGILL"
    case SIGTRAP: "SIGTRAP"
    case SIGABRT: "SIGABRT"
    case SIGBUS: "SIGBUS"
    case SIGFPE: "SIGFPE"
    case SIGKILL: "SIGKILL"
    case SIGSEGV: "SIGSEGV"
    case SIGPIPE: "SIGPIPE"
    case SIGTERM: "SIGTERM"
    default: "signal \(signal)"
    }
}

/// Environment handling for every child the harness starts.
enum TestEnvironment {
    /// Variables removed from the inherited environment, so that no child
    /// reaches the developer's real session bus, journal or service manager by
    /// accident. Callers that want one of them pass it explicitly.
    static let scrubbed: Set<String> = [
        "DBUS_SESSION_BUS_ADDRESS", "DBUS_STARTER_ADDRESS", "DBUS_STARTER_BUS_TYPE",
        "NOTIFY_SOCKET", "JOURNAL_STREAM", "WATCHDOG_USEC", "WATCHDOG_PID",
        "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES",
    ]

    /// The test process's environment minus `scrubbed`, with `overrides` on top.
    static func make(_ overrides: [String: String] = [:]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        for name in scrubbed { env.removeValue(forKey: name) }
        env.merge(overrides) { _, new in new }
        return env
    }

    /// Resolves a program name the way a shell would (names containing a slash
    /// are taken as they are). Returns nil when nothing executable is found.
    static func which(_ program: String, path: String? = nil) -> String? {
        if program.contains("/") {
            return access(program, X_OK) == 0 ? program : nil
        }
        let search = path ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in search.split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = (dir.isEmpty ? "." : String(dir)) + "/" + program
            var info = stat()
            if stat(candidate, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, access(candidate, X_OK) == 0 {
                return candidate
            }
        }
        return nil
    }
}

/// Every child's exit state is guarded by this one condition, and every exit
/// broadcasts it, so a test can wait for "whichever of these processes ends
/// first" (say `gdbus wait` versus restd crashing) without polling.
private let exitCondition = NSCondition()

/// Exit state shared between a `ChildProcess` and its reaper thread (a
/// separate object so that the thread does not keep the child object alive).
///
/// `@unchecked Sendable`: `termination` is only read or written while holding
/// `exitCondition`.
private final class ExitState: @unchecked Sendable {
    var termination: Termination?
}

/// A launched child process.
///
/// Started with posix_spawn rather than Foundation's `Process`, because the
/// test runner's threads (Swift concurrency / Dispatch workers) run with most
/// signals blocked and `Process` passes that mask on: a child would then
/// ignore SIGTERM. Here every child starts with an empty signal mask and
/// default signal dispositions, its standard streams on the given descriptors
/// (or /dev/null) and every other descriptor closed. A thread per child waits
/// for it with waitpid(2) and records how it ended.
///
/// `@unchecked Sendable`: all stored properties are immutable after `init`;
/// the exit state lives in `ExitState` and is only touched under
/// `exitCondition`.
final class ChildProcess: @unchecked Sendable {
    let executable: String
    let arguments: [String]
    let pid: Int32
    private let state = ExitState()

    /// Starts `executable` (a path) with `arguments` (not including argv[0],
    /// which is `argv0` or else the executable) and exactly `environment`.
    /// The descriptors are duplicated into the child; the caller still owns
    /// (and may close) its copies.
    init(executable: String, arguments: [String], environment: [String: String],
         argv0: String? = nil, stdin: Int32? = nil, stdout: Int32? = nil, stderr: Int32? = nil) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (target, source, mode) in [(Int32(0), stdin, O_RDONLY), (1, stdout, O_WRONLY), (2, stderr, O_WRONLY)] {
            if let source {
                posix_spawn_file_actions_adddup2(&actions, source, target)
            } else {
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", mode, 0)
            }
        }
        if let closeFrom = spawnAddClosefrom {
            _ = closeFrom(&actions, 3)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var signals = sigset_t()
        sigemptyset(&signals)
        posix_spawnattr_setsigmask(&attributes, &signals)
        sigfillset(&signals)
        posix_spawnattr_setsigdefault(&attributes, &signals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([argv0 ?? executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard rc == 0 else { throw HarnessError.system("cannot start \(executable)", rc) }

        self.executable = executable
        self.arguments = arguments
        self.pid = pid
        let state = self.state
        let childPID = pid
        let reaper = Thread {
            // Wait without reaping, record the end under the lock, and only then
            // reap: while `termination` is nil the pid cannot have been reused,
            // so `signal(_:)` never hits another process.
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

    /// How it ended, or nil while it is running.
    var termination: Termination? {
        exitCondition.lock()
        defer { exitCondition.unlock() }
        return state.termination
    }

    var isRunning: Bool { termination == nil }

    /// Sends `signal` unless the process has already been reaped.
    func signal(_ signal: Int32) {
        exitCondition.lock()
        defer { exitCondition.unlock() }
        if state.termination == nil {
            _ = kill(pid, signal)
        }
    }

    /// Waits up to `timeout` seconds (`.infinity` for no limit) for the process
    /// to end. Returns how it ended, or nil on timeout.
    @discardableResult
    func wait(timeout: Double) -> Termination? {
        _ = ChildProcess.wait(until: { self.state.termination != nil }, timeout: timeout)
        return termination
    }

    /// Waits until any of `children` has ended; false on timeout.
    static func waitForAny(_ children: [ChildProcess], timeout: Double) -> Bool {
        wait(until: { children.contains { $0.state.termination != nil } }, timeout: timeout)
    }

    /// SIGTERM, up to `grace` seconds to go, then SIGKILL; always reaps.
    @discardableResult
    func stop(grace: Double = 10) -> Termination {
        signal(SIGTERM)
        if let termination = wait(timeout: grace) { return termination }
        return killAndReap()
    }

    /// SIGKILL and reap.
    @discardableResult
    func killAndReap() -> Termination {
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

/// The outcome of `Command.run`.
struct CommandResult: Sendable, CustomStringConvertible {
    let argv: [String]
    /// The exit code; the negated signal number when it died of a signal
    /// (see `Termination.status`); 127 when the program could not be found or
    /// started (the reason is then in `stderr`).
    let status: Int32
    let stdout: String
    let stderr: String
    /// The timeout expired and the harness killed the program; `status` then
    /// tells how it went (normally -15 or -9).
    let timedOut: Bool
    /// Wall-clock seconds from launch to exit.
    let elapsed: Double

    /// Exited with status 0 within its time.
    var succeeded: Bool { status == 0 && !timedOut }
    /// The signal that killed it, if one did.
    var signal: Int32? { status < 0 ? -status : nil }
    /// stdout without surrounding white space.
    var output: String { stdout.trimmingCharacters(in: .whitespacesAndNewlines) }

    /// A readable report for failure messages.
    var description: String {
        let outcome: String
        if timedOut {
            outcome = "timed out after \(String(format: "%.1f", elapsed)) s and was killed (status \(status))"
        } else if let signal {
            outcome = "killed by \(signalName(signal))"
        } else {
            outcome = "exit status \(status)"
        }
        var text = "$ \(argv.map(shellQuoted).joined(separator: " "))\n\(outcome)"
        if !stdout.isEmpty { text += "\n--- stdout:\n\(stdout)" }
        if !stderr.isEmpty { text += "\n--- stderr:\n\(stderr)" }
        return text
    }
}

func shellQuoted(_ word: String) -> String {
    let plain = word.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:,@%+".contains($0) }
    if plain && !word.isEmpty { return word }
    return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

enum Command {
    /// Runs `argv` (the program is looked up in PATH unless it contains a
    /// slash) to completion and returns its exit status and output.
    ///
    /// - environment: set on top of the test's own environment, from which the
    ///   variables in `TestEnvironment.scrubbed` (notably
    ///   `DBUS_SESSION_BUS_ADDRESS`) have been removed.
    /// - stdin: fed to the program; without it stdin is /dev/null.
    /// - timeout: seconds; after that the program gets SIGTERM, then SIGKILL
    ///   5 s later, and the result has `timedOut == true`.
    ///
    /// Output goes to unlinked temporary files rather than pipes, so nothing
    /// can block on a full pipe and a grandchild that keeps the descriptors
    /// open cannot hold this call up.
    ///
    /// Blocking: call it from tests freely, but do not expect it to yield.
    static func run(_ argv: [String], environment: [String: String] = [:],
                    stdin: String? = nil, timeout: Double = 30) -> CommandResult {
        let start = Date()
        func failure(_ message: String) -> CommandResult {
            CommandResult(argv: argv, status: 127, stdout: "", stderr: message + "\n",
                          timedOut: false, elapsed: Date().timeIntervalSince(start))
        }
        guard let program = argv.first else { return failure("Command.run: empty argv") }
        let env = TestEnvironment.make(environment)
        guard let executable = TestEnvironment.which(program, path: env["PATH"]) else {
            return failure("\(program): command not found (PATH=\(env["PATH"] ?? ""))")
        }
        let child: ChildProcess
        let out: FileHandle, err: FileHandle
        do {
            out = try anonymousFile()
            err = try anonymousFile()
            var input: FileHandle?
            if let stdin {
                let handle = try anonymousFile()
                try handle.write(contentsOf: Data(stdin.utf8))
                _ = lseek(handle.fileDescriptor, 0, SEEK_SET)
                input = handle
            }
            child = try ChildProcess(executable: executable, arguments: Array(argv.dropFirst()),
                                     environment: env, argv0: program, stdin: input?.fileDescriptor,
                                     stdout: out.fileDescriptor, stderr: err.fileDescriptor)
        } catch {
            return failure("\(program): cannot start: \(error)")
        }
        var timedOut = false
        var termination = child.wait(timeout: timeout)
        if termination == nil {
            timedOut = true
            termination = child.stop(grace: 5)
        }
        return CommandResult(argv: argv, status: termination!.status,
                             stdout: readAll(out), stderr: readAll(err),
                             timedOut: timedOut, elapsed: Date().timeIntervalSince(start))
    }
}

/// A read/write temporary file that has no name any more: it disappears when
/// the handle is closed.
func anonymousFile() throws -> FileHandle {
    var base = ProcessInfo.processInfo.environment["TMPDIR"] ?? ""
    if base.isEmpty { base = "/tmp" }
    var template = Array("\(base)/restd-io.XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else { throw HarnessError.system("mkstemp in \(base)", errno) }
    template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    return FileHandle(fileDescriptor: fd, closeOnDealloc: true)
}

/// Everything in the file behind `handle`, from its start.
func readAll(_ handle: FileHandle) -> String {
    _ = lseek(handle.fileDescriptor, 0, SEEK_SET)
    let data = (try? handle.readToEnd()) ?? Data()
    return String(decoding: data, as: UTF8.self)
}

/// Opens (creating or truncating) a file for a child's output; close-on-exec.
func openLogFile(_ path: String) throws -> Int32 {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw HarnessError.system("cannot create \(path)", errno) }
    return fd
}

/// glibc's posix_spawn_file_actions_addclosefrom_np (2.34+), which Swift's
/// Glibc module does not import; looked up at run time.
private typealias AddClosefrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
private let spawnAddClosefrom: AddClosefrom? = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else {
        return nil
    }
    return unsafeBitCast(symbol, to: AddClosefrom.self)
}()
