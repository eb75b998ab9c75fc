import Foundation
import ProcessHarness

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the package's built executables (restd, restctl) are.
enum BuildProducts {
    /// Directories searched, best first: `$RESTD_BIN_DIR` alone when it is
    /// set (the Makefile sets it to `swift build --show-bin-path`); otherwise
    /// the directory of the running test executable, found through
    /// `CommandLine.arguments[0]`, `Bundle.main.executableURL` and
    /// `/proc/self/exe`. On Linux `swift test` runs
    /// `.build/<triple>/debug/restdPackageTests.xctest`, which sits next to
    /// `restd`; on macOS the bundle's enclosing directory is used.
    static func searchDirectories() -> [String] {
        if let dir = ProcessInfo.processInfo.environment["RESTD_BIN_DIR"], !dir.isEmpty {
            return [dir]
        }
        var executables: [String] = []
        if let argv0 = CommandLine.arguments.first, !argv0.isEmpty {
            if argv0.hasPrefix("/") {
                executables.append(argv0)
            } else if argv0.contains("/") {
                executables.append(FileManager.default.currentDirectoryPath + "/" + argv0)
            } else if let found = ChildEnvironment.which(argv0) {
                executables.append(found)
            }
        }
        if let url = Bundle.main.executableURL { executables.append(url.path) }
        if let real = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            executables.append(real)
        }
        var dirs: [String] = []
        for executable in executables {
            var dir = (executable as NSString).deletingLastPathComponent
            // Leave a macOS-style bundle: …/debug/X.xctest/Contents/MacOS/X.
            if let range = dir.range(of: ".xctest/") ?? (dir.hasSuffix(".xctest") ? dir.range(of: ".xctest") : nil) {
                dir = (String(dir[..<range.lowerBound]) as NSString).deletingLastPathComponent
            }
            dir = (dir as NSString).standardizingPath
            if !dirs.contains(dir) { dirs.append(dir) }
        }
        return dirs
    }

    /// The absolute path of the built executable `name`.
    static func executable(_ name: String) throws -> String {
        let dirs = searchDirectories()
        for dir in dirs {
            let candidate = "\(dir)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        throw HarnessError.notFound(
            "built executable '\(name)' not found in \(dirs.joined(separator: ", ")); "
                + "run 'swift build' (or 'make test'), or set RESTD_BIN_DIR to the directory that holds it")
    }
}

/// A real `restd` process on a `TestBus`.
///
/// It runs with the test's environment minus `ChildEnvironment.scrubbed`
/// (so no `JOURNAL_STREAM`, `NOTIFY_SOCKET` or inherited bus address) plus
/// `DBUS_SESSION_BUS_ADDRESS` = the test bus, `XDG_STATE_HOME` = `stateHome`,
/// `XDG_CONFIG_HOME` = `configHome`, `DBUS_SYSTEM_BUS_ADDRESS` = a socket that does not exist
/// (no system bus) and whatever `environment` adds.
/// stdout and stderr both go to `logPath` in a temporary directory of its own;
/// `log()` reads it, for failure messages. Tests get one from `RestdSetup` (`RunningDaemon.swift`),
/// never make one themselves.
///
/// If it is still running when the object goes away it is killed (SIGKILL).
/// The object keeps its bus alive, and is released before it.
///
/// `@unchecked Sendable`: every stored property is immutable after `init`;
/// process state lives in `ChildProcess`, which guards it with a lock.
final class RestdProcess: @unchecked Sendable {
    static let busName = "io.restd.Rest1"

    let bus: TestBus
    let executable: String
    let arguments: [String]
    let stateHome: String
    let configHome: String
    /// Holds the log and, unless one was given, the config home.
    let workDirectory: TempDirectory
    let logPath: String
    private let child: ChildProcess

