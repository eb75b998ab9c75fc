import Localization

/// restctl's exit statuses, each with the sentence that explains it in `restctl --help` and in
/// man/restctl-exit-status.md, whose table `make man` writes into restctl(1) — the tests hold
/// those three to this table. The numbers are BSD's
/// sysexits(3), as systemd and most daemons' tools use them.
public enum ExitStatus: Int32, CaseIterable, Sendable {
    case success = 0
    case refused = 1
    case usage = 64
    case unavailable = 69
    case badReply = 76

    public var meaning: String {
        switch self {
        case .success:
            "Success; for wait and start --wait, the rest is over."
        case .refused:
            "restd refused the request (its sentence is printed), the rest wait waited for was cancelled, "
                + "or live --stdin skipped a line."
        case .usage:
            "A usage error: an unknown command or option, a missing or unreadable value, or a value "
                + "restd's fixed rules refuse (checked by restctl before it asks restd)."
        case .unavailable:
            "No session bus, or no restd on it (or the bus could not start it), or restd went away before it answered."
        case .badReply:
            "restd's reply makes no sense: what owns io.restd.Rest1 is not a restd restctl understands."
        }
    }

    /// A few words for the help.
    public var summary: String {
        switch self {
        case .success: localized("success")
        case .refused: localized("refused by restd")
        case .usage: localized("a usage error")
        case .unavailable: localized("restd unreachable")
        case .badReply: localized("a reply that makes no sense")
        }
    }

    /// The help's last paragraph: "Exit status: 0 success; 1 refused by restd; …".
    public static var helpText: String {
        localized(
            "Exit status: %1$s (restctl(1) says when each is given).",
            allCases.map { "\($0.rawValue) \($0.summary)" }.joined(separator: "; "))
    }
}
