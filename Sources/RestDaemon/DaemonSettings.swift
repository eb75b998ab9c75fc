import Glibc
import RestCore
import RestNotify
import RestProtocol

/// Where the daemon keeps its state, which bus it serves, and how it is configured.
public struct DaemonSettings: Sendable {
    /// An explicit bus address (tests); nil means the session bus. Never the system bus.
    public var busAddress: String?
    /// The directory holding `state.sqlite`.
    public var stateDirectory: String
    /// The configuration file, read again on SIGHUP.
    public var configPath: String
    /// Whether the user named `configPath` (`--config`): then it must exist, on reload too.
    public var configMustExist: Bool
    /// The configuration read at start-up.
    public var configuration: RestdConfiguration
    /// The limits the configuration does not set.
    public var limits: TimerLimits
    /// The live limits the configuration does not set (`[live]` sets the rate and staleness).
    public var liveLimits: LiveLimits
    /// The texts of desktop notifications; by default the installed catalog's, in the language
    /// `Localization.start()` found.
    public var messages: Messages

    public init(
        busAddress: String?, stateDirectory: String, configPath: String = ConfigFile.defaultPath(),
        configMustExist: Bool = false,
        configuration: RestdConfiguration = RestdConfiguration(), limits: TimerLimits = .standard,
        liveLimits: LiveLimits = .standard,
        messages: Messages = Messages()
    ) {
        self.busAddress = busAddress
        self.stateDirectory = stateDirectory
        self.configPath = configPath
        self.configMustExist = configMustExist
        self.configuration = configuration
        self.limits = limits
        self.liveLimits = liveLimits
        self.messages = messages
    }

    /// `$XDG_STATE_HOME/restd`, else `~/.local/state/restd`.
    public static func defaultStateDirectory() -> String {
        StateDirectory.defaultPath { getenv($0).map { String(cString: $0) } }
    }

    /// The address of the bus restd serves, as the state's lock file names it: `busAddress`, else
    /// the session bus's as libdbus finds it (`DBUS_SESSION_BUS_ADDRESS`, else
    /// `$XDG_RUNTIME_DIR/bus`); "" when there is neither.
    var busAddressForLock: String {
        if let busAddress { return busAddress }
        func variable(_ name: String) -> String? {
            getenv(name).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        if let session = variable("DBUS_SESSION_BUS_ADDRESS") { return session }
        return variable("XDG_RUNTIME_DIR").map { "unix:path=\($0)/bus" } ?? ""
    }
}

/// Why the daemon could not start or had to stop.
public struct DaemonError: Error, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        case failure
        /// Another restd holds the state directory: starting again will not help until it stops.
        case stateInUse
    }

    public let description: String
    public let reason: Reason

    init(_ description: String, reason: Reason = .failure) {
        self.description = description
        self.reason = reason
    }
}
