import Localization

/// Where restd keeps its state, and the lock file that makes it one restd's: restd writes the
/// file and holds it locked (flock) while it serves; restctl reads it to say who holds the state
/// when an activated restd could not start.
public enum StateDirectory {
    /// `$XDG_STATE_HOME/restd`, else `~/.local/state/restd`; `environment` reads a variable.
    public static func defaultPath(environment: (String) -> String?) -> String {
        if let state = environment("XDG_STATE_HOME"), state.hasPrefix("/") {
            return state + "/restd"
        }
        return (environment("HOME") ?? ".") + "/.local/state/restd"
    }

    /// The lock file's name in the state directory.
    public static let lockFileName = "restd.lock"

    /// restd's exit status when another restd holds its state directory (EX_TEMPFAIL); the unit
    /// does not restart it (`RestartPreventExitStatus=`), and restctl explains it.
    public static let inUseExitStatus: Int32 = 75

    /// The restd that holds a state directory, as its lock file says.
    public struct Holder: Sendable, Equatable {
        public var pid: Int32
        /// The address of the bus it serves (`unix:path=/run/user/1000/bus`).
        public var bus: String

        public init(pid: Int32, bus: String) {
            self.pid = pid
            self.bus = bus
        }

        /// The lock file's text: `pid=1234` and `bus=ADDRESS`, a line each.
        public var lockFileText: String { "pid=\(pid)\nbus=\(bus)\n" }

        /// Reads a lock file's text; nil when it is empty (its holder has not written it yet) or
        /// not the holder's.
        public init?(lockFileText text: String) {
            var pid: Int32?
            var bus: String?
            for line in text.split(separator: "\n") {
                if line.hasPrefix("pid=") { pid = Int32(line.dropFirst("pid=".count)) }
                if line.hasPrefix("bus=") { bus = String(line.dropFirst("bus=".count)) }
            }
            guard let pid, pid > 0, let bus else { return nil }
            self.init(pid: pid, bus: bus)
        }
    }

    /// "the state in DIRECTORY is in use by restd (pid 1234) on bus ADDRESS; stop that restd first,
    /// or use it there: export DBUS_SESSION_BUS_ADDRESS=ADDRESS": what restd says when it cannot
    /// take the lock, and restctl when an activated restd exited for that reason.
    public static func inUseSentence(directory: String, holder: Holder?) -> String {
        guard let holder else {
            return localized("the state in %1$s is in use by another restd; stop that restd first", directory)
        }
        guard !holder.bus.isEmpty else {
            return localized(
                "the state in %1$s is in use by restd (pid %2$d); stop that restd first", directory, holder.pid)
        }
        return localized(
            "the state in %1$s is in use by restd (pid %2$d) on bus %3$s; stop that restd first, or use it there: export DBUS_SESSION_BUS_ADDRESS=%3$s",
            directory, holder.pid, holder.bus)
    }
}
