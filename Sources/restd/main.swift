import ArgumentParser
import Glibc
import Logging
import RestDaemon

/// restd: the rest-timer daemon. Its life: read the configuration, load state, connect, own the
/// name, announce readiness, serve, stop.
struct Restd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restd",
        abstract: "Rest timers on the D-Bus session bus.",
        discussion: """
            Keeps wall-clock rest timers that survive restarts, and serves them as io.restd.Rest1. \
            It reads $XDG_CONFIG_HOME/restd/config.toml (else ~/.config/restd/config.toml) at start-up \
            and again on SIGHUP, and stops cleanly on SIGTERM or SIGINT.

            Exit status: 0 after SIGTERM or SIGINT, or when --check-config finds the file good; \
            78 when the configuration file has a problem; 1 for any other failure, losing the bus \
            included.
            """,
        version: "0.1.0")

    /// EX_CONFIG: the unit's RestartPreventExitStatus= keeps systemd from retrying a broken file.
    static let configurationProblem: Int32 = 78

    @Option(name: .long, help: ArgumentHelp("Serve this bus address instead of the session bus.", valueName: "address"))
    var address: String?

    @Option(name: .long, help: ArgumentHelp("Keep state here instead of $XDG_STATE_HOME/restd.", valueName: "directory"))
    var stateDir: String?

    @Option(name: .long, help: ArgumentHelp("Read this configuration file instead of $XDG_CONFIG_HOME/restd/config.toml.",
                                            valueName: "file"))
    var config: String?

    @Flag(name: .long, help: "Check the configuration file, print what is wrong with it, and exit.")
    var checkConfig = false

    @Flag(name: .long, help: "Log debug messages.")
    var verbose = false

    func run() throws {
        let configPath = config ?? ConfigFile.defaultPath()
        if checkConfig { try Self.check(configPath) }

        RestLogging.bootstrap(level: verbose ? .debug : .info)
        let logger = Logger(label: "restd")

        let configuration: RestdConfiguration
        do {
            configuration = try ConfigFile.load(path: configPath).configuration
        } catch {
            for problem in error.problems { logger.critical("\(problem)") }
            // Shown by `systemctl --user status restd` after the exit, journal or not.
            ServiceManager.notify("STATUS=" + error.problems.map(\.description).joined(separator: "; "))
            logger.critical("refusing to start with a broken configuration; `restd --check-config` checks a fix")
            throw ExitCode(Self.configurationProblem)
        }

        let settings = DaemonSettings(busAddress: address, stateDirectory: stateDir ?? DaemonSettings.defaultStateDirectory(),
                                      configPath: configPath, configuration: configuration)
        let status: Int32
        do {
            let daemon = try Daemon(settings: settings, logger: logger)
            status = try daemon.run()
        } catch {
            logger.critical("\(error)")
            throw ExitCode.failure
        }
        if status != 0 { throw ExitCode(status) }
    }

    /// `--check-config`: problems on stderr and exit 78, or one line on stdout and exit 0.
    static func check(_ path: String) throws -> Never {
        do {
            let (_, found) = try ConfigFile.load(path: path)
            print(found ? "\(path): ok" : "\(path): not found; restd uses the defaults")
            fflush(nil)
            throw ExitCode.success
        } catch let error as ConfigError {
            RestLogHandler.writeToStandardError(error.description + "\n")
            throw ExitCode(configurationProblem)
        }
    }
}

Restd.main()
