import Glibc

/// How a child process ended.
public enum Termination: Sendable, Equatable, CustomStringConvertible {
    /// It called exit (or returned from main) with this code.
    case exited(Int32)
    /// It was killed by this signal.
    case signaled(Int32)

    /// One number for both cases: the exit code (0…255), or the *negated* signal number
    /// for a death by signal (SIGKILL → -9), so the two never mix.
    public var status: Int32 {
        switch self {
        case .exited(let code): code
        case .signaled(let signal): -signal
        }
    }

    public var description: String {
        switch self {
        case .exited(let code): "exited with status \(code)"
        case .signaled(let signal): "killed by signal \(signal) (\(signalName(signal)))"
        }
    }
}

/// "SIGTERM" for the signals a test or a benchmark meets, "signal N" for the others.
public func signalName(_ signal: Int32) -> String {
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
