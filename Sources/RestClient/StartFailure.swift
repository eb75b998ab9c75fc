import DBusKit
import Localization
import RestProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bus tried to start restd for a call (D-Bus activation) and restd did not come up: what
/// the bus answered, turned into one sentence.
///
/// dbus-daemon running restd itself answers `Spawn.ChildExited` with restd's exit status in the
/// message. A bus asking systemd for restd.service (`SystemdService=`; dbus-broker always does)
/// answers NameHasNoOwner, "Could not activate remote peer: startup job failed.", and the status
/// is systemd's to tell: restctl asks it, on the same bus, for the unit's `ExecMainStatus`.
enum StartFailure {
    /// The unit the activation file names (`SystemdService=`).
    static let unit = "restd.service"

    /// Whether `error`, the answer to a call to restd, means that starting restd failed: the bus
    /// says so, or — dbus-daemon handing activation to systemd answers nothing when the unit fails,
    /// and the call times out — systemd says restd.service has failed.
    static func matches(_ error: DBusError, connection: Connection) -> Bool {
        if error.name.hasPrefix("org.freedesktop.DBus.Error.Spawn.")
            || (error.hasName(.nameHasNoOwner) && error.message.hasPrefix("Could not activate remote peer"))
        {
            return true
        }
        return error.hasName(.noReply)
            && unitProperty(connection, interface: "Unit", name: "ActiveState") == .string("failed")
    }

    /// "the session bus could not start restd: the state in … is in use by restd (pid N) on bus …" when restd
    /// exited because another restd holds its state directory; else the bus's words and where to
    /// look for the reason.
    static func sentence(_ error: DBusError, connection: Connection) -> String {
        let status = exitStatus(inMessage: error.message) ?? unitExitStatus(connection)
        if status == StateDirectory.inUseExitStatus {
            let directory = StateDirectory.defaultPath { getenv($0).map { String(cString: $0) } }
            let lockFile = readSmallFile(directory + "/" + StateDirectory.lockFileName)
            let holder = lockFile.flatMap(StateDirectory.Holder.init(lockFileText:))
            return localized(
                "the session bus could not start restd: %1$s",
                StateDirectory.inUseSentence(directory: directory, holder: holder))
        }
        return localized("the session bus could not start restd (%1$s); %2$s", error.message, ServiceHint.whyNotStarted)
    }

    /// The status in dbus-daemon's "Process io.restd.Rest1 exited with status 75".
    static func exitStatus(inMessage message: String) -> Int32? {
        guard let range = message.firstRange(of: "exited with status ") else { return nil }
        return Int32(message[range.upperBound...].prefix { $0.isNumber })
    }

    /// restd.service's `ExecMainStatus`, from the systemd user manager on the bus; nil when there
    /// is none or it does not answer.
    private static func unitExitStatus(_ connection: Connection) -> Int32? {
        guard case .int32(let status)? = unitProperty(connection, interface: "Service", name: "ExecMainStatus") else {
            return nil
        }
        return status
    }

    /// A property of restd.service (`org.freedesktop.systemd1.INTERFACE`), from the systemd user
    /// manager on the bus; nil when there is none or it does not answer.
    private static func unitProperty(_ connection: Connection, interface: String, name: String) -> DBusValue? {
        let systemd = "org.freedesktop.systemd1"
        do {
            let getUnit = try Message.methodCall(
                destination: systemd, path: "/org/freedesktop/systemd1", interface: systemd + ".Manager",
                member: "GetUnit")
            try getUnit.append([.string(unit)])
            guard
                case .objectPath(let path)? = try connection.callBlocking(getUnit, timeoutMilliseconds: 5_000)
                    .arguments().first
            else { return nil }
            let get = try Message.methodCall(
                destination: systemd, path: path, interface: MessageBus.propertiesInterface, member: "Get")
            try get.append([.string(systemd + "." + interface), .string(name)])
            return try connection.callBlocking(get, timeoutMilliseconds: 5_000).arguments().first?.unwrapped
        } catch {
            return nil
        }
    }

    /// The file's text, nil when it cannot be read.
    private static func readSmallFile(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = fread(&bytes, 1, bytes.count, file)
        return String(decoding: bytes[..<count], as: UTF8.self)
    }
}
