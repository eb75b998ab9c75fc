import DBusKit
import RestCore
import RestProtocol

/// CompleteSet's arguments: the set done, and how to rest after it.
extension BusArguments {
    /// CompleteSet's exercise ("" for the previous set's) and options: reps (u), weight_kg (d),
    /// failed (b), rest_usec (t). Integers of any width are taken for reps, and for weight_kg.
    static func setInput(exercise: DBusValue, options value: DBusValue) throws(DBusError) -> SetInput {
        guard case .string(let name) = exercise else {
            throw DBusError(.invalidArgs, "exercise must be a string (s)")
        }
        var input = SetInput(exercise: name.isEmpty ? nil : name)
        for (key, value) in try Self.options(value) {
            switch key {
            case SetOption.reps:
                guard let reps = value.int64 else {
                    throw wrongType(key, expected: "an unsigned integer (u)", got: value)
                }
                guard reps >= 0, reps <= Int64(SetInput.maxReps) else {
                    throw DBusError(.invalidArgs, "reps \(reps) is out of range: give 0 to \(SetInput.maxReps)")
                }
                input.reps = UInt32(reps)
            case SetOption.weightKg:
                let kg: Double
                if case .double(let double) = value {
                    kg = double
                } else if let int = value.int64 {
                    kg = Double(int)
                } else {
                    throw wrongType(key, expected: "a number of kg (d)", got: value)
                }
                input.weightKg = kg
            case SetOption.failed:
                input.failed = try boolean(value, option: key)
            case SetOption.restUSec:
                input.restUSec = try unsigned(value, option: key)
            case SetOption.untilRecovered:
                input.untilRecovered = try boolean(value, option: key)
            case SetOption.sound:
                input.sound = try boolean(value, option: key)
            default:
                throw unknownOption(key, known: SetOption.all.joined(separator: ", "))
            }
        }
        return input
    }

    /// EditSet's changes: exercise (s), reps (u), weight_kg (d), failed (b); the values are
    /// checked when the edit is planned, as CompleteSet's are.
    static func setEdit(_ value: DBusValue) throws(DBusError) -> SetEdit {
        var edit = SetEdit()
        for (key, value) in try Self.options(value) {
            switch key {
            case HistoryKey.exercise:
                guard case .string(let name) = value else { throw wrongType(key, expected: "a string (s)", got: value) }
                edit.exercise = name
            case SetOption.reps:
                guard let reps = value.int64 else {
                    throw wrongType(key, expected: "an unsigned integer (u)", got: value)
                }
                guard reps >= 0, reps <= Int64(SetInput.maxReps) else {
                    throw DBusError(.invalidArgs, "reps \(reps) is out of range: give 0 to \(SetInput.maxReps)")
                }
                edit.reps = UInt32(reps)
            case SetOption.weightKg:
                if case .double(let kg) = value {
                    edit.weightKg = kg
                } else if let kg = value.int64 {
                    edit.weightKg = Double(kg)
                } else {
                    throw wrongType(key, expected: "a number of kg (d)", got: value)
                }
            case SetOption.failed:
                edit.failed = try boolean(value, option: key)
            default:
                throw unknownOption(
                    key,
                    known: [HistoryKey.exercise, SetOption.reps, SetOption.weightKg, SetOption.failed].joined(
                        separator: ", "))
            }
        }
        return edit
    }
}
