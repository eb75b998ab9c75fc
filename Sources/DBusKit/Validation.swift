import CDBus
import Glibc

/// Checks that keep libdbus from aborting the process: it calls abort() on invalid UTF-8,
/// object paths, member names and signatures passed to its message-building functions.
public enum DBusValidation {
    /// Object path: "/" or "/"-separated non-empty elements of [A-Za-z0-9_].
    public static func isValidObjectPath(_ path: String) -> Bool {
        let bytes = Array(path.utf8)
        guard bytes.first == UInt8(ascii: "/") else { return false }
        if bytes.count == 1 { return true }
        guard bytes.last != UInt8(ascii: "/") else { return false }
        var previousWasSlash = true
        for byte in bytes.dropFirst() {
            if byte == UInt8(ascii: "/") {
                if previousWasSlash { return false }
                previousWasSlash = true
            } else if isPathElementByte(byte) {
                previousWasSlash = false
            } else {
                return false
            }
        }
        return true
    }

    public static func isValidInterfaceName(_ name: String) -> Bool {
        withValidatedCString(name) { dbus_validate_interface($0, nil) != 0 }
    }

    public static func isValidMemberName(_ name: String) -> Bool {
        withValidatedCString(name) { dbus_validate_member($0, nil) != 0 }
    }

    public static func isValidErrorName(_ name: String) -> Bool {
        withValidatedCString(name) { dbus_validate_error_name($0, nil) != 0 }
    }

    public static func isValidBusName(_ name: String) -> Bool {
        withValidatedCString(name) { dbus_validate_bus_name($0, nil) != 0 }
    }

    /// A string libdbus accepts as a D-Bus string: valid UTF-8 by its own rules and no NUL
    /// (which `withCString` would silently cut at).
    public static func isValidString(_ string: String) -> Bool {
        withValidatedCString(string) { dbus_validate_utf8($0, nil) != 0 }
    }

    public static func isValidSignature(_ signature: String) -> Bool {
        withValidatedCString(signature) { dbus_signature_validate($0, nil) != 0 }
    }

    private static func isPathElementByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }

    private static func withValidatedCString(_ string: String, _ body: (UnsafePointer<CChar>) -> Bool) -> Bool {
        // No NUL inside: the C string is as long as the UTF-8 (strlen is one fast scan).
        let length = string.utf8.count
        return string.withCString { strlen($0) == length && body($0) }
    }
}
