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
            return "no help on '\(arguments[1])': it is not a command; the commands are \(commandList)"
        }
        if let group = Restctl.configuration.subcommands.first(where: { $0._commandName == first }) {
            return unknownSubcommand(in: arguments.dropFirst(), of: group)
        }
        if let hint = synonyms[first] { return "unknown command '\(first)'; \(hint)" }
        if let near = nearest(first, among: commands) { return "unknown command '\(first)'; did you mean '\(near)'?" }
        return "unknown command '\(first)'; the commands are \(commandList)"
    }

    /// The sentence for the first option the command does not have, or nil. ArgumentParser
    /// checks options only after decoding and validating the values, so without this
    /// `start --lable Squat` would be told that "Squat" is no duration.
    static func unknownOption(in arguments: [String]) -> String? {
        let (command, _, words) = command(in: arguments)
        let help = Restctl.helpMessage(for: command, includeHidden: true, columns: 10_000)
        let known = Set(help.matches(of: #/--[A-Za-z0-9][A-Za-z0-9-]*/#).map { String($0.output) })
            .union(["--help"])
        for word in words.prefix(while: { $0 != "--" }) where word.hasPrefix("--") && word.count > 2 {
            let name = String(word.prefix { $0 != "=" })
            guard !known.contains(name) else { continue }
            let near = nearest(String(name.dropFirst(2)), among: known.sorted().map { String($0.dropFirst(2)) })
            return near.map { "unknown option '\(name)'; did you mean '--\($0)'?" } ?? "unknown option '\(name)'"
        }
        return nil
    }

    /// The sentence for `--version` after a command: it is restctl's own option, and ArgumentParser
    /// would otherwise take it for restctl's and run the command.
    static func misplacedVersion(in arguments: [String]) -> String? {
        let options = arguments.prefix { $0 != "--" }
        guard options.first != "--version", options.contains("--version") else { return nil }
        return "--version is restctl's own option: run 'restctl --version'"
    }

    /// The usage lines of the command `arguments` name, as far as they name one.
    static func usage(of arguments: [String]) -> [String] {
        let (command, path, _) = command(in: arguments)
        guard !path.isEmpty else { return topLevelUsage }
        let name = (["restctl"] + path).joined(separator: " ")
        let help = Restctl.helpMessage(for: command, columns: 10_000)
        let line = help.split(separator: "\n").first { $0.hasPrefix("USAGE: ") }.map { "Usage: " + $0.dropFirst(7) }
        return [line ?? "Usage: \(name)", "  See '\(name) --help' for more information."]
    }

    /// The command the first words of `arguments` name, those words, and the words after them.
    private static func command(in arguments: [String]) -> (ParsableCommand.Type, [String], ArraySlice<String>) {
        var command: ParsableCommand.Type = Restctl.self
        var path: [String] = []
        var words = arguments[...]
        while let word = words.first,
            let sub = command.configuration.subcommands.first(where: { $0._commandName == word })
        {
            command = sub
            path.append(word)
            words.removeFirst()
        }
        return (command, path, words)
    }

    /// The sentence for a word after a command with commands of its own (`restctl workout foo`)
    /// that is none of them, in the style of an unknown top-level command.
    private static func unknownSubcommand(in arguments: ArraySlice<String>, of group: ParsableCommand.Type) -> String? {
        let names = group.configuration.subcommands.map { $0._commandName }
        guard !names.isEmpty, let word = arguments.first, !word.hasPrefix("-"), !names.contains(word), word != "help"
        else { return nil }
        let kind = "\(group._commandName) command"
        if let near = nearest(word, among: names) { return "unknown \(kind) '\(word)'; did you mean '\(near)'?" }
        return "unknown \(kind) '\(word)'; the \(kind)s are \(names.joined(separator: ", "))"
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
            let usage = Restctl.fullMessage(for: error).split(separator: "\n", omittingEmptySubsequences: false)
                .filter { $0.hasPrefix("Usage:") || $0.hasPrefix("  See ") }
            write(sentence(message), usage: usage.map(String.init))
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
        ["Usage: restctl <subcommand>", "  See 'restctl --help' for more information."]
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
        if let match = text.wholeMatch(of: #/Unknown option '(-*)([^']*)'\. Did you mean '(-*)([^']*)'\?/#) {
            let typed = "\(match.output.1)\(match.output.2)"
            text =
                nearest(String(match.output.2), among: [String(match.output.4)]) == nil
                ? "Unknown option '\(typed)'"
                : "Unknown option '\(typed)'; did you mean '\(match.output.3)\(match.output.4)'?"
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
    ]

    private static var commands: [String] { Restctl.configuration.subcommands.map { $0._commandName } }

    private static var commandList: String { commands.joined(separator: ", ") }

    /// The candidate `word` is the start of, or the closest when it is close enough to be what
    /// was meant: at most two edits, and no more than half the word.
    private static func nearest(_ word: String, among candidates: [String]) -> String? {
        let extensions = candidates.filter { $0.hasPrefix(word) }
        if word.count >= 2, extensions.count == 1 { return extensions[0] }  // "resu" is "resume"
        return Suggestion.nearest(word, among: candidates, maxDistance: min(2, word.count / 2))
    }
}
