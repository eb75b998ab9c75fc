import Glibc
import Localization
import RestCore

/// The file-system chores around the state file: private modes, the lock on the state directory,
/// and moving a broken file aside instead of deleting it.
enum StoreFiles {
    /// What a path holds, as far as the store cares.
    enum Kind: Equatable {
        case absent
        case regularFile(size: Int64)
        /// Anything else.
        case other(Other)
    }

    /// What a path holds that is neither absent nor a regular file.
    enum Other: Equatable {
        case directory, symbolicLink, fifo, socket, deviceNode
        /// lstat failed, for this reason (strerror).
        case inaccessible(String)
    }

    /// `mkdir -p` with mode 0700 for what it creates; an existing directory is set to 0700.
    static func makePrivateDirectory(_ path: String) throws(StoreError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, 0o700) != 0, errno != EEXIST {
                throw StoreError(
                    description: localized("could not create the state directory %1$s: %2$s", prefix, errorText()))
            }
            prefix += "/"
        }
        // stat, not lstat: a symbolic link to a directory is a fine state directory.
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw StoreError(
                description: localized("could not use the state directory %1$s: it is not a directory", path))
        }
        try restrict(path, mode: 0o700)
    }

    /// An existing directory that cannot be written to: a read-only mount, or one without write
    /// permission for us.
    static func isReadOnlyDirectory(_ path: String) -> Bool {
        guard case .directory = directoryKind(path) else { return false }
        return access(path, W_OK) != 0 && (errno == EROFS || errno == EACCES)
    }

    private enum DirectoryKind { case directory, other }

    private static func directoryKind(_ path: String) -> DirectoryKind {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR ? .directory : .other
    }

    /// A fresh private directory for scratch copies, under $XDG_RUNTIME_DIR or $TMPDIR or /tmp.
    static func makeScratchDirectory() throws(StoreError) -> String {
        let candidates =
            ["XDG_RUNTIME_DIR", "TMPDIR"].compactMap { (name: String) -> String? in
                getenv(name).map { String(cString: $0) }
            } + ["/tmp"]
        let base = candidates.first { !$0.isEmpty && access($0, W_OK) == 0 } ?? "/tmp"
        var template = Array("\(base)/restd-readonly.XXXXXX".utf8CString)
        guard let created = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw StoreError(
                description: localized("could not create a scratch directory in %1$s: %2$s", base, errorText()))
        }
        return String(cString: created)
    }

    /// Removes a scratch directory made by `makeScratchDirectory` and the state copy in it.
    static func removeScratchDirectory(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { unlink(path + "/" + StateStore.fileName + suffix) }
        rmdir(path)
    }

    /// Copies a regular file's bytes to a new private file (0600) at `target`.
    static func copyFile(_ source: String, to target: String) throws(StoreError) {
        let input = Glibc.open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else {
            throw StoreError(description: localized("could not read %1$s: %2$s", source, errorText()))
        }
        defer { Glibc.close(input) }
        let output = Glibc.open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard output >= 0 else {
            throw StoreError(description: localized("could not create %1$s: %2$s", target, errorText()))
        }
        defer { Glibc.close(output) }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else {
                throw StoreError(description: localized("could not read %1$s: %2$s", source, errorText()))
            }
            if count == 0 { return }
            var written = 0
            while written < count {
                let result = buffer.withUnsafeBytes { write(output, $0.baseAddress! + written, count - written) }
                if result < 0, errno == EINTR { continue }
                guard result > 0 else {
                    throw StoreError(description: localized("could not write %1$s: %2$s", target, errorText()))
                }
                written += result
            }
        }
    }

    /// Classifies `path` without following a symbolic link.
    static func kind(of path: String) -> Kind {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            return errno == ENOENT ? .absent : .other(.inaccessible(errorText()))
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regularFile(size: Int64(info.st_size))
        case S_IFDIR: return .other(.directory)
        case S_IFLNK: return .other(.symbolicLink)
        case S_IFIFO: return .other(.fifo)
        case S_IFSOCK: return .other(.socket)
        default: return .other(.deviceNode)
        }
    }

    /// Creates `path` if absent with mode 0600, or sets an existing file to 0600.
    static func makePrivateFile(_ path: String) throws(StoreError) {
        let fd = Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            throw StoreError(description: localized("could not create the state file %1$s: %2$s", path, errorText()))
        }
        defer { Glibc.close(fd) }
        // The umask may have removed bits but never adds any; fchmod makes the mode exact.
        guard fchmod(fd, 0o600) == 0 else {
            throw StoreError(
                description: localized("could not make the state file %1$s private: %2$s", path, errorText()))
        }
    }

    /// Opens `path` (created with mode 0600 if absent) and takes an exclusive flock on it without
    /// waiting: the descriptor, or nil when another open file holds the lock. The lock lasts as long
    /// as the descriptor: the kernel drops it when the process ends, however it ends. The
    /// descriptor is close-on-exec, so that a child (the sound command) never keeps it.
    static func lockExclusively(_ path: String) throws(StoreError) -> Int32? {
        let fd = Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            throw StoreError(description: localized("could not open the lock file %1$s: %2$s", path, errorText()))
        }
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            let held = errno == EWOULDBLOCK
            let reason = errorText()
            Glibc.close(fd)
            if held { return nil }
            throw StoreError(description: localized("could not lock %1$s: %2$s", path, reason))
        }
        return fd
    }

    /// Replaces what the file open as `fd` holds with `text`.
    static func rewrite(_ fd: Int32, path: String, with text: String) throws(StoreError) {
        let bytes = Array(text.utf8)
        guard ftruncate(fd, 0) == 0 else {
            throw StoreError(description: localized("could not write %1$s: %2$s", path, errorText()))
        }
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress! + written, bytes.count - written, written) }
            if result < 0, errno == EINTR { continue }
            guard result > 0 else {
                throw StoreError(description: localized("could not write %1$s: %2$s", path, errorText()))
            }
            written += result
        }
    }

    /// The text of a small file, "" when it cannot be read.
    static func contents(of path: String) -> String {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return "" }
        defer { Glibc.close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 65_536 {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Lets go of the lock of a descriptor from `lockExclusively`, and closes it. The lock goes
    /// first: a child forked meanwhile by another thread shares the open file until its exec, and
    /// closing alone would leave the lock held for that long.
    static func unlock(_ fd: Int32) {
        while flock(fd, LOCK_UN) != 0, errno == EINTR {}
        Glibc.close(fd)
    }

    /// Sets the mode of `path`, optionally tolerating its absence.
    static func restrict(_ path: String, mode: mode_t, ignoringAbsence: Bool = false) throws(StoreError) {
        guard chmod(path, mode) == 0 else {
            if ignoringAbsence, errno == ENOENT { return }
            throw StoreError(
                description: localized(
                    "could not set mode %1$s on %2$s: %3$s", String(mode, radix: 8), path, errorText()))
        }
    }

    /// Renames `path` and its companions to `<path>.broken-<UTC time>[-<n>]<companion>`,
    /// picking a name none of them has yet, and returns the new paths (the main file first).
    static func moveAside(_ path: String, companions: [String], now: USec) throws(StoreError) -> [String] {
        let suffixes = [""] + companions
        let stem = "\(path).broken-\(DateText.basicISO8601(usec: now))"
        var target = stem
        var counter = 2
        while suffixes.contains(where: { kind(of: target + $0) != .absent }) {
            target = "\(stem)-\(counter)"
            counter += 1
        }
        // Companions first: a -wal left behind without its main file would be replayed
        // into the fresh database created next.
        var moved: [String] = []
        for suffix in companions + [""] where kind(of: path + suffix) != .absent {
            guard rename(path + suffix, target + suffix) == 0 else {
                throw StoreError(
                    description: localized(
                        "could not move the unreadable state file %1$s aside: %2$s", path + suffix, errorText()))
            }
            moved.append(target + suffix)
        }
        return moved.sorted()
    }

    private static func errorText() -> String {
        String(cString: strerror(errno))
    }
}
