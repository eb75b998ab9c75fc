import CDBus

@testable import DBusKit

/// A message as it goes on the wire (serial 1, as a connection would number it): what the tests
/// comparing two ways of writing a body compare.
func wireBytes(_ message: Message) -> [UInt8] {
    dbus_message_set_serial(message.raw, 1)
    var buffer: UnsafeMutablePointer<CChar>?
    var length: Int32 = 0
    guard dbus_message_marshal(message.raw, &buffer, &length) != 0, let buffer else { return [] }
    defer { dbus_free(buffer) }
    return Array(UnsafeRawBufferPointer(start: buffer, count: Int(length)))
}
