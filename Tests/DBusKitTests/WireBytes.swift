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

/// A signal written in big-endian byte order, as from a big-endian machine, loaded by libdbus:
/// with `body` as its body, or with none for a test to give it one.
func bigEndianSignal(_ body: [DBusValue] = []) throws -> Message {
    var writer = WireWriter(bigEndian: true)
    writer.bytes = [UInt8(ascii: "B"), UInt8(CDBUS_MESSAGE_TYPE_SIGNAL), 0, 1, 0, 0, 0, 0, 0, 0, 0, 1]
    var fields: [DBusValue] = [
        .structure([.byte(1), .variant(.objectPath("/io/example"))]),
        .structure([.byte(2), .variant(.string("org.example.I"))]),
        .structure([.byte(3), .variant(.string("S"))]),
    ]
    if !body.isEmpty {
        fields.append(.structure([.byte(8), .variant(.signature(DBusType.signature(of: body.map(\.type))))]))
    }
    try writer.append(.array(.structure([.byte, .variant]), fields))
    writer.pad(to: 8)
    let bodyStart = writer.bytes.count
    for value in body { try writer.append(value) }
    writer.setUInt32(UInt32(writer.bytes.count - bodyStart), at: 4)
    let error = CErrorBox()
    let raw = writer.bytes.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { dbus_message_demarshal($0.baseAddress, Int32($0.count), &error.raw) }
    }
    guard let raw else { throw error.take(fallback: "libdbus refused the message") }
    return Message(owning: raw)
}
