import CDBus

/// Reads a message's body straight from its bytes in D-Bus's wire format: the reading half of
/// `WireWriter`, and how a body that holds an array is read (`Message.arguments`,
/// `vardictArgument`, `recordsArgument`). libdbus's iterator costs a call or two per value; this
/// reads a value in a few instructions, after one copy of the message.
///
/// Nothing here checks the bytes: only a message libdbus made is read, one it loaded (and so
/// validated) or built itself, and raw buffers are bounds-checked in debug builds only.
///
/// A file descriptor travels beside the bytes, as an index into the message's descriptors that
/// only libdbus's iterator turns into one the reader owns: the reader gives nil for a body that
/// holds any, and `Marshalling` reads that body through the iterator.
struct WireReader {
    private let bytes: UnsafeRawBufferPointer
    private let bigEndian: Bool
    private var offset: Int
    private let end: Int

    /// Runs `body` with a reader at the start of `message`'s body, on a copy of the message's
    /// bytes (`dbus_message_marshal`, in the byte order the message has); nil when the copy
    /// cannot be made.
    static func withBody<T>(of message: OpaquePointer, _ body: (inout WireReader) -> T?) -> T? {
        var data: UnsafeMutablePointer<CChar>?
        var length: Int32 = 0
        guard dbus_message_marshal(message, &data, &length) != 0, let data else { return nil }
        defer { dbus_free(data) }
        let bytes = UnsafeRawBufferPointer(start: data, count: Int(length))
        var reader = WireReader(
            bytes: bytes, bigEndian: bytes[0] == UInt8(ascii: "B"), offset: WireFormat.fieldsLengthOffset,
            end: bytes.count)
        let fieldsLength = Int(reader.uint32())
        reader.offset += fieldsLength
        reader.align(8)
        return body(&reader)
    }

    /// Whether the whole body has been read, to its last byte.
    var atEnd: Bool { offset == end }

    /// The values of `types`, in order from the reader's position; nil when one of them holds a
    /// file descriptor.
    mutating func read(_ types: [DBusType]) -> [DBusValue]? {
        var values: [DBusValue] = []
        values.reserveCapacity(types.count)
        for type in types {
            guard let value = read(type) else { return nil }
            values.append(value)
        }
        return values
    }

    /// The value of `type` at the reader's position; nil for a file descriptor.
    mutating func read(_ type: DBusType) -> DBusValue? {
        switch type {
        case .byte:
            defer { offset += 1 }
            return .byte(bytes[offset])
        case .boolean: return .boolean(uint32() != 0)
        case .int16: return .int16(Int16(bitPattern: integer(UInt16.self)))
        case .uint16: return .uint16(integer(UInt16.self))
        case .int32: return .int32(Int32(bitPattern: uint32()))
        case .uint32: return .uint32(uint32())
        case .int64: return .int64(Int64(bitPattern: integer(UInt64.self)))
        case .uint64: return .uint64(integer(UInt64.self))
        case .double: return .double(Double(bitPattern: integer(UInt64.self)))
        case .string: return .string(string())
        case .objectPath: return .objectPath(string())
        case .signature: return .signature(signature())
        case .unixFD: return nil
        case .variant:
            guard let inner = variantType(), let value = read(inner) else { return nil }
            return .variant(value)
        case .structure(let fields):
            align(8)
            var values: [DBusValue] = []
            values.reserveCapacity(fields.count)
            for field in fields {
                guard let value = read(field) else { return nil }
                values.append(value)
            }
            return .structure(values)
        case .array(let element):
            var elements: [DBusValue] = []
            let complete = readArray(elementAlignment: WireWriter.alignment(of: element)) { reader in
                guard let value = reader.read(element) else { return false }
                elements.append(value)
                return true
            }
            return complete ? .array(element, elements) : nil
        case .dictionary(let keyType, let valueType):
            var entries: [DBusValue.DictEntry] = []
            let complete = readArray(elementAlignment: 8) { reader in
                reader.align(8)
                guard let key = reader.read(keyType), let value = reader.read(valueType) else { return false }
                entries.append(.init(key, value))
                return true
            }
            return complete ? .dictionary(key: keyType, value: valueType, entries) : nil
        }
    }

    /// An `a{sv}` at the reader's position, its variants unwrapped; nil when it holds a file
    /// descriptor. `capacity`: room for this many entries.
    mutating func readVardict(capacity: Int = 0) -> [String: DBusValue]? {
        var dictionary = [String: DBusValue](minimumCapacity: capacity)
        let complete = readArray(elementAlignment: 8) { reader in
            reader.align(8)
            let key = reader.string()
            guard let type = reader.variantType(), let value = reader.read(type) else { return false }
            dictionary[key] = value
            return true
        }
        return complete ? dictionary : nil
    }

    /// An `aa{sv}` at the reader's position, one dictionary per record (variants unwrapped); nil
    /// when it holds a file descriptor.
    mutating func readRecords() -> [[String: DBusValue]]? {
        var records: [[String: DBusValue]] = []
        let complete = readArray(elementAlignment: 4) { reader in
            // Records of one reply have about the same fields: room for as many as the last one
            // had spares the dictionary growing four times per record.
            guard let record = reader.readVardict(capacity: records.last?.count ?? 0) else { return false }
            records.append(record)
            return true
        }
        return complete ? records : nil
    }

    /// An array's length, the padding to its elements (there even when it has none), then
    /// `element` until the length is used up, or until it gives false.
    private mutating func readArray(elementAlignment: Int, _ element: (inout WireReader) -> Bool) -> Bool {
        let length = Int(uint32())
        align(elementAlignment)
        let arrayEnd = offset + length
        while offset < arrayEnd {
            guard element(&self) else { return false }
        }
        assert(offset == arrayEnd, "an array's elements ran past its length")
        return true
    }

    /// A variant's signature, a single complete type: looked up for a basic type, parsed for a
    /// container.
    private mutating func variantType() -> DBusType? {
        if bytes[offset] == 1, let single = DBusType.single(code: bytes[offset + 1]) {
            offset += 3  // length, code, NUL
            return single
        }
        return try? DBusType.parseSingle(signature())
    }

    private mutating func string() -> String {
        let length = Int(uint32())
        defer { offset += length + 1 }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)]), as: UTF8.self)
    }

    private mutating func signature() -> String {
        let length = Int(bytes[offset])
        defer { offset += 1 + length + 1 }
        return String(
            decoding: UnsafeRawBufferPointer(rebasing: bytes[(offset + 1)..<(offset + 1 + length)]), as: UTF8.self)
    }

    private mutating func uint32() -> UInt32 { integer(UInt32.self) }

    private mutating func integer<T: FixedWidthInteger>(_: T.Type) -> T {
        align(MemoryLayout<T>.size)
        defer { offset += MemoryLayout<T>.size }
        let raw = bytes.loadUnaligned(fromByteOffset: offset, as: T.self)
        return bigEndian ? T(bigEndian: raw) : T(littleEndian: raw)
    }

    private mutating func align(_ alignment: Int) {
        offset = (offset + alignment - 1) & ~(alignment - 1)
    }
}
