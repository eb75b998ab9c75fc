import Clocks
import EventLoop
import Glibc
import Localization
import Logging
import RestCore

/// SIGHUP and the Manager's Reload: read the configuration file again and put a good one into
/// force at once (every key applies on reload). A file with problems is logged and changes nothing.
final class ConfigurationReloader {
    /// The configuration in force: the start-up one, or the last one a reload accepted.
    private(set) var configuration: RestdConfiguration
    private let path: String
    private let mustExist: Bool
    private let logger: Logger
    private let status: StatusReporter
    /// Told, in order, of the old and the new configuration after a reload changed it.
    var listeners: [(_ old: RestdConfiguration, _ new: RestdConfiguration) -> Void] = []

    init(configuration: RestdConfiguration, path: String, mustExist: Bool, status: StatusReporter, logger: Logger) {
        self.configuration = configuration
        self.path = path
        self.mustExist = mustExist
        self.status = status
        self.logger = logger
    }

    /// The keys whose values changed (none: nothing did); a file with problems throws them,
    /// and the configuration in force stays.
    @discardableResult
    func reload() throws(ConfigError) -> [String] {
        ServiceManager.notify("RELOADING=1\nMONOTONIC_USEC=\(KernelClock.usec(CLOCK_MONOTONIC))")
        defer { status.announceReady() }
        let loaded: (configuration: RestdConfiguration, found: Bool)
        do {
            loaded = try ConfigFile.load(path: path, mustExist: mustExist)
        } catch {
            for problem in error.problems { logger.error("\(problem)") }
            logger.error("\(Self.notReloaded)")
            throw error
        }
        let old = configuration
        let new = loaded.configuration
        for warning in new.warnings { logger.warning("\(warning)") }
        let changed = ConfigKey.changedKeys(from: old, to: new)
        guard !changed.isEmpty else {
            logger.info(
                .init(
                    stringLiteral: loaded.found
                        ? localized("reloaded the configuration from %1$s; nothing changed", path)
                        : localized(
                            "reloaded the configuration: %1$s does not exist, so the defaults apply; nothing changed",
                            path)))
            return []
        }
        configuration = new
        for listener in listeners { listener(old, new) }
        let keys = changed.joined(separator: ", ")
        logger.info(
            .init(
                stringLiteral: loaded.found
                    ? localized("reloaded the configuration from %1$s; changed: %2$s", path, keys)
                    : localized(
                        "reloaded the configuration: %1$s does not exist, so the defaults apply; changed: %2$s", path,
                        keys)))
        return changed
    }

    /// What follows a refused file's problems, in the journal and in the Manager's Reload error.
    static var notReloaded: String {
        localized("the configuration was not reloaded; the previous one stays in force")
    }
}
