import CDBus

/// A D-Bus error: a well-known error name and a human sentence.
public struct DBusError: Error, Equatable, Sendable, CustomStringConvertible {
    public var name: String
    public var message: String

    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    public init(_ name: Name, _ message: String) {
        self.init(name: name.rawValue, message: message)
    }

    public var description: String { "\(name): \(message)" }

    /// Error names defined by the D-Bus specification that this binding uses.
    public struct Name: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let failed = Name(rawValue: "org.freedesktop.DBus.Error.Failed")
        public static let noMemory = Name(rawValue: "org.freedesktop.DBus.Error.NoMemory")
        public static let invalidArgs = Name(rawValue: "org.freedesktop.DBus.Error.InvalidArgs")
        public static let invalidSignature = Name(rawValue: "org.freedesktop.DBus.Error.InvalidSignature")
        public static let unknownMethod = Name(rawValue: "org.freedesktop.DBus.Error.UnknownMethod")
        public static let unknownObject = Name(rawValue: "org.freedesktop.DBus.Error.UnknownObject")
        public static let unknownInterface = Name(rawValue: "org.freedesktop.DBus.Error.UnknownInterface")
        public static let unknownProperty = Name(rawValue: "org.freedesktop.DBus.Error.UnknownProperty")
        public static let propertyReadOnly = Name(rawValue: "org.freedesktop.DBus.Error.PropertyReadOnly")
        public static let serviceUnknown = Name(rawValue: "org.freedesktop.DBus.Error.ServiceUnknown")
        public static let nameHasNoOwner = Name(rawValue: "org.freedesktop.DBus.Error.NameHasNoOwner")
        public static let noReply = Name(rawValue: "org.freedesktop.DBus.Error.NoReply")
        public static let timeout = Name(rawValue: "org.freedesktop.DBus.Error.Timeout")
        public static let disconnected = Name(rawValue: "org.freedesktop.DBus.Error.Disconnected")
        public static let noServer = Name(rawValue: "org.freedesktop.DBus.Error.NoServer")
        public static let fileNotFound = Name(rawValue: "org.freedesktop.DBus.Error.FileNotFound")
        public static let limitsExceeded = Name(rawValue: "org.freedesktop.DBus.Error.LimitsExceeded")
        public static let accessDenied = Name(rawValue: "org.freedesktop.DBus.Error.AccessDenied")
        public static let notSupported = Name(rawValue: "org.freedesktop.DBus.Error.NotSupported")
    }

    public func hasName(_ other: Name) -> Bool { name == other.rawValue }

    /// The error with a name and message libdbus accepts (it aborts on invalid ones).
    var safeForWire: DBusError {
        DBusError(
            name: DBusValidation.isValidErrorName(name) ? name : Name.failed.rawValue,
            message: DBusValidation.isValidString(message) ? message : message.debugEscaped)
    }
}

/// Owns a libdbus `DBusError` for the length of one call.
final class CErrorBox {
    var raw = CDBus.DBusError()

    init() { dbus_error_init(&raw) }

    deinit { dbus_error_free(&raw) }

    var isSet: Bool { dbus_error_is_set(&raw) != 0 }

    /// The error as a Swift value, or a generic one when libdbus set none.
    func take(fallback: String) -> DBusError {
        guard isSet else { return DBusError(.failed, fallback) }
        let name = raw.name.map { String(cString: $0) } ?? DBusError.Name.failed.rawValue
        let message = raw.message.map { String(cString: $0) } ?? fallback
        return DBusError(name: name, message: message)
    }
}
