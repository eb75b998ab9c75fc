import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The message bus the integration tests run on: the reference `dbus-daemon` (Debian's and
/// Ubuntu's session bus) or `dbus-broker` (Fedora's and Arch's). One run uses one kind, chosen
/// by `RESTD_TEST_BUS` (`dbus-daemon` when unset); `make test` runs the bus suites once on each.
/// `TestBus` and `UserManager` read it here and nowhere else, so the same test bodies run on both.
enum BusKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case dbusDaemon = "dbus-daemon"
    case dbusBroker = "dbus-broker"

    static let variable = "RESTD_TEST_BUS"

    /// The kind this run asked for, or why its `RESTD_TEST_BUS` names none.
    static let requested: Result<BusKind, HarnessError> = {
        let value = ProcessInfo.processInfo.environment[variable] ?? ""
        if value.isEmpty { return .success(.dbusDaemon) }
        guard let kind = BusKind(rawValue: value) else {
            let known = allCases.map(\.rawValue).joined(separator: " or ")
            return .failure(.failed("\(variable)=\(value) names no bus this harness can start: use \(known)"))
        }
        return .success(kind)
    }()

    /// The kind of this run; throws (so that every test on a bus fails, loudly) when
    /// `RESTD_TEST_BUS` names no known bus.
    static func current() throws -> BusKind { try requested.get() }

    var description: String { rawValue }

    /// The user unit that runs this bus under a systemd user manager, as the Debian package
    /// installs it (dbus-user-session's dbus.service, dbus-broker's dbus-broker.service).
    var packagedUnit: String {
        switch self {
        case .dbusDaemon: "/usr/lib/systemd/user/dbus.service"
        case .dbusBroker: "/usr/lib/systemd/user/dbus-broker.service"
        }
    }

    /// The Debian package that brings `packagedUnit`.
    var package: String {
        switch self {
        case .dbusDaemon: "dbus-user-session"
        case .dbusBroker: "dbus-broker"
        }
    }

    /// The program that unit starts.
    var executable: String {
        switch self {
        case .dbusDaemon: "/usr/bin/dbus-daemon"
        case .dbusBroker: "/usr/bin/dbus-broker-launch"
        }
    }

    /// The unit's command line reading `configuration` instead of the stock session.conf.
    func command(configuration: String) -> String {
        switch self {
        case .dbusDaemon:
            "\(executable) --session --config-file=\(configuration) --address=systemd: --nofork --nopidfile"
                + " --systemd-activation --syslog-only"
        case .dbusBroker:
            "\(executable) --scope user --config-file=\(configuration)"
        }
    }

    /// Why this bus cannot run under a user manager here (its package is missing), or nil.
    var missingReason: String? {
        for path in [packagedUnit, executable] where access(path, F_OK) != 0 {
            return "\(path) not found (Debian package \(package); 'make test' installs it)"
        }
        return nil
    }
}
