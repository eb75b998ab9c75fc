import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A stand-in for systemd's notification socket: a datagram socket whose path goes into a
/// service's `NOTIFY_SOCKET`, collecting what it sends with sd_notify (READY=1, STATUS=…,
/// WATCHDOG=1, RELOADING=1, STOPPING=1), so tests wait for those messages instead of sleeping.
final class NotifySocket {
    let path: String
    private let directory: TempDirectory
    private let fd: Int32
    /// Every datagram so far, in arrival order.
    private(set) var messages: [String] = []
    /// How many lines `waitFor` has consumed: each wait looks only after the last match.
    private var cursor = 0

    init() throws {
        directory = try TempDirectory(prefix: "restd-notify")
        path = directory.path("notify")
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HarnessError.system("socket(AF_UNIX, SOCK_DGRAM)", errno) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            throw HarnessError.failed("notify socket path too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw HarnessError.system("bind \(path)", code)
        }
    }

    deinit { close(fd) }

    /// The environment a service needs to report here.
    var environment: [String: String] { ["NOTIFY_SOCKET": path] }

    /// Every `NAME=value` line received, in order ("READY=1", "STATUS=…").
    var lines: [String] {
        messages.flatMap { $0.split(separator: "\n").map(String.init) }
    }

    /// Waits for the next line, after the one the previous wait matched, that satisfies
    /// `predicate`; returns it. Lines already received count.
    @discardableResult
    func waitFor(_ description: String, timeout: Double = 30, where predicate: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let all = lines
            while cursor < all.count {
                let line = all[cursor]
                cursor += 1
                if predicate(line) { return line }
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else {
                throw HarnessError.timedOut("waiting for \(description) on NOTIFY_SOCKET; received: \(messages)")
            }
            receive(timeout: remaining)
        }
    }

    /// Waits for a line equal to `line` ("READY=1").
    @discardableResult
    func waitFor(line: String, timeout: Double = 30) throws -> String {
        try waitFor(line, timeout: timeout) { $0 == line }
    }

    /// Reads the datagrams that arrive within `timeout` seconds (at least one, unless it times out).
    private func receive(timeout: Double) {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&pfd, 1, Int32(min(timeout * 1000 + 1, 3_600_000)))
        guard ready > 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count < 0 { return }
            messages.append(String(decoding: buffer[..<count], as: UTF8.self))
        }
    }
}
