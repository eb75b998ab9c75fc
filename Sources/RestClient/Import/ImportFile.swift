import Localization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An export file read in chunks of `chunkBytes` into an `ImportReader`: memory stays bounded
/// whatever the file's size.
public enum ImportFile {
    public static let chunkBytes = 64 * 1024

    /// Why a file could not be read at all, as one sentence.
    public struct Unreadable: Error, Equatable {
        public var message: String
    }

    /// Reads `path` through `reader`, handing each chunk's batch to `each` as it comes.
    public static func read(
        _ path: String, into reader: inout ImportReader, each: (ImportBatch) throws -> Void
    ) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw Unreadable(message: localized("cannot open %1$s: %2$s", path, errorText(errno)))
        }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: chunkBytes)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, chunkBytes) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Unreadable(message: localized("cannot read %1$s: %2$s", path, errorText(errno)))
            }
            if count == 0 { break }
            try each(try reader.read(buffer[..<count]))
        }
        try each(try reader.finish())
    }

    private static func errorText(_ code: Int32) -> String {
        strerror(code).map { String(cString: $0) } ?? "error \(code)"
    }
}
