import DBusKit
import RestCore
import RestProtocol

/// Turns method arguments into domain values, refusing bad ones with a sentence.
enum BusArguments {
    /// `a{sv}`: the options of a call, and the entries of lists restd replies with.
    static let optionsType = DBusType.dictionary(key: .string, value: .variant)

    static func timerID(_ value: DBusValue) throws(DBusError) -> TimerID {
        do {
            return try TimerID(parsing: value.string ?? "")
        } catch {
            throw error.dbusError
        }
    }

    /// The `options` of Start: label (s), next (s), notify (b), warn_usec (t).
    static func startOptions(_ value: DBusValue) throws(DBusError) -> TimerOptions {
        guard let entries = value.vardictEntries else {
            throw DBusError(.invalidArgs, "options must be a dictionary of string to variant (a{sv})")
        }
        var options = TimerOptions()
        for (key, value) in entries.sorted(by: { $0.key < $1.key }) {
            switch key {
            case StartOption.label:
                options.label = try string(value, option: key)
            case StartOption.next:
                options.next = try string(value, option: key)
            case StartOption.notify:
                options.notify = try boolean(value, option: key)
            case StartOption.warn:
                options.warnUSec = try unsigned(value, option: key)
            default:
                throw DBusError(
                    .invalidArgs,
                    "unknown option \"\(key.debugEscaped)\"; the options are \(StartOption.label), \(StartOption.next), "
                        + "\(StartOption.notify) and \(StartOption.warn)")
            }
        }
        return options
    }

    /// CompleteSet's exercise ("" for the previous set's) and options: reps (u), weight_kg (d),
    /// failed (b), rest_usec (t). Integers of any width are taken for reps, and for weight_kg.
    static func setInput(exercise: DBusValue, options value: DBusValue) throws(DBusError) -> SetInput {
        guard case .string(let name) = exercise else {
            throw DBusError(.invalidArgs, "exercise must be a string (s)")
        }
        guard let entries = value.vardictEntries else {
            throw DBusError(.invalidArgs, "options must be a dictionary of string to variant (a{sv})")
        }
        var input = SetInput(exercise: name.isEmpty ? nil : name)
        for (key, value) in entries.sorted(by: { $0.key < $1.key }) {
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
            default:
                throw DBusError(
                    .invalidArgs,
                    "unknown option \"\(key.debugEscaped)\"; the options are \(SetOption.all.joined(separator: ", "))")
            }
        }
        return input
    }

    private static func boolean(_ value: DBusValue, option: String) throws(DBusError) -> Bool {
        guard let flag = value.bool else { throw wrongType(option, expected: "a boolean (b)", got: value) }
        return flag
    }

    private static func unsigned(_ value: DBusValue, option: String) throws(DBusError) -> UInt64 {
        guard case .uint64(let number) = value else {
            throw wrongType(option, expected: "an unsigned 64-bit integer (t)", got: value)
        }
        return number
    }

    private static func string(_ value: DBusValue, option: String) throws(DBusError) -> String {
        guard case .string(let text) = value else { throw wrongType(option, expected: "a string (s)", got: value) }
        return text
    }

    private static func wrongType(_ option: String, expected: String, got value: DBusValue) -> DBusError {
        DBusError(.invalidArgs, "option \(option) must be \(expected), not of type \(value.type.signature)")
    }
}

extension TimerError {
    /// The D-Bus error for this refusal.
    var dbusError: DBusError {
        switch self {
        case .invalidArgs(let message): DBusError(name: RestErrorName.invalidArgs, message: message)
        case .noSuchTimer(let message): DBusError(name: RestErrorName.noSuchTimer, message: message)
        case .invalidState(let message): DBusError(name: RestErrorName.invalidState, message: message)
        case .limitExceeded(let message): DBusError(name: RestErrorName.limitExceeded, message: message)
        }
    }
}
