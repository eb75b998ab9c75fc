import Foundation
import ProcessHarness

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Running real external programs (dbus-daemon, restd, busctl, gdbus, restctl)
// from the integration tests: `Command.run` for one-shot programs whose output
// we keep, over ProcessHarness's `ChildProcess`.

/// Errors raised by the tests' own harness (not by the program under test); the parts
/// shared with the benchmark throw ProcessHarness's `ProcessHarnessError`.
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
    ///   variables in `ChildEnvironment.scrubbed` (notably
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
    static func run(
        _ argv: [String], environment: [String: String] = [:],
        stdin: String? = nil, timeout: Double = 30
    ) -> CommandResult {
        let start = Stopwatch()
        func failure(_ message: String) -> CommandResult {
            CommandResult(
                argv: argv, status: 127, stdout: "", stderr: message + "\n",
                timedOut: false, elapsed: start.elapsed)
        }
        guard let program = argv.first else { return failure("Command.run: empty argv") }
        let env = ChildEnvironment.make(environment)
        guard let executable = ChildEnvironment.which(program, path: env["PATH"]) else {
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
            child = try ChildProcess(
                executable: executable, arguments: Array(argv.dropFirst()),
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
        return CommandResult(
            argv: argv, status: termination!.status,
            stdout: readAll(out), stderr: readAll(err),
            timedOut: timedOut, elapsed: start.elapsed)
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
