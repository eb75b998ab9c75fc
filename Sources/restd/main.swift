import EventLoop
import Glibc
import Localization
import Logging
import RestDaemon

/// restd: the rest-timer daemon. Its life: read the configuration, load state, connect, own the
/// name, announce readiness, serve, stop.
///
/// The command line is read by hand (`RestdCommandLine`): swift-argument-parser would bring
/// FoundationEssentials into a daemon that must stay small and single-threaded.
Localization.start()
let commandLine: RestdCommandLine
do {
    commandLine = try RestdCommandLine(Array(CommandLine.arguments.dropFirst()))
} catch {
    RestLogHandler.writeToStandardError("restd: \(error.description)\n")
    exit(RestdExit.usage)
}

switch commandLine.action {
case .help:
    print(RestdCommandLine.help, terminator: "")
    exit(0)
case .version:
    print(RestdCommandLine.version)
    exit(0)
case .checkConfig:
    exit(checkConfiguration(commandLine.configFile))
case .serve:
    exit(serve(commandLine))
}

/// `--check-config`: problems on stderr and exit 78, or one line on stdout and exit 0.
func checkConfiguration(_ file: RestdCommandLine.ConfigFileChoice) -> Int32 {
    do {
        let (configuration, found) = try ConfigFile.load(path: file.path, mustExist: file.isExplicit)
        for warning in configuration.warnings { RestLogHandler.writeToStandardError("\(warning)\n") }
        print(
            found ? localized("%1$s: ok", file.path) : localized("%1$s: not found; restd uses the defaults", file.path))
        return 0
    } catch {
        RestLogHandler.writeToStandardError(error.description + "\n")
        return RestdExit.configurationProblem
    }
}

/// Runs the daemon until it is told to stop; returns the exit status.
func serve(_ commandLine: RestdCommandLine) -> Int32 {
    RestLogging.bootstrap(level: commandLine.verbose ? .debug : .info)
    let logger = Logger(label: "restd")

    let configuration: RestdConfiguration
    do {
        configuration = try ConfigFile.load(
            path: commandLine.configFile.path,
            mustExist: commandLine.configFile.isExplicit
        ).configuration
    } catch {
        for problem in error.problems { logger.critical("\(problem)") }
        logger.critical(
            .init(
                stringLiteral: localized(
                    "refusing to start with a broken configuration; 'restd --check-config' checks a fix")))
        // Shown by `systemctl --user status restd` after the exit, journal or not.
        ServiceManager.notify("STATUS=" + error.problems.map(\.description).joined(separator: "; "))
        return RestdExit.configurationProblem
    }

    for warning in configuration.warnings { logger.warning("\(warning)") }

    let settings = DaemonSettings(
        busAddress: commandLine.address,
        stateDirectory: commandLine.stateDirectory ?? DaemonSettings.defaultStateDirectory(),
        configPath: commandLine.configFile.path, configMustExist: commandLine.configFile.isExplicit,
        configuration: configuration)
    do {
        let daemon = try Daemon(settings: settings, logger: logger)
        return try daemon.run()
    } catch let error as DaemonError where error.reason == .stateInUse {
        logger.critical("\(error)")
        // Shown by `systemctl --user status restd`, which does not restart it (RestartPreventExitStatus=).
        ServiceManager.notify("STATUS=" + error.description)
        return RestdExit.stateInUse
    } catch {
        logger.critical("\(error)")
        return RestdExit.failure
    }
}
