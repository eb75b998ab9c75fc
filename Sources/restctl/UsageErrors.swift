import ArgumentParser
import Localization
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
            return localized("no help on %1$s: it is not a command", MessageText.name(arguments[1]))
                + SuggestionText.hint(for: arguments[1], among: commands, otherwise: commandsAre)
        }
        if let group = CommandTree.subcommands(of: Restctl.self).first(where: { CommandTree.name(of: $0) == first }) {
            return unknownSubcommand(in: arguments.dropFirst(), of: group)
        }
        if let hint = synonym(first) { return localized("unknown command %1$s; %2$s", MessageText.name(first), hint) }
        return localized("unknown command %1$s", MessageText.name(first))
            + SuggestionText.hint(for: first, among: commands, otherwise: commandsAre)
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
            return localized(
                "unknown option %1$s; -h takes no value: give it alone for the help", MessageText.name(word))
        }
        guard arguments.first == "help" else { return nil }
        let (_, path, rest) = CommandTree.command(in: Array(arguments.dropFirst()))
        guard !path.isEmpty, let extra = rest.first else { return nil }
        let asked = (["restctl", "help"] + path).joined(separator: " ")
        return localized(
            "unexpected %1$s after %2$s: help takes one command", MessageText.name(extra), MessageText.name(asked))
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
            return unknownOption(name, among: known.sorted())
        }
        return nil
    }

    /// The sentence for `--version` after a command: it is restctl's own option, and ArgumentParser
    /// would otherwise take it for restctl's and run the command.
    static func misplacedVersion(in arguments: [String]) -> String? {
        let options = arguments.prefix { $0 != "--" }
        guard options.first != "--version", options.contains("--version") else { return nil }
        return localized("--version is restctl's own option: run %1$s", MessageText.name("restctl --version"))
    }

    /// The usage lines of the command `arguments` name, as far as they name one.
    static func usage(of arguments: [String]) -> [String] {
        let (command, path, _) = CommandTree.command(in: arguments)
        guard !path.isEmpty else { return topLevelUsage }
        let name = (["restctl"] + path).joined(separator: " ")
        let help = Restctl.helpMessage(for: command, columns: 10_000)
        let line = help.split(separator: "\n").first { $0.hasPrefix("USAGE: ") }.map { String($0.dropFirst(7)) }
        return [usageLine(line ?? name), seeHelp(name)]
    }

    /// The sentence for a word after a command with commands of its own (`restctl workout foo`)
    /// that is none of them, in the style of an unknown top-level command.
    private static func unknownSubcommand(in arguments: ArraySlice<String>, of group: ParsableCommand.Type) -> String? {
        let names = CommandTree.subcommands(of: group).map(CommandTree.name(of:))
        guard !names.isEmpty, let word = arguments.first, !word.hasPrefix("-"), !names.contains(word), word != "help"
        else { return nil }
        let group = CommandTree.name(of: group)
        return localized("unknown %1$s command %2$s", group, MessageText.name(word))
            + SuggestionText.hint(
                for: word, among: names,
                otherwise: localized("the %1$s commands are %2$s", group, names.joined(separator: ", ")))
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
        [usageLine("restctl <subcommand>"), seeHelp("restctl")]
    }

    /// The usage block's last line, pointing to the command's help.
    private static func seeHelp(_ command: String) -> String {
        "  " + localized("See %1$s for more information.", MessageText.name(command + " --help"))
    }

    /// "Usage: restctl start [<options>] <duration>".
    private static func usageLine(_ usage: String) -> String {
        // TRANSLATORS: before a command's usage, as in "Usage: restctl start [--id <id>] <duration>".
        localized("Usage: %1$s", usage)
    }

    /// "unknown option '--lable'; did you mean '--label'?".
    private static func unknownOption(_ name: String, among known: [String]) -> String {
        if let meant = Suggestion.likelyMeant(
            String(name.drop { $0 == "-" }), among: known.map { String($0.drop { $0 == "-" }) })
        {
            return localized(
                "unknown option %1$s; did you mean %2$s?", MessageText.name(name), MessageText.name("--" + meant))
        }
        return localized("unknown option %1$s", MessageText.name(name))
    }

    // MARK: Sentences

    /// ArgumentParser's message in restctl's style: starting lower-case, with its "Did you
    /// mean" kept only when the name is close (it offers `--id` for `--all`).
    private static func sentence(_ message: String) -> String {
        var text = message
        // "… Please provide one of the following:\n  - text\n  - json" on one line.
        if let list = text.firstRange(of: ". Please provide one of the following:\n") {
            let choices = text[list.upperBound...].split(separator: "\n").map { $0.trimmingPrefix("  - ") }
            text = text[..<list.lowerBound] + localized("; give one of %1$s", choices.joined(separator: ", "))
        }
        if let match = text.wholeMatch(of: #/Unknown option '([^']*)'(\. Did you mean '([^']*)'\?)?/#) {
            // ArgumentParser's sentence, restctl's words: it is restctl's own check's (unknownOption).
            return unknownOption(String(match.output.1), among: match.output.3.map { [String($0)] } ?? [])
        }
        guard let first = text.first, first.isUppercase, text.dropFirst().first?.isLowercase == true else {
            return text
        }
        return first.lowercased() + text.dropFirst()
    }

    /// What to say for a word people try for what restctl calls otherwise, or nil.
    private static func synonym(_ word: String) -> String? {
        switch word {
        case "stop": localized("to end a timer, use 'restctl cancel'; to pause it, 'restctl pause'")
        case "rm", "remove", "delete": localized("to remove a timer, use 'restctl cancel'")
        case "kill": localized("to end a timer, use 'restctl cancel'")
        case "end": localized("to end a timer, use 'restctl cancel'; to end a live activity, 'restctl live --end'")
        case "ls": localized("did you mean 'list'?")
        case "show", "get": localized("did you mean 'status'?")
        case "continue", "unpause": localized("did you mean 'resume'?")
        case "extend": localized("did you mean 'add'?")
        case "reset": localized("did you mean 'restart'?")
        case "stat": localized("did you mean 'status' (one timer) or 'stats' (rests per exercise)?")
        case "done": localized("did you mean 'set' (a set is done: start its rest)?")
        case "next": localized("to move to the workout's next set, use 'restctl workout next'")
        case "previous", "prev": localized("to move back to the workout's previous set, use 'restctl workout previous'")
        default: nil
        }
    }

    private static var commands: [String] { CommandTree.subcommands(of: Restctl.self).map(CommandTree.name(of:)) }

    private static var commandsAre: String { localized("the commands are %1$s", commands.joined(separator: ", ")) }

}
