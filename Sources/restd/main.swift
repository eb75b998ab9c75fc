import ArgumentParser
import Logging
import RestDaemon

/// restd: the rest-timer daemon. Its life: load state, connect, own the name, serve, stop.
struct Restd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restd",
        abstract: "Rest timers on the D-Bus session bus.",
        discussion: "Keeps wall-clock rest timers that survive restarts, and serves them as io.restd.Rest1.",
        version: "0.1.0")

    @Option(name: .long, help: ArgumentHelp("Serve this bus address instead of the session bus.", valueName: "address"))
    var address: String?

    @Option(name: .long, help: ArgumentHelp("Keep state here instead of $XDG_STATE_HOME/restd.", valueName: "directory"))
    var stateDir: String?

    @Flag(name: .long, help: "Log debug messages.")
    var verbose = false

    func run() throws {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .info
            return handler
        }
        var logger = Logger(label: "restd")
        logger.logLevel = verbose ? .debug : .info

        let settings = DaemonSettings(busAddress: address, stateDirectory: stateDir ?? DaemonSettings.defaultStateDirectory())
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
}

Restd.main()
