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
            let reason = error.errno == ENOENT ? "xdg-open is not installed (Debian's xdg-utils)" : error.description
            throw RestctlError(.failed, "could not open the report: \(reason); it is at \(path)")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED and WEXITSTATUS, which Swift does not import (they are macros).
        let exited = status & 0x7f == 0
        let code = (status >> 8) & 0xff
        guard exited && code == 0 else {
            throw RestctlError(
                .failed,
                "could not open the report: xdg-open "
                    + (exited ? "failed (exit status \(code))" : "was stopped by signal \(status & 0x7f)")
                    + "; it is at \(path)")
        }
    }
}
