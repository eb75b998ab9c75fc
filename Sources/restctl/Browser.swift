import Localization
import POSIXSpawn

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The desktop's browser, through xdg-open(1) (xdg-utils): it asks the desktop which program
/// opens an HTML file.
enum Browser {
    /// Opens the file at the absolute `path`, and waits for xdg-open to say whether it could.
    static func open(_ path: String) throws(RestctlError) {
        let pid: pid_t
        do {
            pid = try Spawn.start(["xdg-open", path], searchPath: true, stdin: .devNull)
        } catch {
            let reason =
                error.errno == ENOENT ? localized("xdg-open is not installed (Debian's xdg-utils)") : error.description
            throw RestctlError(.failed, localized("could not open the report: %1$s; it is at %2$s", reason, path))
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED and WEXITSTATUS, which Swift does not import (they are macros).
        let exited = status & 0x7f == 0
        let code = (status >> 8) & 0xff
        guard exited && code == 0 else {
            throw RestctlError(
                .failed,
                localized(
                    "could not open the report: %1$s; it is at %2$s",
                    exited
                        ? localized("xdg-open failed (exit status %1$d)", code)
                        : localized("xdg-open was stopped by signal %1$d", status & 0x7f), path))
        }
    }
}
