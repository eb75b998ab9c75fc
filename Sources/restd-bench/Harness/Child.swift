import Foundation
import Glibc

/// A child process started with posix_spawn: an empty signal mask and default dispositions
/// (whatever the bench's threads block), standard streams on the given descriptors or
/// /dev/null, every other descriptor closed. Killed and reaped at the latest on deinit.
/// Used from one thread.
final class Child {
    let executable: String
    let pid: pid_t
    /// The exit code, or the negated signal number; nil until reaped.
    private(set) var status: Int32?

    init(_ executable: String, _ arguments: [String], environment: [String: String],
         stdout: Int32? = nil, stderr: Int32? = nil, argv0: String? = nil) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        for (target, source) in [(Int32(1), stdout), (2, stderr)] {
            if let source {
                posix_spawn_file_actions_adddup2(&actions, source, target)
            } else {
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
            }
        }
        if let closeFrom = spawnAddClosefrom { _ = closeFrom(&actions, 3) }

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
        guard rc == 0 else { throw BenchError.system("cannot start \(executable)", rc) }
        self.executable = executable
        self.pid = pid
    }

    deinit {
        if status == nil { stop(grace: 5) }
    }

    var isRunning: Bool { reap(options: WNOHANG) == nil }

    /// Waits for the exit without a timeout (precise: no polling); the status.
    @discardableResult
    func waitBlocking() -> Int32 {
        reap(options: 0) ?? -1
    }

    /// Waits at most `timeout` seconds for the exit; the status, nil if it still runs.
    @discardableResult
    func wait(timeout: Double) -> Int32? {
        var result: Int32?
        poll(timeout: timeout, interval: 0.002) {
            result = reap(options: WNOHANG)
            return result != nil
        }
        return result
    }

    func signal(_ signal: Int32) {
        if status == nil { kill(pid, signal) }
    }

    /// SIGTERM, then SIGKILL after `grace` seconds; always reaps. The status.
    @discardableResult
    func stop(grace: Double = 10) -> Int32 {
        if let status { return status }
        signal(SIGTERM)
        if let status = wait(timeout: grace) { return status }
        signal(SIGKILL)
        return waitBlocking()
    }

    private func reap(options: Int32) -> Int32? {
        if let status { return status }
        var raw: Int32 = 0
        var result: pid_t
        repeat { result = waitpid(pid, &raw, options) } while result < 0 && errno == EINTR
        guard result == pid else {
            if result < 0 { status = -1 }  // ECHILD: reaped elsewhere
            return status
        }
        let signalled = raw & 0x7f
        status = signalled == 0 ? (raw >> 8) & 0xff : -signalled
        return status
    }
}

/// Environment of every child: the bench's own, without anything that would reach the
/// developer's real bus, journal or service manager, plus `overrides`.
func childEnvironment(_ overrides: [String: String] = [:]) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    for name in ["DBUS_SESSION_BUS_ADDRESS", "DBUS_STARTER_ADDRESS", "DBUS_STARTER_BUS_TYPE", "NOTIFY_SOCKET",
                 "JOURNAL_STREAM", "WATCHDOG_USEC", "WATCHDOG_PID", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES"] {
        environment.removeValue(forKey: name)
    }
    environment.merge(overrides) { _, new in new }
    return environment
}

/// The path of `program` found on PATH (or in /usr/bin, /bin), nil when there is none.
func which(_ program: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    let directories: [String] = path.split(separator: ":").map(String.init) + ["/usr/bin", "/bin"]
    for directory in directories {
        let candidate = "\(directory)/\(program)"
        if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
}

/// Runs a program to its end and returns its standard output (for `swift --version`, git).
func captureOutput(_ executable: String, _ arguments: [String], environment: [String: String] = childEnvironment()) -> String? {
    guard let file = tmpfile() else { return nil }
    defer { fclose(file) }
    guard let child = try? Child(executable, arguments, environment: environment, stdout: fileno(file)) else {
        return nil
    }
    guard (child.wait(timeout: 20) ?? child.stop(grace: 1)) == 0 else { return nil }
    rewind(file)
    var output = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = fread(&buffer, 1, buffer.count, file)
        if count <= 0 { break }
        output += buffer[..<count]
    }
    return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

/// A temporary directory, removed with everything in it when released.
final class TempDirectory {
    let path: String

    init(prefix: String) throws {
        var template = Array("/tmp/\(prefix).XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw BenchError.system("cannot create a temporary directory") }
        path = String(cString: made)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { path + "/" + name }

    func subdirectory(_ name: String) throws -> String {
        let sub = file(name)
        guard mkdir(sub, 0o700) == 0 || errno == EEXIST else { throw BenchError.system("cannot create \(sub)") }
        return sub
    }
}

/// Opens (creating or truncating) a log file; the caller closes it.
func openLog(_ path: String) throws -> Int32 {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw BenchError.system("cannot open \(path)") }
    return fd
}

private typealias AddClosefrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

/// glibc 2.34's posix_spawn_file_actions_addclosefrom_np, looked up at run time.
private let spawnAddClosefrom: AddClosefrom? = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else {
        return nil
    }
    return unsafeBitCast(symbol, to: AddClosefrom.self)
}()
