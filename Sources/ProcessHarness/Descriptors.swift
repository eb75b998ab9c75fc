import Foundation
import Glibc

/// Opens (creating or truncating) a file for a child's output; close-on-exec, appending so
/// that stdout and stderr can share it.
public func openLogFile(_ path: String) throws -> Int32 {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw ProcessHarnessError.system("cannot create \(path)", errno) }
    return fd
}

/// Reads one line (without its newline) from `fd`, waiting with poll(2) for at most
/// `timeout` seconds. Nil on timeout, on end of file before a newline (`endOfFile` is then
/// set), or on a read error.
public func readLine(from fd: Int32, timeout: Double, endOfFile: inout Bool) -> String? {
    let deadline = Deadline(secondsFromNow: timeout)
    var buffer: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 512)
    while true {
        if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
            return String(decoding: buffer[..<newline], as: UTF8.self)
        }
        let remaining = deadline.remaining
        if remaining <= 0 { return nil }
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&pfd, 1, Int32(min(remaining * 1000 + 1, 3_600_000)))
        if ready < 0 {
            if errno == EINTR { continue }
            return nil
        }
        if ready == 0 { continue }  // deadline check at the top of the loop
        let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count < 0 {
            if errno == EINTR || errno == EAGAIN { continue }
            return nil
        }
        if count == 0 {
            endOfFile = true
            return nil
        }
        buffer += chunk[..<count]
    }
}
