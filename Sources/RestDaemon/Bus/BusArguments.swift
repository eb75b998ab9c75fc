import DBusKit
import Localization
import RestCore

/// Turns method arguments into domain values, refusing bad ones with a sentence. What every
/// object shares is here: the options type and readers of one typed option. Each feature
/// decodes its own arguments beside its object: in extensions of this type
/// (`Timers/TimerArguments`, `Training/SetArguments`), in `Live/LiveArguments`, or in the
/// object itself (the history's window).
enum BusArguments {
    /// `a{sv}`: the options of a call, and the entries of lists restd replies with.
    static let optionsType = DBusType.dictionary(key: .string, value: .variant)

    /// The entries of an options argument (`a{sv}`), sorted by key: of several bad ones, the
    /// same is named every time.
    static func options(_ value: DBusValue) throws(DBusError) -> [(key: String, value: DBusValue)] {
        guard let entries = value.vardictEntries else {
            throw DBusError(.invalidArgs, "options must be a dictionary of string to variant (a{sv})")
        }
        return entries.sorted { $0.key < $1.key }
    }

    /// An option that is not one of `known` (a sentence listing them).
    static func unknownOption(_ key: String, known: [String]) -> DBusError {
        DBusError(
            .invalidArgs,
            localized(
                "unknown option %1$s; the options are %2$s", MessageText.quoted(key),
                known.joined(separator: ", ")))
    }

    /// Each reader refuses a value of another type with a sentence naming the option and the
    /// type it came as (a client of another version of the interface).
    static func boolean(_ value: DBusValue, option: String) throws(DBusError) -> Bool {
        guard let flag = value.bool else {
            throw DBusError(
                .invalidArgs,
                localized("option %1$s must be a boolean (b), not of type %2$s", option, value.type.signature))
        }
        return flag
    }

    static func unsigned(_ value: DBusValue, option: String) throws(DBusError) -> UInt64 {
        guard case .uint64(let number) = value else {
            throw DBusError(
                .invalidArgs,
                localized(
                    "option %1$s must be an unsigned 64-bit integer (t), not of type %2$s", option,
                    value.type.signature))
        }
        return number
    }

    static func string(_ value: DBusValue, option: String) throws(DBusError) -> String {
        guard case .string(let text) = value else {
            throw DBusError(
                .invalidArgs,
                localized("option %1$s must be a string (s), not of type %2$s", option, value.type.signature))
        }
        return text
    }
}
