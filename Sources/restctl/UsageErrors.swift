import ArgumentParser
import RestClient
import RestCore

/// restctl's one style for mistakes on the command line: `restctl: ` and one sentence saying
/// what was wrong and what to do, on stderr, exit status 64; the usage lines follow only for a
/// mistake in the command's shape (an unknown command or option, a missing argument), not for
/// a value that cannot be used.
enum UsageErrors {
    /// The sentence for a first word that is no command (nil when it is one, or an option), or
    /// for `help` on no command; checked before ArgumentParser, which would say "Unexpected
    /// argument" for the one and show the top-level help for the other.
    static func unknownCommand(in arguments: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
        if first == "help" {
            guard arguments.count > 1, !arguments[1].hasPrefix("-"), !commands.contains(arguments[1]) else {
                return nil
            }
            return "no help on \(MessageText.name(arguments[1])): it is not a command"
                + Suggestion.hint(for: arguments[1], among: commands, otherwise: "the commands are \(commandList)")
        }
        if let group = CommandTree.subcommands(of: Restctl.self).first(where: { CommandTree.name(of: $0) == first }) {
            return unknownSubcommand(in: arguments.dropFirst(), of: group)
        }
        if let hint = synonyms[first] { return "unknown command \(MessageText.name(first)); \(hint)" }
        return "unknown command \(MessageText.name(first))"
            + Suggestion.hint(for: first, among: commands, otherwise: "the commands are \(commandList)")
    }

    /// The sentence for help asked for with more than a command (`help start extra`) or with a
    /// value glued to `-h` (`start -h90`), or nil: ArgumentParser would show the help and leave
    /// the rest unread.
    static func misusedHelp(in arguments: [String]) -> String? {
        let words = arguments.prefix { $0 != "--" }
        var takingValues: Set<String>?
        for (index, word) in words.enumerated() where word.hasPrefix("-h") && word.count > 2 {
            if index > 0 {
                takingValues =
                    takingValues ?? CommandDescription(of: CommandTree.command(in: arguments).0).namesTakingValues
                if takingValues?.contains(words[index - 1]) == true { continue }
            }
            return "unknown option \(MessageText.name(word)); -h takes no value: give it alone for the help"
        }
        guard arguments.first == "help" else { return nil }
        let (_, path, rest) = CommandTree.command(in: Array(arguments.dropFirst()))
        guard !path.isEmpty, let extra = rest.first else { return nil }
        let asked = (["restctl", "help"] + path).joined(separator: " ")
        return "unexpected \(MessageText.name(extra)) after \(MessageText.name(asked)): help takes one command"
    }

    /// The sentence for the first option the command does not have, or nil. ArgumentParser
    /// checks options only after decoding and validating the values, so without this
    /// `start --lable Squat` would be told that "Squat" is no duration.
    static func unknownOption(in arguments: [String]) -> String? {
        let (command, _, words) = CommandTree.command(in: arguments)
        let known = Set(CommandDescription(of: command).optionNames.filter { $0.hasPrefix("--") })
        for word in words.prefix(while: { $0 != "--" }) where word.hasPrefix("--") && word.count > 2 {
            let name = String(word.prefix { $0 != "=" })
            guard !known.contains(name) else { continue }
            return "unknown option \(MessageText.name(name))" + Suggestion.optionHint(for: name, among: known.sorted())
        }
        return nil
    }

    /// The sentence for `--version` after a command: it is restctl's own option, and ArgumentParser
    /// would otherwise take it for restctl's and run the command.
    static func misplacedVersion(in arguments: [String]) -> String? {
        let options = arguments.prefix { $0 != "--" }
        guard options.first != "--version", options.contains("--version") else { return nil }
        return "--version is restctl's own option: run \(MessageText.name("restctl --version"))"
    }

    /// The usage lines of the command `arguments` name, as far as they name one.
    static func usage(of arguments: [String]) -> [String] {
        let (command, path, _) = CommandTree.command(in: arguments)
        guard !path.isEmpty else { return topLevelUsage }
        let name = (["restctl"] + path).joined(separator: " ")
        let help = Restctl.helpMessage(for: command, columns: 10_000)
        let line = help.split(separator: "\n").first { $0.hasPrefix("USAGE: ") }.map { "Usage: " + $0.dropFirst(7) }
        return [line ?? "Usage: \(name)", seeHelp(name)]
    }

