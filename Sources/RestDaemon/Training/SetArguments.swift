import DBusKit
import Localization
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
                input.reps = try reps(value, option: key)
            case SetOption.weightKg:
                input.weightKg = try kilograms(value, option: key)
            case SetOption.failed:
                input.failed = try boolean(value, option: key)
            case SetOption.restUSec:
                input.restUSec = try unsigned(value, option: key)
            case SetOption.untilRecovered:
                input.untilRecovered = try boolean(value, option: key)
            case SetOption.sound:
                input.sound = try boolean(value, option: key)
            default:
                throw unknownOption(key, known: SetOption.all)
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
                edit.exercise = try string(value, option: key)
            case SetOption.reps:
                edit.reps = try reps(value, option: key)
            case SetOption.weightKg:
                edit.weightKg = try kilograms(value, option: key)
            case SetOption.failed:
                edit.failed = try boolean(value, option: key)
            default:
                throw unknownOption(
                    key, known: [HistoryKey.exercise, SetOption.reps, SetOption.weightKg, SetOption.failed])
            }
        }
        return edit
    }

    /// A set's reps: an integer of any width, 0 to `SetInput.maxReps`.
    private static func reps(_ value: DBusValue, option: String) throws(DBusError) -> UInt32 {
        guard let reps = value.int64 else {
            throw DBusError(
                .invalidArgs,
                localized("option %1$s must be an unsigned integer (u), not of type %2$s", option, value.type.signature)
            )
        }
        guard reps >= 0, reps <= Int64(SetInput.maxReps) else {
            throw DBusError(
                .invalidArgs, localized("reps %1$d is out of range: give 0 to %2$d", reps, SetInput.maxReps))
        }
        return UInt32(reps)
    }

    /// A weight in kg: a double, or an integer of any width (checked when the set is planned).
    private static func kilograms(_ value: DBusValue, option: String) throws(DBusError) -> Double {
        if case .double(let kg) = value { return kg }
        guard let kg = value.int64 else {
            throw DBusError(
                .invalidArgs,
                localized("option %1$s must be a number of kg (d), not of type %2$s", option, value.type.signature))
        }
        return Double(kg)
    }
}
