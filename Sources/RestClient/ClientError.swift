import DBusKit
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
            return "cannot reach the D-Bus session bus (\(reason)); \(ServiceHint.startBus)"
        case .busLost(let reason):
            return
                "the D-Bus session bus went away (\(reason)), and restd with it: the session ended or the bus was stopped"
        case .daemonNotRunning:
            return "restd is not running on the session bus; start it: \(ServiceHint.startRestd)"
        case .startFailed(let sentence):
            return sentence
        case .refused(let error):
            return error.message
        case .badReply(let what):
            return "restd sent an unexpected reply: \(what)"
        }
    }

    /// restd answered that there is no such timer.
    public var isNoSuchTimer: Bool {
        if case .refused(let error) = self { return error.name == RestErrorName.noSuchTimer }
        return false
    }
}
