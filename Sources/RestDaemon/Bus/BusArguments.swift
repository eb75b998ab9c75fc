import DBusKit
import RestCore
import RestProtocol

/// Turns method arguments into domain values, refusing bad ones with a sentence.
enum BusArguments {
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
                guard let flag = value.bool else { throw wrongType(key, expected: "a boolean (b)", got: value) }
                options.notify = flag
            case StartOption.warn:
                guard case .uint64(let usec) = value else {
                    throw wrongType(key, expected: "an unsigned 64-bit integer (t)", got: value)
                }
                options.warnUSec = usec
            default:
                throw DBusError(.invalidArgs,
                    "unknown option \"\(key.debugEscaped)\"; the options are \(StartOption.label), \(StartOption.next), "
                        + "\(StartOption.notify) and \(StartOption.warn)")
            }
        }
        return options
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
