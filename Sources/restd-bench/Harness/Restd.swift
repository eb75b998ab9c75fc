import Clocks
import Foundation
import Glibc
import ProcessHarness

/// One restd process on a private bus, with its state in a directory of the bench's.
final class RestdProcess {
    let child: ChildProcess
    let logPath: String
    /// Seconds from just before posix_spawn to READY=1 on the notify socket.
    let startupSeconds: Double

    var pid: pid_t { child.pid }

    /// Starts restd and waits until it says READY=1 (it owns its name then).
    /// - systemBus: the system bus restd follows BlueZ on; nil for none (a socket that does not
    ///   exist, so that the machine's own bluetoothd never takes part in a measurement).
    /// - environment: more of restd's environment (a sound server's `clientEnvironment`).
    init(
        binary: String, bus: PrivateBus, stateDirectory: String, work: TempDirectory,
        arguments: [String] = [], systemBus: PrivateBus? = nil, environment: [String: String] = [:],
        timeout: Double = 60
    ) throws {
        let notify = try NotifySocket(path: work.path("notify-\(UInt32.random(in: 0...UInt32.max))"))
        logPath = work.path("restd-\(UInt32.random(in: 0...UInt32.max)).log")
        let log = try openLogFile(logPath)
        defer { close(log) }
        let environment = ChildEnvironment.make(
            environment.merging([
                "NOTIFY_SOCKET": notify.path, "DBUS_SESSION_BUS_ADDRESS": bus.address,
                "DBUS_SYSTEM_BUS_ADDRESS": systemBus?.address ?? "unix:path=" + work.path("no-system-bus"),
            ]) { _, own in own })
        let started = KernelClock.monotonicSeconds
        child = try ChildProcess(
            executable: binary,
            arguments: ["--address", bus.address, "--state-dir", stateDirectory] + arguments,
            environment: environment, stdout: log, stderr: log)
        guard let ready = try? notify.arrival(of: "READY=1", timeout: timeout) else {
            let status = child.wait(timeout: 0.1)?.status
            let what = status.map { "exited (status \($0))" } ?? "did not say READY=1 within \(timeout) s"
            child.stop(grace: 2)
            throw BenchError("restd \(what); its log:\n\(Self.read(logPath))")
        }
        startupSeconds = ready - started
    }

    /// SIGTERM and wait; the exit status.
    @discardableResult
    func stop() -> Int32 { child.stop(grace: 20).status }

    func log() -> String { Self.read(logPath) }

    private static func read(_ path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }
}
