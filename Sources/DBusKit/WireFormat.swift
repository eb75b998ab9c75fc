import CDBus

/// Builds a message's body in D-Bus's wire format and has libdbus load it: the path of every
/// body restd writes in one piece (`Message.append`: signals, method calls, replies).
///
/// libdbus's append iterator rewrites the message's signature header field after each top-level
/// argument and walks its type machinery for every value, several times the cost of
/// `dbus_message_demarshal` loading the same bytes — which validates all of them, so nothing
/// libdbus would refuse goes out. The header stays libdbus's own (`dbus_message_marshal` of the
/// empty message: every field and flag it set), a SIGNATURE field is added to it, and the loaded
/// message is copied (`dbus_message_copy`), which resets its serial to 0 so that the connection
/// numbers it as any other. Large bodies written value by value (`MessageWriter`) keep the iterator.
enum WireFormat {
    /// `header` (a message with no body yet) with `values` as its body: a new message the
    /// caller owns. Checked once: the writer refuses an array element or dictionary entry of
    /// another type than declared (whose bytes could load as the declared one), libdbus's load
    /// the rest (strings, paths, signatures, nesting), as `Marshalling.validate` would.
    static func message(_ header: OpaquePointer, withBody values: [DBusValue]) throws(DBusError) -> OpaquePointer {
        let signature = Array(DBusType.signature(of: values.map(\.type)).utf8)
        return try message(header, signature: signature) { writer throws(DBusError) in
            for value in values { try writer.append(value) }
        }
    }

    /// `header` (a message with no body yet) with the body `write` appends, of `signature`.
    static func message(
        _ header: OpaquePointer, signature: [UInt8], write: (inout WireWriter) throws(DBusError) -> Void
    ) throws(DBusError) -> OpaquePointer {
        var data: UnsafeMutablePointer<CChar>?
        var length: Int32 = 0
        guard dbus_message_marshal(header, &data, &length) != 0, let data else { throw outOfMemory }
        defer { dbus_free(data) }
        let bytes = UnsafeRawBufferPointer(start: data, count: Int(length))

        var writer = WireWriter(bigEndian: bytes[0] == UInt8(ascii: "B"))
        let fieldsLength = Int(writer.uint32(in: bytes, at: fieldsLengthOffset))
        writer.bytes.reserveCapacity(16 + fieldsLength + 16 + 256)
        writer.bytes.append(contentsOf: bytes[0..<(16 + fieldsLength)])

        guard signature.count <= 255 else {
            throw DBusError(.invalidArgs, "the body's signature is longer than D-Bus's 255 bytes")
        }
        // One more header field: (SIGNATURE, <"g"> signature), a struct, so 8-aligned.
        writer.pad(to: 8)
        writer.bytes.append(contentsOf: [signatureFieldCode, 1, UInt8(ascii: "g"), 0, UInt8(signature.count)])
        writer.bytes.append(contentsOf: signature)
        writer.bytes.append(0)
        writer.setUInt32(UInt32(writer.bytes.count - 16), at: fieldsLengthOffset)
        writer.pad(to: 8)

        let bodyStart = writer.bytes.count
        try write(&writer)
        guard writer.bytes.count <= Int(Int32.max) else {
            throw DBusError(.limitsExceeded, "the message is larger than D-Bus allows")
        }
        writer.setUInt32(UInt32(writer.bytes.count - bodyStart), at: bodyLengthOffset)
        // A loaded message needs a serial; the copy below resets it to 0.
        writer.setUInt32(1, at: serialOffset)

        let error = CErrorBox()
        let loaded = writer.bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                dbus_message_demarshal($0.baseAddress, Int32($0.count), &error.raw)
            }
        }
        guard let loaded else { throw error.take(fallback: "the message could not be built") }
        defer { dbus_message_unref(loaded) }
        guard let copy = dbus_message_copy(loaded) else { throw outOfMemory }
        return copy
    }

    private static let bodyLengthOffset = 4
    private static let serialOffset = 8
    /// Where the length of the header's fields (an `a(yv)` after 12 fixed bytes) is; the body
    /// starts after the fields, padded to 8.
    static let fieldsLengthOffset = 12
    private static let signatureFieldCode: UInt8 = 8
    private static let outOfMemory = DBusError(.noMemory, "out of memory")
}

/// Appends values in D-Bus's wire format. Offsets are the message's: a body starts 8-aligned,
/// so the header's bytes come first and the body's alignment follows from them.
struct WireWriter {
    var bytes: [UInt8] = []
    let bigEndian: Bool

    init(bigEndian: Bool) { self.bigEndian = bigEndian }

    mutating func pad(to alignment: Int) {
        // Byte by byte: a generic append of a repeated zero cost more than the few bytes it adds.
        let remainder = bytes.count % alignment
        if remainder != 0 { for _ in remainder..<alignment { bytes.append(0) } }
    }

