import Foundation
import Glibc

/// A real sound server of the kind a desktop runs, private to one test or benchmark: PipeWire
/// with WirePlumber and pipewire-pulse (Debian's packages), or PulseAudio, on a private runtime
/// directory, with a null sink `rack` as the default output, whose monitor `record()` captures —
/// what a person at the speakers would hear.
///
/// WirePlumber links streams only with a session bus: the server uses the bus given, else a
/// private one of its own. `kill()` makes the server vanish (SIGKILL) and `start()` brings it
/// back on the same socket, for clients that must survive both.
///
/// `@unchecked Sendable`: `processes` is only touched under `lock`.
public final class AudioServer: @unchecked Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        /// PipeWire, WirePlumber and pipewire-pulse: what Debian 12's and most desktops run.
        case pipewire
        /// PulseAudio's own daemon, with only the native protocol and a null sink.
        case pulseaudio
    }

    public static let sinkName = "rack"
    public let kind: Kind
    /// `XDG_RUNTIME_DIR` of the server (mode 0700): its sockets are here.
    public let runtimeDirectory: String
    /// HOME, XDG_STATE_HOME and the logs, so that nothing is written into the real home.
    public let directory: TempDirectory
    public let busAddress: String
    private let ownBus: PrivateBus?
    private let lock = NSLock()
    private var processes: [ChildProcess] = []

    /// Starts the server and waits (up to `timeout` s) until its null sink is the default.
    public init(_ kind: Kind, busAddress: String? = nil, timeout: Double = 30) throws {
        self.kind = kind
        directory = try TempDirectory(prefix: "restd-audio")
        runtimeDirectory = try directory.subdirectory("run")
        chmod(runtimeDirectory, 0o700)
        if let busAddress {
            ownBus = nil
            self.busAddress = busAddress
        } else {
            let bus = try PrivateBus(prefix: "restd-audio-bus")
            ownBus = bus
            self.busAddress = bus.address
        }
        try start(timeout: timeout)
    }

    deinit { stop() }

    /// Where PulseAudio clients connect: `PULSE_SERVER` for restd and the tools.
    public var pulseServer: String { "unix:\(socketPath)" }
    public var socketPath: String { "\(runtimeDirectory)/pulse/native" }

    /// What a client of this server needs in its environment.
    public var clientEnvironment: [String: String] {
        ["PULSE_SERVER": pulseServer, "XDG_RUNTIME_DIR": runtimeDirectory, "PULSE_CLIENTCONFIG": "/dev/null"]
    }

    private var serverEnvironment: [String: String] {
        ChildEnvironment.make([
            "XDG_RUNTIME_DIR": runtimeDirectory, "DBUS_SESSION_BUS_ADDRESS": busAddress,
            "HOME": directory.path, "XDG_STATE_HOME": directory.path("state"),
            "XDG_CONFIG_HOME": directory.path("config"), "PULSE_SERVER": pulseServer,
            "PULSE_CLIENTCONFIG": "/dev/null",
            // No real-time scheduling through rtkit (absent here): plain threads are enough.
            "PIPEWIRE_NO_RT": "1",
        ])
    }

    /// Whether the server's processes run.
    public var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        return !processes.isEmpty && processes.allSatisfy(\.isRunning)
    }

    /// Starts the server (again, after `kill()`), with its null sink as the default.
    public func start(timeout: Double = 30) throws {
        let deadline = Deadline(secondsFromNow: timeout)
        unlink(socketPath)
        switch kind {
        case .pipewire:
            let pipewire = try launch("pipewire")
            try waitForFile("\(runtimeDirectory)/pipewire-0", deadline: deadline, process: pipewire)
            _ = try launch("wireplumber")
            let pulse = try launch("pipewire-pulse")
            try waitForFile(socketPath, deadline: deadline, process: pulse)
            // pipewire-pulse answers before WirePlumber has settled: retried until it loads.
            try retry(deadline: deadline) {
                try Self.pactl(
                    ["load-module", "module-null-sink", "sink_name=\(Self.sinkName)"], environment: self.tools)
            }
        case .pulseaudio:
            let script = try directory.write(
                "default.pa",
                """
                load-module module-native-protocol-unix auth-anonymous=1 socket=\(socketPath)
                load-module module-null-sink sink_name=\(Self.sinkName)

                """)
            try FileManager.default.createDirectory(
                atPath: "\(runtimeDirectory)/pulse", withIntermediateDirectories: true)
            // -n: none of the machine's default.pa; only the native protocol and the null sink.
            let daemon = try launch(
                try PulseAudioDaemon.path(),
                [
                    "-n", "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no", "--log-target=stderr",
                    "--realtime=no", "--high-priority=no", "--dl-search-path=\(try PulseAudioDaemon.modules())",
                    "-F", script,
                ], environment: try PulseAudioDaemon.environment())
            try waitForFile(socketPath, deadline: deadline, process: daemon)
        }
        try retry(deadline: deadline) {
            try Self.pactl(["set-default-sink", Self.sinkName], environment: self.tools)
        }
    }

    /// SIGKILL every process of the server: clients see their connection drop at once.
    public func kill() {
        lock.lock()
        let all = processes
        processes.removeAll()
        lock.unlock()
        for process in all.reversed() { _ = process.killAndReap() }
    }

    /// Stops the server (SIGTERM), and its own bus.
    public func stop() {
        lock.lock()
        let all = processes
        processes.removeAll()
        lock.unlock()
        for process in all.reversed() { _ = process.stop(grace: 5) }
        ownBus?.stop()
    }

    /// The server's logs so far, for a failing test's message.
    public func logs() -> String {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".log") }.sorted().map { name in
            "--- \(name)\n" + ((try? String(contentsOfFile: directory.path(name), encoding: .utf8)) ?? "")
        }.joined(separator: "\n")
    }

    /// Starts recording the null sink's monitor; returns once the recording has begun.
    public func record(timeout: Double = 10) throws -> Recording {
        let recording = try Recording(source: "\(Self.sinkName).monitor", environment: tools)
        try recording.waitForFirstPiece(timeout: timeout)
        return recording
    }

    /// The environment of the tools the harness runs against this server (pactl, parec).
    public var tools: [String: String] { ChildEnvironment.make(clientEnvironment) }

    /// Runs `pactl` with `arguments`; its output, or an error with what it said.
    @discardableResult
    public static func pactl(_ arguments: [String], environment: [String: String]) throws -> String {
        guard let pactl = ChildEnvironment.which("pactl") else {
            throw ProcessHarnessError("pactl not found (Debian package pulseaudio-utils; 'make test' installs it)")
        }
        let output = try TempDirectory(prefix: "restd-pactl")
        let log = try openLogFile(output.path("out"))
        defer { close(log) }
        let child = try ChildProcess(
            executable: pactl, arguments: arguments, environment: environment, stdout: log, stderr: log)
        guard let end = child.wait(timeout: 10) else {
            _ = child.killAndReap()
            throw ProcessHarnessError("pactl \(arguments.joined(separator: " ")) took more than 10 s")
        }
        let text = (try? String(contentsOfFile: output.path("out"), encoding: .utf8)) ?? ""
        guard end == .exited(0) else {
            throw ProcessHarnessError("pactl \(arguments.joined(separator: " ")) \(end): \(text)")
        }
        return text
    }

    private func launch(
        _ program: String, _ arguments: [String] = [], environment: [String: String] = [:]
    ) throws -> ChildProcess {
        guard let path = ChildEnvironment.which(program) else {
            throw ProcessHarnessError("\(program) not found (Debian packages pipewire, wireplumber, pipewire-pulse)")
        }
        let log = try openLogFile(directory.path("\((program as NSString).lastPathComponent).log"))
        defer { close(log) }
        let child = try ChildProcess(
            executable: path, arguments: arguments,
            environment: serverEnvironment.merging(environment) { _, new in new }, stdout: log, stderr: log)
        lock.lock()
        processes.append(child)
        lock.unlock()
        return child
    }

    private func waitForFile(_ path: String, deadline: Deadline, process: ChildProcess) throws {
        while access(path, F_OK) != 0 {
            if let end = process.termination {
                throw ProcessHarnessError("\(process.executable) \(end) before \(path) appeared:\n\(logs())")
            }
            if deadline.hasPassed {
                throw ProcessHarnessError("\(path) did not appear in time:\n\(logs())")
            }
            // The socket appears with no event to wait on from here: a short poll.
            usleep(10_000)
        }
    }

    private func retry(deadline: Deadline, _ work: () throws -> Void) throws {
        while true {
            do {
                try work()
                return
            } catch {
                if deadline.hasPassed { throw ProcessHarnessError("\(error)\n\(logs())") }
                usleep(50_000)
            }
        }
    }
}
