/// What restctl does with its arguments before ArgumentParser sees them.
enum ArgumentPreparation {
    /// Makes negative numbers reach the duration parser (and its sentence, "… is negative; to
    /// take time off, use `restctl sub 5`") instead of being taken for options: ArgumentParser
    /// reads `-5` as the short option `-5`. A value of an option is attached to it
    /// (`--warn -5` → `--warn=-5`); any other is moved after a `--`, where it is a positional
    /// argument (`add -5 --id x` → `add --id x -- -5`). Nothing after an existing `--` changes.
    static func separatingNegativeNumbers(_ arguments: [String]) -> [String] {
        guard arguments.contains(where: isNegativeNumber) else { return arguments }
        // The options of the command the arguments name, as ArgumentParser describes it.
        let optionsWithValues = CommandDescription(of: CommandTree.command(in: arguments).0).namesTakingValues
        var kept: [String] = []
        var positional: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" {
                positional += arguments[(index + 1)...]
                break
            }
            if isNegativeNumber(argument) {
                if let option = kept.last, optionsWithValues.contains(option) {
                    kept[kept.count - 1] = option + "=" + argument
                } else {
                    positional.append(argument)
                }
            } else {
                kept.append(argument)
            }
            index += 1
        }
        return positional.isEmpty ? kept : kept + ["--"] + positional
    }

    /// `-` and a digit: `-5`, `-1:30`, `-2m`, `-0.5`.
    private static func isNegativeNumber(_ argument: String) -> Bool {
        let bytes = Array(argument.utf8)
        return bytes.count >= 2 && bytes[0] == UInt8(ascii: "-")
            && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[1])
    }
}
