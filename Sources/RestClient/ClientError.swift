import DBusKit

/// Why a client request failed, with one sentence for the user.
public enum ClientError: Error, Equatable, CustomStringConvertible {
    /// No session bus to talk to.
    case noBus(String)
    /// The bus is there but restd is not on it.
    case daemonNotRunning
    /// restd refused or failed the request; the message is its sentence.
    case refused(DBusError)
    /// The reply was not what the contract says.
    case badReply(String)

    public var description: String {
        switch self {
        case .noBus(let reason):
            return "cannot reach the D-Bus session bus (\(reason)); is DBUS_SESSION_BUS_ADDRESS set? `make run` prints the line to export."
        case .daemonNotRunning:
            return "restd is not running on the session bus; start it with `systemctl --user start restd`, or run `restd` in another terminal."
        case .refused(let error):
            return error.message
        case .badReply(let what):
            return "restd sent an unexpected reply: \(what)"
        }
    }
}
