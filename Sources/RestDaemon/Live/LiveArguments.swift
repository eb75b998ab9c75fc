import DBusKit
import Localization
import RestCore
import RestProtocol

/// Live field values between D-Bus and the core.
enum LiveArguments {
    /// The `fields` of Update (read with `Message.vardictArgument`): any integer type, double,
    /// string or boolean per key.
    static func entries(_ dictionary: [String: DBusValue]?) throws(DBusError) -> [String: LiveValue] {
        guard let dictionary else {
            throw DBusError(.invalidArgs, "fields must be a dictionary of string to variant (a{sv})")
        }
        // Every value is checked first, so that the conversion can keep the dictionary's table
        // (`mapValues`) instead of hashing every key again.
        for (key, value) in dictionary where liveValue(value) == nil {
            if case .uint64(let number) = value {
                throw DBusError(.invalidArgs, localized("%1$s is too large: %2$s", MessageText.quoted(key), number))
            }
            throw DBusError(
                .invalidArgs,
                localized(
                    "%1$s has type %2$s; values are integers, doubles, strings or booleans", MessageText.quoted(key),
                    value.type.signature))
        }
        return dictionary.mapValues { liveValue($0)! }
    }

    /// A value of Update as a live value: any integer type that fits an Int64, double, string
    /// or boolean; nil for anything else.
    private static func liveValue(_ value: DBusValue) -> LiveValue? {
        switch value {
        case .byte, .int16, .uint16, .int32, .uint32, .int64: .integer(value.int64!)
        case .uint64(let number): Int64(exactly: number).map { .integer($0) }
        case .double(let number): .double(number)
        case .string(let text): .string(text)
        case .boolean(let flag): .boolean(flag)
        default: nil
        }
    }

    /// Fields as published: integers as x, doubles as d, strings as s, booleans as b.
    static func dictionary(_ fields: [String: LiveValue]) -> DBusValue {
        .vardict(
            fields.mapValues { value in
                switch value {
                case .integer(let number): .int64(number)
                case .double(let number): .double(number)
                case .string(let text): .string(text)
                case .boolean(let flag): .boolean(flag)
                }
            })
    }
}

extension LiveError {
    var dbusError: DBusError {
        switch self {
        case .invalidArgs(let message): DBusError(.invalidArgs, message)
        case .limitExceeded(let message): DBusError(name: RestErrorName.limitExceeded, message: message)
        }
    }
}
