import Foundation
import ProcessHarness
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A bus the tests can reach by address: a `TestBus`, or the session bus of a real systemd user
/// manager (`UserManager.bus`). The helpers that only talk to a bus (`restctl`, `SignalWatcher`,
/// `NotificationServer`, `MockCalls`) take either.
protocol BusEndpoint {
    var address: String { get }
}

extension BusEndpoint {
    /// The program behind org.freedesktop.DBus (its PID as the bus reports it), to tell which
    /// implementation a test really ran on.
    func driverExecutable() -> String? {
        let reply = busctl(
            self, "call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
            "GetConnectionUnixProcessID", "s", "org.freedesktop.DBus")
        guard reply.output.hasPrefix("u "), let pid = Int32(reply.output.dropFirst(2)) else { return nil }
        return try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")
    }
}

/// The integration tests' private session bus, of the kind this run asked for (`BusKind`):
///
/// - dbus-daemon: ProcessHarness's `PrivateBus`, a `dbus-daemon` the test starts itself;
/// - dbus-broker: `dbus-broker-launch`, which runs only as a service of a systemd manager (it
///   logs to the journal and has systemd start every service it activates), as the session bus
///   of a `UserManager` of its own.
///
/// Both read the same configuration (`PrivateBus.configuration`: a permissive policy, high
/// limits, only the service directories asked for), so what differs between the two runs is
/// what the implementations do.
///
///     let bus = try TestBus()
///     let result = busctl(bus, "list")
///
/// `@unchecked Sendable`: nothing changes after `init` but `BrokerEnd`'s value, under its lock;
/// both hosts are safe to use from any thread.
final class TestBus: BusEndpoint, @unchecked Sendable {
    let kind: BusKind
    let address: String
    let socketPath: String
    let configPath: String
    let serviceDirectories: [String]
    private let host: Host

    private enum Host {
        case process(PrivateBus)
        case userManager(UserManager, BrokerEnd)
    }

    /// How the broker's unit ended, once `kill()` has seen it end.
    private final class BrokerEnd: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Termination?
        var termination: Termination? {
            get { lock.withLock { value } }
            set { lock.withLock { value = newValue } }
        }
    }

    /// Starts the bus and waits until it accepts connections.
    ///
    /// - serviceDirectories: where the bus looks for activatable services.
    /// - environment: added to the environment of the services it activates.
    /// - prefix: the start of its temporary directory's name.
    init(serviceDirectories: [String] = [], environment: [String: String] = [:], prefix: String = "restd-bus") throws {
        kind = try BusKind.current()
        self.serviceDirectories = serviceDirectories
        switch kind {
        case .dbusDaemon:
            let bus = try PrivateBus(
                serviceDirectories: serviceDirectories, environment: environment, prefix: prefix)
            address = bus.address
            socketPath = bus.socketPath
            configPath = bus.configPath
            host = .process(bus)
        case .dbusBroker:
            // Activated services are the manager's units, so they get the environment from it.
            let manager = try UserManager(
                installation: .committed, busKind: .dbusBroker,
                busConfiguration: .private(serviceDirectories: serviceDirectories), unitEnvironment: environment,
                prefix: prefix)
            address = manager.bus.address
            socketPath = manager.bus.socketPath
            configPath = manager.busConfigurationPath!
            host = .userManager(manager, BrokerEnd())
            // Socket activation would start it at the first connection; started now, it is ready
            // (Type=notify) and its PID known, as dbus-daemon's is.
            let start = manager.systemctl("start", "dbus.service")
            guard start.succeeded else {
                throw HarnessError.failed(
                    "dbus-broker did not start: \(start)\n\(manager.diagnostics(unit: "dbus.service"))")
            }
            // The manager connects to its bus as soon as the bus is ready. Until it owns its name
            // there, its connection may still wait in the socket's queue: a bus killed then leaves
            // systemd (252) blocked for its 90 s authentication timeout, unable to see the unit end.
            try waitUntil(
                "the user manager to own org.freedesktop.systemd1 on its bus",
                details: { manager.diagnostics(unit: "dbus.service") }
            ) {
                busctl(
                    self, "call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                    "NameHasOwner", "s", "org.freedesktop.systemd1"
                ).output == "b true"
            }
        }
    }

    /// The bus's own process: dbus-daemon, or dbus-broker-launch (the unit's main process, parent
    /// of dbus-broker); 0 once the broker's unit has stopped.
    var pid: Int32 {
        switch host {
        case .process(let bus): bus.pid
        case .userManager(let manager, _): Int32(manager.property("MainPID", of: "dbus.service")) ?? 0
        }
    }

    var isRunning: Bool {
        switch host {
        case .process(let bus): bus.isRunning
        case .userManager(let manager, _): manager.property("ActiveState", of: "dbus.service") == "active"
        }
    }

    /// How the bus ended, nil while it runs (for dbus-broker: known once `kill()` has returned).
    var termination: Termination? {
        switch host {
        case .process(let bus): bus.termination
        case .userManager(_, let end): end.termination
        }
    }

    /// What the bus logged: dbus-daemon's stderr (with that of the services it started), or the
    /// user manager's journal (the broker's, systemd's and every activated unit's messages).
    func log() -> String {
        switch host {
        case .process(let bus): bus.log()
        case .userManager(let manager, _): manager.diagnostics(unit: "dbus.service")
        }
    }

    /// Stops the bus (dbus-daemon: SIGTERM; dbus-broker: its user manager, with every unit it
    /// runs). Idempotent.
    func stop() {
        switch host {
        case .process(let bus): bus.stop()
        case .userManager(let manager, _): manager.stop()
        }
    }

    /// SIGKILL: the bus vanishes at once and its clients see their connections drop. The
    /// broker's socket is closed after it, so that no client starts a new broker on the same
    /// address. Idempotent.
    func kill() {
        switch host {
        case .process(let bus):
            bus.kill()
        case .userManager(let manager, let end):
            guard end.termination == nil else { return }
            manager.systemctl("kill", "--signal=SIGKILL", "dbus.service")
            var unit: [String: String] = [:]
            do {
                try waitUntil("dbus.service to end after SIGKILL", details: { "\(unit)" }) {
                    unit = manager.properties(["ActiveState", "ExecMainCode", "ExecMainStatus"], of: "dbus.service")
                    return unit["ActiveState"] == "failed" || unit["ActiveState"] == "inactive"
                }
            } catch {
                Issue.record("\(error)\n\(manager.diagnostics(unit: "dbus.service"))")
            }
            manager.systemctl("stop", "dbus.socket")
            end.termination = Termination(code: unit["ExecMainCode"], status: unit["ExecMainStatus"])
        }
    }
}

extension Termination {
    /// From systemd's ExecMainCode= (CLD_EXITED 1, CLD_KILLED 2, CLD_DUMPED 3) and ExecMainStatus=.
    init?(code: String?, status: String?) {
        guard let code = code.flatMap({ Int32($0) }), let status = status.flatMap({ Int32($0) }) else { return nil }
        switch code {
        case 1: self = .exited(status)
        case 2, 3: self = .signaled(status)
        default: return nil
        }
    }
}
