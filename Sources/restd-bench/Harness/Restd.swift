import Foundation
import Glibc

/// The receiving end of `NOTIFY_SOCKET`: a unix datagram socket on which restd's
/// sd_notify("READY=1") arrives, as it would at systemd.
final class NotifySocket {
    let path: String
    private let fd: Int32

    init(path: String) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw BenchError.system("cannot create the notify socket") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            throw BenchError("notify socket path too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else {
            let code = errno
            close(fd)
            throw BenchError.system("cannot bind \(path)", code)
        }
        self.fd = fd
        self.path = path
    }

    deinit {
        close(fd)
        unlink(path)
    }

    /// Waits for a datagram holding the line READY=1; the CLOCK_MONOTONIC time it was read,
    /// nil after `timeout` seconds.
    func waitReady(timeout: Double) -> Double? {
        let deadline = Clock.monotonic + timeout
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let remaining = deadline - Clock.monotonic
            if remaining <= 0 { return nil }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = Glibc.poll(&pfd, 1, Int32(remaining * 1000) + 1)
            if ready <= 0 { continue }
            let count = recv(fd, &buffer, buffer.count, 0)
            let now = Clock.monotonic
            guard count > 0 else { continue }
            let text = String(decoding: buffer[..<count], as: UTF8.self)
            if text.split(separator: "\n").contains("READY=1") { return now }
        }
    }
}

/// One restd process on a private bus, with its state in a directory of the bench's.
final class RestdProcess {
    let child: Child
    let logPath: String
    /// Seconds from just before posix_spawn to READY=1 on the notify socket.
    let startupSeconds: Double

    var pid: pid_t { child.pid }

    /// Starts restd and waits until it says READY=1 (it owns its name then).
    init(binary: String, bus: PrivateBus, stateDirectory: String, work: TempDirectory,
         arguments: [String] = [], timeout: Double = 60) throws {
        let notify = try NotifySocket(path: work.file("notify-\(UInt32.random(in: 0...UInt32.max))"))
        logPath = work.file("restd-\(UInt32.random(in: 0...UInt32.max)).log")
        let log = try openLog(logPath)
        defer { close(log) }
        let environment = childEnvironment(["NOTIFY_SOCKET": notify.path, "DBUS_SESSION_BUS_ADDRESS": bus.address])
        let started = Clock.monotonic
        child = try Child(binary, ["--address", bus.address, "--state-dir", stateDirectory] + arguments,
                          environment: environment, stdout: log, stderr: log)
        guard let ready = notify.waitReady(timeout: timeout) else {
            let status = child.wait(timeout: 0.1)
            let what = status.map { "exited (status \($0))" } ?? "did not say READY=1 within \(timeout) s"
            child.stop(grace: 2)
            throw BenchError("restd \(what); its log:\n\(Self.read(logPath))")
        }
        startupSeconds = ready - started
    }

    /// SIGTERM and wait; the exit status.
    @discardableResult
    func stop() -> Int32 { child.stop(grace: 20) }

    func log() -> String { Self.read(logPath) }

    private static func read(_ path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }
}
