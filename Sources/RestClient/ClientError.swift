import DBusKit
import Localization
import RestCore
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

    /// restd's sentence for a refusal, in the reader's language where restctl knows it: restd
    /// speaks English on the bus (a client's language is not restd's), and restctl says again
    /// in the reader's words the refusals it knows by name and shape; any other as restd wrote it.
    public static func sentence(of error: DBusError) -> String {
        guard !error.message.isEmpty else { return error.name }
        if error.name == RestErrorName.noSuchTimer, let match = error.message.wholeMatch(of: #/no timer (".*")/#) {
            return localized("no timer %1$s", String(match.output.1))
        }
        if error.name == RestErrorName.invalidArgs, error.message.hasPrefix("no set "),
            let id = Int64(error.message.dropFirst("no set ".count).prefix { $0.isASCII && $0.isNumber }),
            error.message == TrainingBook.noSuchSetSentence(id)
        {
            return localized("no set %1$s in the history; 'restctl history' shows each set's id", id)
        }
        return error.message
    }

    /// restd answered that there is no such timer.
    public var isNoSuchTimer: Bool {
        if case .refused(let error) = self { return error.name == RestErrorName.noSuchTimer }
        return false
    }
}
