import DBusKit
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
        var entries: [String: LiveValue] = [:]
        entries.reserveCapacity(dictionary.count)
        for (key, value) in dictionary {
            switch value {
            case .byte, .int16, .uint16, .int32, .uint32, .int64:
                entries[key] = .integer(value.int64!)
            case .uint64(let number):
                guard let fitting = Int64(exactly: number) else {
                    throw DBusError(.invalidArgs, "\(MessageText.quoted(key)) is too large: \(number)")
                }
                entries[key] = .integer(fitting)
            case .double(let number): entries[key] = .double(number)
            case .string(let text): entries[key] = .string(text)
            case .boolean(let flag): entries[key] = .boolean(flag)
            default:
                throw DBusError(
                    .invalidArgs,
                    "\(MessageText.quoted(key)) has type \(value.type.signature); values are integers, doubles, strings or booleans"
                )
            }
        }
        return entries
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
