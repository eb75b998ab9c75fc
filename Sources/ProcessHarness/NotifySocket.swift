import Clocks
import Foundation
import Glibc

/// A stand-in for systemd's notification socket: a datagram socket whose path goes into a
/// service's `NOTIFY_SOCKET`, collecting what it sends with sd_notify (READY=1, STATUS=…,
/// WATCHDOG=1, RELOADING=1, STOPPING=1), so callers wait for those messages instead of
/// sleeping. Each datagram keeps the CLOCK_MONOTONIC time it was read, for the benchmark's
/// start-up time. Used from one thread.
public final class NotifySocket {
    public let path: String
    /// The directory the socket was made in by `init()`; nil when the caller chose the path.
    private let directory: TempDirectory?
    private let fd: Int32
    /// Every datagram so far, in arrival order, with the CLOCK_MONOTONIC second it was read.
    private var received: [(text: String, at: Double)] = []
    /// Every line so far, with the index of its datagram in `received`.
    private var receivedLines: [(line: String, datagram: Int)] = []
    /// How many lines the waits have consumed: each wait looks only after the last match.
    private var cursor = 0

    /// A socket in a temporary directory of its own.
    public convenience init() throws {
        let directory = try TempDirectory(prefix: "restd-notify")
        try self.init(path: directory.path("notify"), directory: directory)
    }

    /// A socket at `path` (which must not exist yet); unlinked when the object goes away.
    public convenience init(path: String) throws {
        try self.init(path: path, directory: nil)
    }

    private init(path: String, directory: TempDirectory?) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ProcessHarnessError.system("socket(AF_UNIX, SOCK_DGRAM)", errno) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            throw ProcessHarnessError("notify socket path too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw ProcessHarnessError.system("bind \(path)", code)
        }
        self.fd = fd
        self.path = path
        self.directory = directory
    }

    deinit {
        close(fd)
        unlink(path)
    }

    /// The environment a service needs to report here.
    public var environment: [String: String] { ["NOTIFY_SOCKET": path] }

    /// Every datagram received, in order.
    public var messages: [String] { received.map(\.text) }

    /// Every `NAME=value` line received, in order ("READY=1", "STATUS=…").
    public var lines: [String] { receivedLines.map(\.line) }

    /// Waits for the next line, after the one the previous wait matched, that satisfies
    /// `predicate`; returns it. Lines already received count.
    @discardableResult
    public func waitFor(_ description: String, timeout: Double = 30, where predicate: (String) -> Bool) throws -> String
    {
        try next(description, timeout: timeout, where: predicate).line
    }

    /// Waits for a line equal to `line` ("READY=1").
    @discardableResult
    public func waitFor(line: String, timeout: Double = 30) throws -> String {
        try waitFor(line, timeout: timeout) { $0 == line }
    }

    /// Waits like `waitFor(line:)`; the CLOCK_MONOTONIC second the datagram holding the line
    /// was read.
    public func arrival(of line: String, timeout: Double = 30) throws -> Double {
        try next(line, timeout: timeout) { $0 == line }.at
    }

    private func next(
        _ description: String, timeout: Double,
        where predicate: (String) -> Bool
    ) throws -> (line: String, at: Double) {
        let deadline = Deadline(secondsFromNow: timeout)
        while true {
            while cursor < receivedLines.count {
                let (line, datagram) = receivedLines[cursor]
                cursor += 1
                if predicate(line) { return (line, received[datagram].at) }
            }
            let remaining = deadline.remaining
            guard remaining > 0 else {
                throw ProcessHarnessError("waiting for \(description) on NOTIFY_SOCKET; received: \(messages)")
            }
            receive(timeout: remaining)
        }
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
            let now = KernelClock.monotonicSeconds
            let text = String(decoding: buffer[..<count], as: UTF8.self)
            received.append((text, now))
            receivedLines += text.split(separator: "\n").map { (String($0), received.count - 1) }
        }
    }
}
