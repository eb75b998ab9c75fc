import RestClient
import RestProtocol

/// Why restctl gave up at run time: a sentence for stderr and the exit status to leave with.
struct RestctlError: Error, CustomStringConvertible {
    enum Kind {
        /// A value on the command line that cannot be used (EX_USAGE): the sentence alone,
        /// without ArgumentParser's usage block, which is for mistakes in the command's shape.
        case usage
        /// No bus, no restd on it, or restd did not answer (EX_UNAVAILABLE).
        case unavailable
        /// restd refused the request (a bad id, state, or range).
        case refused
        /// restd answered something that does not follow the contract (EX_PROTOCOL).
        case badReply
        /// restctl could not do all it was asked (lines of a stream skipped, stdout not writable).
        case failed
    }

    let kind: Kind
    let message: String
    /// restd said there is no such timer (`status --json` prints null then).
    private(set) var isNoSuchTimer = false
    /// restd refused an argument (InvalidArgs).
    private(set) var isInvalidArgs = false

    init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    init(_ error: ClientError) {
        isNoSuchTimer = error.isNoSuchTimer
        switch error {
        case .noBus, .busLost, .daemonNotRunning, .startFailed:
            kind = .unavailable
            message = error.description
        case .refused(let dbusError):
            isInvalidArgs = dbusError.name == RestErrorName.invalidArgs
            kind = Self.unanswered.contains(dbusError.name) ? .unavailable : .refused
            // People read the sentence; the error name is for programs.
            message = ClientError.sentence(of: dbusError)
        case .badReply:
            kind = .badReply
            message = error.description
        }
    }

    var exitStatus: ExitStatus {
        switch kind {
        case .usage: .usage
        case .unavailable: .unavailable
        case .refused, .failed: .refused
        case .badReply: .badReply
        }
    }

    /// The message on one line, whatever the daemon or libdbus put in it.
    var oneLine: String {
        String(message.map { $0.isNewline ? " " : $0 })
    }

    /// Each line of the message as a line of restctl's (`restctl: ` before each): what restd
    /// says in several sentences (every problem of a plan file) stays one per line.
    var lines: String {
        message.split(whereSeparator: \.isNewline).map { "restctl: \($0)\n" }.joined()
    }

    var description: String { message }

    // The call went out but no reply came back: restd is hung or went away mid-call.
    private static let unanswered: Set<String> = [
        "org.freedesktop.DBus.Error.NoReply",
        "org.freedesktop.DBus.Error.Timeout",
        "org.freedesktop.DBus.Error.Disconnected",
    ]
}
