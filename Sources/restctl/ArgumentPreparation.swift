/// What restctl does with its arguments before ArgumentParser sees them.
enum ArgumentPreparation {
    /// The options that take a value (restctl has no short ones): a value after one of them is
    /// the option's, whatever it looks like.
    static let optionsWithValues: Set<String> = [
        "--id", "--label", "--next", "--warn", "--format", "--rate",
        "--heart-rate", "--done", "--total", "--exercise", "--workout", "--set",
        "--reps", "--weight", "--rest", "--since", "--until",
    ]

    /// Makes negative numbers reach the duration parser (and its sentence, "… is negative; to
    /// take time off, use `restctl sub 5`") instead of being taken for options: ArgumentParser
    /// reads `-5` as the short option `-5`. A value of an option is attached to it
    /// (`--warn -5` → `--warn=-5`); any other is moved after a `--`, where it is a positional
    /// argument (`add -5 --id x` → `add --id x -- -5`). Nothing after an existing `--` changes.
    static func separatingNegativeNumbers(_ arguments: [String]) -> [String] {
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