    /// Launches restd; does not wait for it to be ready (see `waitUntilReady`).
    ///
    /// - stateHome: `XDG_STATE_HOME`; pass the same directory again to restart
    ///   a daemon on the state a previous one left.
    /// - configHome: `XDG_CONFIG_HOME`; a fresh empty directory when nil.
    /// - arguments: extra command-line arguments, e.g. `["--verbose"]`.
    /// - executable: another binary than the built restd.
    init(
        bus: TestBus, stateHome: String, configHome: String? = nil,
        arguments: [String] = [], environment: [String: String] = [:],
        executable: String? = nil
    ) throws {
        let executable = try executable ?? BuildProducts.executable("restd")
        let work = try TempDirectory(prefix: "restd-run")
        let configHome = try configHome ?? work.subdirectory("config")
        let logPath = work.path("restd.log")
        let log = try openLogFile(logPath)
        defer { close(log) }
        var env = environment
        env["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        env["XDG_STATE_HOME"] = stateHome
        env["XDG_CONFIG_HOME"] = configHome
        // Never the machine's own system bus (and its bluetoothd): a test that wants one passes it.
        if env["DBUS_SYSTEM_BUS_ADDRESS"] == nil {
            env["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=" + work.path("no-system-bus")
        }
        self.child = try ChildProcess(
            executable: executable, arguments: arguments,
            environment: ChildEnvironment.make(env),
            stdout: log, stderr: log)
        self.bus = bus
        self.executable = executable
        self.arguments = arguments
        self.stateHome = stateHome
        self.configHome = configHome
        self.workDirectory = work
        self.logPath = logPath
    }

    var pid: Int32 { child.pid }
    var isRunning: Bool { child.isRunning }
    /// How it ended, nil while it runs.
    var termination: Termination? { child.termination }

    /// Everything restd wrote to stdout and stderr so far.
    func log() -> String {
        (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    }

    /// Waits until restd owns its bus name, using `gdbus wait` (event driven,
    /// no polling). Fails early, with the log, if restd exits first.
    func waitUntilReady(timeout: Double = 30) throws {
        guard let gdbus = ChildEnvironment.which("gdbus") else {
            throw HarnessError.notFound("gdbus not found in PATH (Debian package libglib2.0-bin)")
        }
        let output = try anonymousFile()
        let waiter = try ChildProcess(
            executable: gdbus,
            arguments: [
                "wait", "--address", bus.address,
                "--timeout", String(Int(max(1, timeout.rounded(.up)))), RestdProcess.busName,
            ],
            environment: ChildEnvironment.make(), stdout: output.fileDescriptor, stderr: output.fileDescriptor)
        // gdbus enforces the timeout itself; the margin only guards against it hanging.
        _ = ChildProcess.waitForAny([waiter, child], timeout: timeout + 10)
        if waiter.termination == .exited(0) { return }
        waiter.killAndReap()
        if let termination = child.termination {
            throw HarnessError.failed(
                "restd \(termination) before owning \(RestdProcess.busName)\n--- restd log:\n\(log())")
        }
        throw HarnessError.timedOut(
            "restd (pid \(pid)) did not own \(RestdProcess.busName) within \(timeout) s; "
                + "gdbus wait \(waiter.termination!): \(readAll(output))\n--- restd log:\n\(log())")
    }

    /// Sends a signal (no-op once it has been reaped).
    func signal(_ signal: Int32) { child.signal(signal) }

    /// SIGTERM, without waiting: follow with `waitForExit` to check how it shut down.
    func terminate() { child.signal(SIGTERM) }

    /// SIGKILL, and waits until the process is gone (its bus connection closed
    /// by the kernel). Returns the status, -9 unless it had already exited.
    @discardableResult
    func kill9() -> Int32 { child.killAndReap().status }

    /// Waits for restd to exit: its exit code, or the negated signal number if
    /// a signal killed it (see `Termination.status`). Throws, with the log,
    /// if it is still running after `timeout` seconds.
    func waitForExit(timeout: Double = 30) throws -> Int32 {
        guard let termination = child.wait(timeout: timeout) else {
            throw HarnessError.timedOut(
                "restd (pid \(pid)) still running after \(timeout) s\n--- restd log:\n\(log())")
        }
        return termination.status
    }

    deinit {
        if child.isRunning { child.killAndReap() }
    }
}