    /// Appends one value; an array element or dictionary entry not of the declared type is
    /// refused, what else D-Bus forbids is left to libdbus's load. File descriptors travel beside
    /// the bytes, which this format cannot carry: they are refused.
    mutating func append(_ value: DBusValue) throws(DBusError) {
        switch value {
        case .byte(let v): bytes.append(v)
        case .boolean(let b): appendInteger(UInt32(b ? 1 : 0))
        case .int16(let v): appendInteger(v)
        case .uint16(let v): appendInteger(v)
        case .int32(let v): appendInteger(v)
        case .uint32(let v): appendInteger(v)
        case .int64(let v): appendInteger(v)
        case .uint64(let v): appendInteger(v)
        case .double(let v): appendInteger(v.bitPattern)
        case .string(let s), .objectPath(let s):
            appendString(s)
        case .signature(let s):
            // Its length is one byte; a longer one is no signature, for validation to describe.
            guard s.utf8.count <= 255 else { throw Self.mistyped }
            bytes.append(UInt8(s.utf8.count))
            appendUTF8(s)
            bytes.append(0)
        case .unixFD:
            throw DBusError(.notSupported, "file descriptors cannot be sent in a message body written whole")
        case .variant(let inner):
            try appendVariant(inner)
        case .array(let elementType, let elements):
            try appendArray(elementAlignment: Self.alignment(of: elementType)) { writer throws(DBusError) in
                for element in elements {
                    guard element.hasType(elementType) else { throw Self.mistyped }
                    try writer.append(element)
                }
            }
        case .dictionary(let keyType, let valueType, let entries):
            try appendArray(elementAlignment: 8) { writer throws(DBusError) in
                for entry in entries {
                    guard entry.key.hasType(keyType), entry.value.hasType(valueType) else { throw Self.mistyped }
                    writer.pad(to: 8)
                    try writer.append(entry.key)
                    try writer.append(entry.value)
                }
            }
        case .structure(let fields):
            pad(to: 8)
            for field in fields { try append(field) }
        }
    }

    /// What the writer refuses itself (a mistyped element, a signature past 255 bytes), described
    /// by `Marshalling.validate` when the caller can walk the values again.
    private static let mistyped = DBusError(.invalidArgs, "a value is not of the type its container declares")

    /// An `aa{sv}`: one dictionary per element of `dictionaries`, each of its pairs in the order
    /// given, validated as they are written — what `append(.array(.dictionary(key: .string,
    /// value: .variant), …))` writes, without building the tree. For long lists of records. Each
    /// pair is validated before it is written: the sequence may be walked only once, so a refused
    /// body could not be walked again to say which value it was.
    mutating func appendVardicts<Pairs: Sequence<(key: String, value: DBusValue)>>(
        _ dictionaries: some Sequence<Pairs>
    ) throws(DBusError) {
        try appendArray(elementAlignment: 4) { records throws(DBusError) in
            for pairs in dictionaries {
                try records.appendArray(elementAlignment: 8) { entries throws(DBusError) in
                    for (key, value) in pairs {
                        try Marshalling.validate(.string(key))
                        try Marshalling.validate(value)
                        entries.pad(to: 8)
                        entries.appendString(key)
                        try entries.appendVariant(value)
                    }
                }
            }
        }
    }

    /// A variant holding `value`: the value's signature, then the value.
    private mutating func appendVariant(_ value: DBusValue) throws(DBusError) {
        let type = value.type
        if let code = type.singleCode {
            bytes.append(contentsOf: [1, code, 0])
        } else {
            let signature = type.signature
            guard signature.utf8.count <= 255 else {
                throw DBusError(.invalidArgs, "a variant's signature is longer than D-Bus's 255 bytes")
            }
            bytes.append(UInt8(signature.utf8.count))
            appendUTF8(signature)
            bytes.append(0)
        }
        try append(value)
    }

    private mutating func appendString(_ string: String) {
        appendInteger(UInt32(string.utf8.count))
        appendUTF8(string)
        bytes.append(0)
    }

    private mutating func appendUTF8(_ string: String) {
        var string = string
        string.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// An array: its length in bytes (4-aligned), padding to its elements' alignment even when it
    /// has none, then the elements; the length counts neither the padding nor itself.
    private mutating func appendArray(
        elementAlignment: Int, _ elements: (inout WireWriter) throws(DBusError) -> Void
    ) throws(DBusError) {
        pad(to: 4)
        let lengthAt = bytes.count
        bytes.append(contentsOf: [0, 0, 0, 0])
        pad(to: elementAlignment)
        let start = bytes.count
        try elements(&self)
        setUInt32(UInt32(bytes.count - start), at: lengthAt)
    }

    private mutating func appendInteger<T: FixedWidthInteger>(_ value: T) {
        pad(to: MemoryLayout<T>.size)
        withUnsafeBytes(of: bigEndian ? value.bigEndian : value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func setUInt32(_ value: UInt32, at offset: Int) {
        withUnsafeBytes(of: bigEndian ? value.bigEndian : value.littleEndian) { raw in
            for index in 0..<4 { bytes[offset + index] = raw[index] }
        }
    }

    func uint32(in buffer: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        let value = buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        return bigEndian ? UInt32(bigEndian: value) : UInt32(littleEndian: value)
    }

    /// Where a value of this type starts: its size for fixed ones, 4 for strings and arrays,
    /// 8 for structures and dict entries, 1 for signatures and variants.
    static func alignment(of type: DBusType) -> Int {
        switch type {
        case .byte, .signature, .variant: 1
        case .int16, .uint16: 2
        case .boolean, .int32, .uint32, .unixFD, .string, .objectPath, .array, .dictionary: 4
        case .int64, .uint64, .double, .structure: 8
        }
    }
}