    /// The sentence for a word after a command with commands of its own (`restctl workout foo`)
    /// that is none of them, in the style of an unknown top-level command.
    private static func unknownSubcommand(in arguments: ArraySlice<String>, of group: ParsableCommand.Type) -> String? {
        let names = CommandTree.subcommands(of: group).map(CommandTree.name(of:))
        guard !names.isEmpty, let word = arguments.first, !word.hasPrefix("-"), !names.contains(word), word != "help"
        else { return nil }
        let kind = "\(CommandTree.name(of: group)) command"
        return "unknown \(kind) \(MessageText.name(word))"
            + Suggestion.hint(for: word, among: names, otherwise: "the \(kind)s are \(names.joined(separator: ", "))")
    }

    /// Reports what `parseAsRoot` threw and returns the exit status: help and version go to
    /// stdout (0); anything else is one sentence on stderr (64).
    static func report(_ error: Error, arguments: [String]) -> Int32 {
        let code = Restctl.exitCode(for: error)
        if code == .success {
            print(Restctl.fullMessage(for: error))
            return 0
        }
        if let sentence = unknownOption(in: arguments) {
            write(sentence, usage: usage(of: arguments))
            return ExitStatus.usage.rawValue
        }
        let message = Restctl.message(for: error)
        if code == .validationFailure, message.hasPrefix("The value ") {
            // ArgumentParser could not read a value (`--format lemonbar`, `--done x`).
            write(sentence(message), usage: [])
        } else if code == .validationFailure {
            // ArgumentParser's own findings, or a ValidationError: the command's shape is wrong.
            write(sentence(message), usage: usage(of: arguments))
        } else {
            // A `RestctlError(.usage)` from a validate(): a value that cannot be used.
            write(message, usage: [])
        }
        return ExitStatus.usage.rawValue
    }

    /// Writes `restctl: sentence` and the usage lines, if any, to stderr.
    static func write(_ sentence: String, usage: [String]) {
        StandardError.write("restctl: \(sentence)\n" + usage.map { $0 + "\n" }.joined())
    }

    /// The usage lines of the top-level command.
    static var topLevelUsage: [String] {
        ["Usage: restctl <subcommand>", seeHelp("restctl")]
    }

    /// The usage block's last line, pointing to the command's help.
    private static func seeHelp(_ command: String) -> String {
        "  See \(MessageText.name(command + " --help")) for more information."
    }

    // MARK: Sentences

    /// ArgumentParser's message in restctl's style: starting lower-case, with its "Did you
    /// mean" kept only when the name is close (it offers `--id` for `--all`).
    private static func sentence(_ message: String) -> String {
        var text = message
        // "… Please provide one of the following:\n  - text\n  - json" on one line.
        if let list = text.firstRange(of: ". Please provide one of the following:\n") {
            let choices = text[list.upperBound...].split(separator: "\n").map { $0.trimmingPrefix("  - ") }
            text = text[..<list.lowerBound] + "; give one of " + choices.joined(separator: ", ")
        }
        if let match = text.wholeMatch(of: #/Unknown option '([^']*)'(\. Did you mean '([^']*)'\?)?/#) {
            let typed = String(match.output.1)
            text =
                "Unknown option \(MessageText.name(typed))"
                + Suggestion.optionHint(for: typed, among: match.output.3.map { [String($0)] } ?? [])
        }
        guard let first = text.first, first.isUppercase, text.dropFirst().first?.isLowercase == true else {
            return text
        }
        return first.lowercased() + text.dropFirst()
    }

    /// Words people try for what restctl calls otherwise.
    private static let synonyms: [String: String] = [
        "stop": "to end a timer, use 'restctl cancel'; to pause it, 'restctl pause'",
        "rm": "to remove a timer, use 'restctl cancel'",
        "remove": "to remove a timer, use 'restctl cancel'",
        "delete": "to remove a timer, use 'restctl cancel'",
        "kill": "to end a timer, use 'restctl cancel'",
        "end": "to end a timer, use 'restctl cancel'; to end a live activity, 'restctl live --end'",
        "ls": "did you mean 'list'?",
        "show": "did you mean 'status'?",
        "get": "did you mean 'status'?",
        "continue": "did you mean 'resume'?",
        "unpause": "did you mean 'resume'?",
        "extend": "did you mean 'add'?",
        "reset": "did you mean 'restart'?",
        "stat": "did you mean 'status' (one timer) or 'stats' (rests per exercise)?",
        "done": "did you mean 'set' (a set is done: start its rest)?",
        "next": "to move to the workout's next set, use 'restctl workout next'",
        "previous": "to move back to the workout's previous set, use 'restctl workout previous'",
        "prev": "to move back to the workout's previous set, use 'restctl workout previous'",
    ]

    private static var commands: [String] { CommandTree.subcommands(of: Restctl.self).map(CommandTree.name(of:)) }

    private static var commandList: String { commands.joined(separator: ", ") }

}
