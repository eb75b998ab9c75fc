import ArgumentParser

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A command as swift-argument-parser describes it: the JSON of its `--experimental-dump-help`
/// (what generate-manual reads), asked through its public API. restctl's own checks of a command
/// line read the options from here, so that there is no second list of them. Building it reflects
/// over the command's arguments: it is asked for only when a check needs it, never on the way to
/// a plain command.
struct CommandDescription: Decodable {
    /// An argument: `positional`, `option` (it takes a value) or `flag`, with its names.
    struct Argument: Decodable {
        struct Name: Decodable {
            /// `long` (`--id`), `short` (`-o`) or `longWithSingleDash`.
            let kind: String
            let name: String

            var spelled: String { (kind == "long" ? "--" : "-") + name }
        }
        let kind: String
        let names: [Name]?
    }

    let commandName: String
    let arguments: [Argument]?

    /// How `command` is described (its own arguments, with `--help`).
    init(of command: ParsableCommand.Type) {
        struct ToolInfo: Decodable { let command: CommandDescription }
        let text: String
        do {
            _ = try command.parseAsRoot(["--experimental-dump-help"])
            text = ""
        } catch {
            text = command.fullMessage(for: error)
        }
        do {
            self = try JSONDecoder().decode(ToolInfo.self, from: Data(text.utf8)).command
        } catch {
            fatalError("swift-argument-parser described \(command) in a form restctl cannot read: \(error)")
        }
    }

    /// Every name of its options and flags, as typed (`--id`, `-o`, `--help`, `-h`).
    var optionNames: [String] {
        (arguments ?? []).filter { $0.kind != "positional" }.flatMap { ($0.names ?? []).map(\.spelled) }
    }

    /// The names of the options that take a value: the word after one is its value, whatever it looks like.
    var namesTakingValues: Set<String> {
        Set((arguments ?? []).filter { $0.kind == "option" }.flatMap { ($0.names ?? []).map(\.spelled) })
    }
}

/// restctl's commands as their configurations list them.
enum CommandTree {
    /// The command the first words of `arguments` name, those words, and the words after them.
    /// A group with a default command (`history`, which is `history show`) given no command of
    /// its own is that default, as swift-argument-parser runs it.
    static func command(in arguments: [String]) -> (ParsableCommand.Type, [String], ArraySlice<String>) {
        var command: ParsableCommand.Type = Restctl.self
        var path: [String] = []
        var words = arguments[...]
        while let word = words.first, let sub = subcommands(of: command).first(where: { name(of: $0) == word }) {
            command = sub
            path.append(word)
            words.removeFirst()
        }
        if command != Restctl.self, let defaultCommand = command.configuration.defaultSubcommand {
            command = defaultCommand
        }
        return (command, path, words)
    }

    static func subcommands(of command: ParsableCommand.Type) -> [ParsableCommand.Type] {
        command.configuration.subcommands
    }

    /// The name a command is called by: its configuration's (every restctl command gives one, so
    /// that nothing derives it at start), else as swift-argument-parser describes it.
    static func name(of command: ParsableCommand.Type) -> String {
        command.configuration.commandName ?? CommandDescription(of: command).commandName
    }
}
