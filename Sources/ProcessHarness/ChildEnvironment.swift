import Foundation
import Glibc

/// Environment handling for every child the harness starts.
public enum ChildEnvironment {
    /// Variables removed from the inherited environment, so that no child reaches the
    /// developer's real session bus, journal or service manager by accident. Callers that
    /// want one of them pass it explicitly.
    public static let scrubbed: Set<String> = [
        "DBUS_SESSION_BUS_ADDRESS", "DBUS_STARTER_ADDRESS", "DBUS_STARTER_BUS_TYPE",
        "NOTIFY_SOCKET", "JOURNAL_STREAM", "WATCHDOG_USEC", "WATCHDOG_PID",
        "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES",
    ]

    /// The locale every child gets unless the caller passes one: no child speaks the language of
    /// whoever runs the tests or the benchmark (LANG, LANGUAGE and LC_* are not inherited).
    public static let locale = ["LC_ALL": "C.UTF-8"]

    /// No child reaches the developer's own sound server (a restd under test would play its
    /// cues on their speakers): a test that wants one passes an `AudioServer`'s address.
    public static let noSoundServer = ["PULSE_SERVER": "unix:/nonexistent/restd-test-has-no-sound-server"]

    /// This process's environment minus `scrubbed` and the locale variables, with `locale`,
    /// `noSoundServer` and then `overrides` on top.
    public static func make(_ overrides: [String: String] = [:]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        for name in env.keys where scrubbed.contains(name) || isLocaleVariable(name) {
            env.removeValue(forKey: name)
        }
        env.merge(locale) { _, new in new }
        env.merge(noSoundServer) { _, new in new }
        env.merge(overrides) { _, new in new }
        return env
    }

    private static func isLocaleVariable(_ name: String) -> Bool {
        name == "LANG" || name == "LANGUAGE" || name.hasPrefix("LC_")
    }

    /// Resolves a program name the way a shell would (names containing a slash are taken
    /// as they are). Returns nil when nothing executable is found.
    public static func which(_ program: String, path: String? = nil) -> String? {
        if program.contains("/") {
            return access(program, X_OK) == 0 ? program : nil
        }
        let search = path ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in search.split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = (dir.isEmpty ? "." : String(dir)) + "/" + program
            var info = stat()
            if stat(candidate, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, access(candidate, X_OK) == 0 {
                return candidate
            }
        }
        return nil
    }
}
