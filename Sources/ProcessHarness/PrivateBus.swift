import DBusKit
import Foundation
import Glibc

/// A private `dbus-daemon` of session type, with its own minimal configuration in a fresh
/// temporary directory: it listens on `DIR/bus`, lets everyone send, receive, own and
/// eavesdrop, and knows only the service directories the caller names (none by default),
/// so nothing gets activated behind a test's or benchmark's back and nothing is written
/// into the home directory.
///
/// The daemon is stopped by `stop()` or, at the latest, when the object goes away.
/// `kill()` kills it hard, for tests of the bus dying under restd.
///
/// `@unchecked Sendable`: every stored property is immutable after `init`, the process
/// state is handled by `ChildProcess` under its lock, and `stop()` / `kill()` are
/// idempotent and safe to call from any thread.
public final class PrivateBus: @unchecked Sendable {
    /// The address clients use (`unix:path=…,guid=…`), as printed by dbus-daemon.
    public let address: String
    /// The temporary directory holding the socket, the configuration and the log.
    public let directory: TempDirectory
    public let socketPath: String
    public let configPath: String
    public let logPath: String
    public let serviceDirectories: [String]

    private let child: ChildProcess
    /// Read end of dbus-daemon's stdout (where it printed its address); kept open for the
    /// daemon's lifetime so that it never writes into a closed pipe.
    private let addressPipe: Int32

    /// Starts the bus and waits (up to `timeout` seconds) until it accepts connections.
    ///
    /// - serviceDirectories: `<servicedir>` entries, for D-Bus activation.
    /// - environment: added to the daemon's environment, and therefore to the environment
    ///   of every service it activates (e.g. `XDG_STATE_HOME`).
    /// - prefix: the start of the temporary directory's name.
    public init(
        serviceDirectories: [String] = [], environment: [String: String] = [:],
        timeout: Double = 30, prefix: String = "restd-bus"
    ) throws {
        let directory = try TempDirectory(prefix: prefix)
        let socketPath = directory.path("bus")
        let configPath = directory.path("bus.conf")
        let logPath = directory.path("bus.log")
        try PrivateBus.configuration(socketPath: socketPath, serviceDirectories: serviceDirectories)
            .write(toFile: configPath, atomically: true, encoding: .utf8)

        guard let daemon = ChildEnvironment.which("dbus-daemon") ?? ChildEnvironment.which("/usr/bin/dbus-daemon")
        else {
            throw ProcessHarnessError(
                "dbus-daemon not found in PATH (Debian package dbus-daemon; 'make deps' installs it)")
        }
        let log = try openLogFile(logPath)
        defer { close(log) }
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw ProcessHarnessError.system("pipe", errno) }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        let child: ChildProcess
        do {
            child = try ChildProcess(
                executable: daemon,
                arguments: ["--config-file=\(configPath)", "--nofork", "--nopidfile", "--print-address=1"],
                environment: ChildEnvironment.make(environment),
                stdout: fds[1], stderr: log)
        } catch {
            close(fds[0])
            close(fds[1])
            throw error
        }
        close(fds[1])  // so that the read end sees end-of-file if the daemon dies

        var endOfFile = false
        let line = readLine(from: fds[0], timeout: timeout, endOfFile: &endOfFile)
        guard let address = line, !address.isEmpty else {
            close(fds[0])
            let what: String
            if endOfFile, let termination = child.wait(timeout: 10) {
                what = "dbus-daemon \(termination) without printing its address"
            } else {
                what = "dbus-daemon printed no address within \(timeout) s (killed)"
            }
            child.killAndReap()
            let daemonLog = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            throw ProcessHarnessError("\(what); its log:\n\(daemonLog)")
        }
        self.address = address
        self.directory = directory
        self.socketPath = socketPath
        self.configPath = configPath
        self.logPath = logPath
        self.serviceDirectories = serviceDirectories
        self.child = child
        self.addressPipe = fds[0]
    }

    public var pid: Int32 { child.pid }
    public var isRunning: Bool { child.isRunning }
    /// How the daemon ended, nil while it runs.
    public var termination: Termination? { child.termination }

    /// The daemon's stderr so far (activation messages, warnings).
    public func log() -> String {
        (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    }

    /// SIGTERM, then SIGKILL if it takes longer than 10 s; reaps the daemon. Idempotent.
    public func stop() {
        child.stop(grace: 10)
    }

    /// SIGKILL and reap: the bus vanishes at once and clients see their connection drop.
    /// Idempotent.
    public func kill() {
        child.killAndReap()
    }

    deinit {
        stop()
        close(addressPipe)
    }

    /// The stock session bus's limits: room for thousands of calls in flight.
    private static let busLimits: KeyValuePairs<String, Int> = [
        "max_incoming_bytes": 1_000_000_000,
        "max_outgoing_bytes": 1_000_000_000,
        "max_message_size": 1_000_000_000,
        "service_start_timeout": 120_000,
        "auth_timeout": 240_000,
        "max_completed_connections": 100_000,
        "max_incomplete_connections": 10_000,
        "max_connections_per_user": 100_000,
        "max_pending_service_starts": 10_000,
        "max_names_per_connection": 50_000,
        "max_match_rules_per_connection": 50_000,
        "max_replies_per_connection": 50_000,
    ]

    /// The configuration file's text.
    public static func configuration(socketPath: String, serviceDirectories: [String]) -> String {
        let serviceDirs =
            serviceDirectories
            .map { "  <servicedir>\(XMLText.escaped($0))</servicedir>\n" }
            .joined()
        let limits = busLimits.map { "  <limit name=\"\($0.key)\">\($0.value)</limit>\n" }.joined()
        return """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <!-- Private bus for restd's integration tests and benchmark. -->
            <busconfig>
              <type>session</type>
              <listen>\(XMLText.escaped("unix:path=" + dbusAddressEscaped(socketPath)))</listen>
              <auth>EXTERNAL</auth>
            \(serviceDirs)  <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow receive_sender="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
              <!-- Same limits as the stock session bus, and room for thousands of calls in flight. -->
            \(limits)</busconfig>

            """
    }
}

/// D-Bus address value escaping: bytes outside `[-0-9A-Za-z_/.\*]` become `%XX`.
func dbusAddressEscaped(_ value: String) -> String {
    var out = ""
    for byte in value.utf8 {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"),
            UInt8(ascii: "/"), UInt8(ascii: "."), UInt8(ascii: "\\"), UInt8(ascii: "*"):
            out.unicodeScalars.append(Unicode.Scalar(byte))
        default:
            out += String(format: "%%%02x", byte)
        }
    }
    return out
}
