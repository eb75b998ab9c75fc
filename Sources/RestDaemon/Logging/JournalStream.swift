import Glibc

/// Whether standard error is connected to the journal, the way systemd.exec(5) describes it:
/// systemd sets `JOURNAL_STREAM=<device>:<inode>` for a service whose stderr goes to the journal,
/// and the variable is trusted only while fd 2 is still that very file (a child that redirected
/// stderr inherits the variable but not the stream).
public enum JournalStream {
    /// Whether `value` (the variable's text) names the file with this device and inode.
    public static func matches(_ value: String?, device: UInt64, inode: UInt64) -> Bool {
        guard let value else { return false }
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let dev = UInt64(parts[0]), let ino = UInt64(parts[1]) else { return false }
        return dev == device && ino == inode
    }

    /// Whether this process's stderr is the journal stream named by `JOURNAL_STREAM`.
    public static func standardErrorIsJournal() -> Bool {
        guard let value = getenv("JOURNAL_STREAM").map({ String(cString: $0) }) else { return false }
        var info = stat()
        guard fstat(STDERR_FILENO, &info) == 0 else { return false }
        return matches(value, device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }
}
