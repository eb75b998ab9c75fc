#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Unbuffered lines to file descriptor 1, for output that follows events (`watch`): each line
/// leaves at once, and a closed reader is seen at the next line rather than at exit.
enum StandardOutput {
    /// Writes `line` and a newline; returns errno when it could not (EPIPE: nobody reads).
    static func writeLine(_ line: String) -> Int32? {
        var text = line + "\n"
        return text.withUTF8 { bytes -> Int32? in
            var offset = 0
            while offset < bytes.count {
                let written = write(STDOUT_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                if written >= 0 {
                    offset += written
                    continue
                }
                switch errno {
                case EINTR:
                    continue
                case EAGAIN:
                    // Someone made our stdout non-blocking: wait until it takes more.
                    var ready = pollfd(fd: STDOUT_FILENO, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&ready, 1, -1)
                default:
                    return errno
                }
            }
            return nil
        }
    }
}
