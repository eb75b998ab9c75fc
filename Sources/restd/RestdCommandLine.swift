import Localization
import RestCore
import RestDaemon
import RestProtocol

/// restd's exit statuses (sysexits.h where one fits).
enum RestdExit {
    static let failure: Int32 = 1
    /// EX_USAGE: an unknown option or a missing value.
    static let usage: Int32 = 64
    /// EX_TEMPFAIL: another restd holds the state directory; the unit's RestartPreventExitStatus=
    /// keeps systemd from retrying while it does.
    static let stateInUse = StateDirectory.inUseExitStatus
    /// EX_CONFIG: the unit's RestartPreventExitStatus= keeps systemd from retrying a broken file.
    static let configurationProblem: Int32 = 78
}

/// restd's options, read from its arguments.
struct RestdCommandLine {
    enum Action: Equatable { case serve, checkConfig, help, version }

    /// The configuration file, and whether the user named it: only the default may be absent.
    struct ConfigFileChoice {
        let path: String
        let isExplicit: Bool
    }

    var action = Action.serve
    var address: String?
    var stateDirectory: String?
    var configFile = ConfigFileChoice(path: ConfigFile.defaultPath(), isExplicit: false)
    var verbose = false

    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    init(_ arguments: [String]) throws(UsageError) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            // --name=value and --name value are both accepted, as GNU tools do.
            let (name, inlineValue) = Self.split(argument)
            func value() throws(UsageError) -> String {
                if let inlineValue { return inlineValue }
                guard let next = rest.popFirst() else {
                    throw UsageError(description: localized("%1$s needs a value; see %2$s", name, Self.seeHelp))
                }
                return next
            }
            switch name {
            case "--address": address = try value()
            case "--state-dir": stateDirectory = try value()
            case "--config":
                let path = try value()
                guard !path.isEmpty else {
                    throw UsageError(description: localized("--config needs a file name, not an empty one"))
                }
                configFile = ConfigFileChoice(path: path, isExplicit: true)
            case "--check-config", "--verbose", "--help", "-h", "--version":
                guard inlineValue == nil else {
                    throw UsageError(description: localized("%1$s takes no value; see %2$s", name, Self.seeHelp))
                }
                switch name {
                case "--check-config": action = .checkConfig
                case "--verbose": verbose = true
                case "--version": if action == .serve { action = .version }
                default: action = .help
                }
            default:
                guard name.hasPrefix("-") else {
                    throw UsageError(
                        description: localized(
                            "unexpected argument %1$s; restd takes only options; see %2$s",
                            MessageText.quoted(argument),
                            Self.seeHelp))
                }
                let bare = { (option: String) in String(option.drop { $0 == "-" }) }
                guard let meant = Suggestion.likelyMeant(bare(name), among: Self.options.map(bare)) else {
                    throw UsageError(
                        description: localized("unknown option %1$s; see %2$s", MessageText.name(name), Self.seeHelp))
                }
                throw UsageError(
                    description: localized(
                        "unknown option %1$s; did you mean %2$s?", MessageText.name(name),
                        MessageText.name("--" + meant)))
            }
        }
    }

    /// The long options restd knows, for "did you mean".
    static let options = ["--address", "--state-dir", "--config", "--check-config", "--verbose", "--help", "--version"]

    private static let seeHelp = MessageText.name("restd --help")

    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    static let version = "0.1.0"

    /// The help, in the reader's language (the option and path names are as people type them).
    static var help: String {
        localized(
            """
            USAGE: restd [--address ADDRESS] [--state-dir DIRECTORY] [--config FILE] [--check-config] [--verbose]

            Rest timers on the D-Bus session bus, as io.restd.Rest1. Timers run on real elapsed time,
            anchored to the wall clock across restarts, and are kept in $XDG_STATE_HOME/restd.
            restd reads $XDG_CONFIG_HOME/restd/config.toml (else ~/.config/restd/config.toml) at
            start-up and again on SIGHUP, and stops cleanly on SIGTERM or SIGINT.

            OPTIONS:
              --address ADDRESS       Serve this bus address instead of the session bus.
              --state-dir DIRECTORY   Keep state here instead of $XDG_STATE_HOME/restd.
              --config FILE           Read this configuration file instead of the default one; it must exist.
              --check-config          Check the configuration file, print what is wrong with it, and exit.
              --verbose               Log debug messages.
              --version               Show the version.
              -h, --help              Show this help.

            EXIT STATUS:
              0 after SIGTERM or SIGINT, or when --check-config finds the file good; 64 for an unknown
              option; 75 when another restd holds the state directory; 78 when the configuration file
              has a problem (or a --config file does not exist); 1 for any other failure, losing the
              bus included.

            See restd(1), restd.conf(5) (the configuration keys), io.restd.Rest1(5) (the D-Bus API)
            and restctl(1).
            """) + "\n"
    }
}
