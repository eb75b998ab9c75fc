import DBusKit
import Localization
import RestProtocol

/// Why a client request failed, with one sentence for the user.
public enum ClientError: Error, Equatable, CustomStringConvertible {
    /// No session bus to talk to (connecting failed).
    case noBus(String)
    /// The bus closed the connection while restctl was using it (the session ended).
    case busLost(String)
    /// The bus is there but restd is not on it.
    case daemonNotRunning
    /// The bus tried to start restd for the call (D-Bus activation), and restd did not come up:
    /// the sentence says why, as far as restctl can tell.
    case startFailed(String)
    /// restd refused or failed the request; the message is its sentence.
    case refused(DBusError)
    /// The reply was not what the contract says.
    case badReply(String)

    public var description: String {
        switch self {
        case .noBus(let reason):
            return localized("cannot reach the D-Bus session bus (%1$s); %2$s", reason, ServiceHint.startBus)
        case .busLost(let reason):
            return localized(
                "the D-Bus session bus went away (%1$s), and restd with it: the session ended or the bus was stopped",
                reason)
        case .daemonNotRunning:
            return localized("restd is not running on the session bus; start it: %1$s", ServiceHint.startRestd)
        case .startFailed(let sentence):
            return sentence
        case .refused(let error):
            return Self.sentence(of: error)
        case .badReply(let what):
            return localized("restd sent an unexpected reply: %1$s", what)
        }
    }

    /// restd's sentence for a refusal, as restd wrote it: in restd's language, the session's.
    public static func sentence(of error: DBusError) -> String {
        error.message.isEmpty ? error.name : error.message
    }

    /// restd answered that there is no such timer.
    public var isNoSuchTimer: Bool {
        if case .refused(let error) = self { return error.name == RestErrorName.noSuchTimer }
        return false
    }
}
