import Foundation
import Glibc

/// A fresh directory under `$TMPDIR` (or `/tmp`), removed with everything in it when the
/// object goes away — unless the environment variable `KEEP_TEST_DIRS` is set, in which
/// case it is kept and its path is printed to stderr so that logs, databases and bus
/// configurations can be inspected after a run.
///
/// Names are kept short on purpose: a bus socket lives inside and a Unix socket path must
/// fit in 108 bytes.
///
/// Sendable without `@unchecked`: every stored property is an immutable value.
public final class TempDirectory: Sendable {
    /// Absolute path of the directory (no trailing slash).
    public let path: String
    public let url: URL

    /// Creates the directory (mode 0700). `prefix` becomes the start of its name.
    public init(prefix: String = "restd") throws {
        var base = ProcessInfo.processInfo.environment["TMPDIR"] ?? ""
        if base.isEmpty { base = "/tmp" }
        while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
        var template = Array("\(base)/\(prefix).XXXXXX".utf8CString)
        let created = template.withUnsafeMutableBufferPointer { buffer in
            mkdtemp(buffer.baseAddress!)
        }
        guard created != nil else {
            throw ProcessHarnessError.system("mkdtemp in \(base)", errno)
        }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        self.path = path
        self.url = URL(fileURLWithPath: path, isDirectory: true)
    }

    /// The path of `name` inside this directory (nothing is created).
    public func path(_ name: String) -> String { "\(path)/\(name)" }

    /// Creates (if needed) a subdirectory and returns its path.
    @discardableResult
    public func subdirectory(_ name: String) throws -> String {
        let sub = path(name)
        try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
        return sub
    }

    /// Writes `contents` to `name` inside this directory and returns the file's path.
    @discardableResult
    public func write(_ name: String, _ contents: String) throws -> String {
        let file = path(name)
        let parent = (file as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        try contents.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    /// Whether directories are kept after the run (`KEEP_TEST_DIRS` set).
    public static var keepDirectories: Bool {
        ProcessInfo.processInfo.environment["KEEP_TEST_DIRS"] != nil
    }

    deinit {
        if TempDirectory.keepDirectories {
            FileHandle.standardError.write(Data("KEEP_TEST_DIRS: kept \(path)\n".utf8))
        } else {
            try? FileManager.default.removeItem(atPath: path)
        }
    }
}
