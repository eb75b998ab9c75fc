import DBusKit
import RestCore
import RestProtocol

/// The Timer and Manager objects' arguments: a timer's id, and Start's options.
extension BusArguments {
    static func timerID(_ value: DBusValue) throws(DBusError) -> TimerID {
        do {
            return try TimerID(parsing: value.string ?? "")
        } catch {
            throw error.dbusError
        }
    }

    /// The `options` of Start: label (s), next (s), notify (b), sound (b), warn_usec (t).
    static func startOptions(_ value: DBusValue) throws(DBusError) -> TimerOptions {
        var options = TimerOptions()
        for (key, value) in try Self.options(value) {
            switch key {
            case StartOption.label:
                options.label = try string(value, option: key)
            case StartOption.next:
                options.next = try string(value, option: key)
            case StartOption.notify:
                options.notify = try boolean(value, option: key)
            case StartOption.sound:
                options.sound = try boolean(value, option: key)
            case StartOption.warn:
                options.warnUSec = try unsigned(value, option: key)
            default:
                throw unknownOption(
                    key,
                    known: [
                        StartOption.label, StartOption.next, StartOption.notify, StartOption.sound, StartOption.warn,
                    ])
            }
        }
        return options
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
