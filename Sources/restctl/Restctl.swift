import ArgumentParser
import Localization
import RestClient

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// restctl: the command-line client of restd.
struct Restctl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restctl",
        abstract: localized("Control the rest timers of restd."),
        usage: "restctl <subcommand>",
        discussion: localized(
            """
            Commands that act on a timer take --id (default: default); an id is 1 to 64 of \
            A-Z, a-z, 0-9, _ and -. A duration is 90, 90s, 1m30s, 2min, 1.5m or 1:30 \
            (every form: TIMERS AND DURATIONS in man restctl); a rest is 1 s to 24 h. \
            Commands that print a timer take --json.
            """) + "\n\n" + ExitStatus.helpText,
        // Every command, nested ones too, gives its commandName: without one ArgumentParser
        // derives it from the type's name at every start (String(describing:) over the runtime's
        // conformance tables), a large share of a short command's instructions.
        subcommands: [
            Start.self, Pause.self, Resume.self, Toggle.self, Add.self, Sub.self,
            Restart.self, Cancel.self, Clear.self, Status.self, List.self, Wait.self, Live.self, Watch.self,
            Sensors.self,
            CompleteSet.self, Skip.self, Silence.self, History.self, Stats.self, Records.self, Undo.self, Import.self,
            Report.self,
            Workout.self, Reload.self,
        ])

    // restctl's own flag, not a `version:` in the configuration: ArgumentParser would list that
    // one under every command, where it means nothing more.
    @Flag(help: ArgumentHelp(localized("Show the version.")))
    var version = false

    /// `restctl --version`; `restctl` alone shows the help.
    func run() throws {
        print(version ? RestdClient.clientVersion : Restctl.helpMessage())
    }

    /// Parses and runs a command. Every failure becomes `restctl: ` and one sentence on stderr
    /// with its exit status, never a backtrace: a usage mistake 64 (`UsageErrors`), a failure
    /// at run time that of its `RestctlError`.
    static func main() {
        Localization.start()
        let arguments = Array(CommandLine.arguments.dropFirst())
        // A plain `restctl status` (a bar polls it) is known before anything reads the command
        // table, which the usage checks would build (a quarter of its CPU) to find nothing wrong.
        let plainStatus = FastPath.status(arguments)
        if plainStatus == nil, let sentence = UsageErrors.misusedHelp(in: arguments) {
            UsageErrors.write(sentence, usage: [])
            Glibc.exit(ExitStatus.usage.rawValue)
        }
        if plainStatus == nil,
            let sentence = UsageErrors.unknownCommand(in: arguments) ?? UsageErrors.misplacedVersion(in: arguments)
        {
            UsageErrors.write(sentence, usage: UsageErrors.usage(of: arguments))
            Glibc.exit(ExitStatus.usage.rawValue)
        }
        let status: Int32
        do {
            if let request = plainStatus {
                try Status.show(id: request.id, json: request.json)
            } else {
                var command = try parseAsRoot(ArgumentPreparation.separatingNegativeNumbers(arguments))
                try command.run()
            }
            status = 0
        } catch let failure as RestctlError {
            // Whatever was printed before the failure comes first.
            fflush(nil)
            StandardError.write(failure.lines)
            status = failure.exitStatus.rawValue
        } catch {
            fflush(nil)
            status = UsageErrors.report(error, arguments: arguments)
        }
        // Under systemd or in a pipe stdout is fully buffered: flush before leaving.
        fflush(nil)
        Glibc.exit(status)
    }
}

/// Unbuffered writes to file descriptor 2 (the global `stderr` is off limits in Swift 6).
enum StandardError {
    static func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(STDERR_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return }
                offset += written
            }
        }
    }
}
