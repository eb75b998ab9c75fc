import Localization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one command that helps when restd or the bus is missing (exit status 69): what it is
/// depends on whether a systemd user manager runs, which restd's unit and the bus's socket
/// are then under.
public enum ServiceHint {
    /// A systemd user manager runs for this user: it listens on `$XDG_RUNTIME_DIR/systemd/private`.
    public static var underSystemd: Bool {
        guard let runtime = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }), !runtime.isEmpty else {
            return false
        }
        var info = stat()
        return stat(runtime + "/systemd/private", &info) == 0 && (info.st_mode & S_IFMT) == S_IFSOCK
    }

    /// How to start restd: "`systemctl --user start restd`", or running it by hand.
    public static var startRestd: String {
        underSystemd
            ? "'systemctl --user start restd'" : localized("run 'restd' (in another terminal, or as 'restd &')")
    }

    /// Where to see why restd did not start.
    public static var whyNotStarted: String {
        underSystemd
            ? localized("'systemctl --user status restd' says why")
            : localized("run 'restd' in a terminal to see why")
    }

    /// How to get a session bus: the private bus `make run` keeps for this user at one address,
    /// when it is there, else the session's own.
    public static var startBus: String {
        if let privateBus = privateBusSocket {
            return localized(
                "a private bus is at %1$s (that of 'make run' from a checkout): export DBUS_SESSION_BUS_ADDRESS=unix:path=%1$s",
                privateBus)
        }
        return underSystemd
            ? localized("start it with 'systemctl --user start dbus.socket'")
            : localized(
                "set DBUS_SESSION_BUS_ADDRESS to your session's bus, or start one with 'dbus-run-session -- $SHELL'")
    }

    /// The socket of this user's private bus (scripts/run-on-session-bus.sh:
    /// `$XDG_RUNTIME_DIR/restd-bus/bus`, else `${TMPDIR:-/tmp}/restd-bus-UID/bus`), if one is
    /// there and this user's.
    static var privateBusSocket: String? {
        var candidates: [String] = []
        if let runtime = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }), !runtime.isEmpty {
            candidates.append(runtime + "/restd-bus/bus")
        }
        let temporary = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        candidates += [temporary + "/restd-bus-\(getuid())/bus", "/tmp/restd-bus-\(getuid())/bus"]
        return candidates.first { path in
            var info = stat()
            return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFSOCK && info.st_uid == getuid()
        }
    }
}
