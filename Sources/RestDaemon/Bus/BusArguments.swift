import DBusKit

/// Turns method arguments into domain values, refusing bad ones with a sentence. What every
/// object shares is here: the options type and readers of one typed option. Each feature decodes
/// its own arguments in an extension beside its object (`Timers/TimerArguments`,
/// `Training/SetArguments`, `Live/LiveArguments`).
enum BusArguments {
    /// `a{sv}`: the options of a call, and the entries of lists restd replies with.
    static let optionsType = DBusType.dictionary(key: .string, value: .variant)

    static func boolean(_ value: DBusValue, option: String) throws(DBusError) -> Bool {
        guard let flag = value.bool else { throw wrongType(option, expected: "a boolean (b)", got: value) }
        return flag
    }

    static func unsigned(_ value: DBusValue, option: String) throws(DBusError) -> UInt64 {
        guard case .uint64(let number) = value else {
            throw wrongType(option, expected: "an unsigned 64-bit integer (t)", got: value)
        }
        return number
    }

    static func string(_ value: DBusValue, option: String) throws(DBusError) -> String {
        guard case .string(let text) = value else { throw wrongType(option, expected: "a string (s)", got: value) }
        return text
    }

    static func wrongType(_ option: String, expected: String, got value: DBusValue) -> DBusError {
        DBusError(.invalidArgs, "option \(option) must be \(expected), not of type \(value.type.signature)")
    }
}
