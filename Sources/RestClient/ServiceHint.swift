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
        underSystemd ? "'systemctl --user start restd'" : "run 'restd' (in another terminal, or as 'restd &')"
    }

    /// Where to see why restd did not start.
    public static var whyNotStarted: String {
        underSystemd
            ? "'systemctl --user status restd' says why"
            : "run 'restd' in a terminal to see why"
    }

    /// How to get a session bus.
    public static var startBus: String {
        underSystemd
            ? "start it with 'systemctl --user start dbus.socket'"
            : "set DBUS_SESSION_BUS_ADDRESS to your session's bus, or start one with 'dbus-run-session -- $SHELL'"
    }
}
