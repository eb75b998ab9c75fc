/// One D-Bus value of any type, containers included. Only a variant holds its value in a box of
/// its own; the other cases are stored inline, so that making a number costs no allocation (a
/// long string still has its own storage). The price is size: a value takes four words, not one.
public enum DBusValue: Hashable, Sendable {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    /// A file descriptor; a received one is owned by the receiver, who must close it.
    case unixFD(Int32)
    indirect case variant(DBusValue)
    /// An array whose elements all have the given type (which an empty array still needs).
    case array(DBusType, [DBusValue])
    case dictionary(key: DBusType, value: DBusType, [DictEntry])
    case structure([DBusValue])

    public struct DictEntry: Hashable, Sendable {
        public var key: DBusValue
        public var value: DBusValue
        public init(_ key: DBusValue, _ value: DBusValue) {
            self.key = key
            self.value = value
        }
    }

    /// The type of this value.
    public var type: DBusType {
        switch self {
        case .byte: return .byte
        case .boolean: return .boolean
        case .int16: return .int16
        case .uint16: return .uint16
        case .int32: return .int32
        case .uint32: return .uint32
        case .int64: return .int64
        case .uint64: return .uint64
        case .double: return .double
        case .string: return .string
        case .objectPath: return .objectPath
        case .signature: return .signature
        case .unixFD: return .unixFD
        case .variant: return .variant
        case .array(let element, _): return .array(element)
        case .dictionary(let key, let value, _): return .dictionary(key: key, value: value)
        case .structure(let fields): return .structure(fields.map(\.type))
        }
    }
}

extension DBusValue {
    /// Whether this value is of `expected`: what `type == expected` answers, without building
    /// the value's type, which for a structure is an array (one per row of a long list).
    func hasType(_ expected: DBusType) -> Bool {
        switch (self, expected) {
        case (.byte, .byte), (.boolean, .boolean), (.int16, .int16), (.uint16, .uint16), (.int32, .int32),
            (.uint32, .uint32), (.int64, .int64), (.uint64, .uint64), (.double, .double), (.string, .string),
            (.objectPath, .objectPath), (.signature, .signature), (.unixFD, .unixFD), (.variant, .variant):
            return true
        case (.array(let element, _), .array(let expectedElement)):
            return element == expectedElement
        case (.dictionary(let key, let value, _), .dictionary(let expectedKey, let expectedValue)):
            return key == expectedKey && value == expectedValue
        case (.structure(let fields), .structure(let expectedFields)):
            guard fields.count == expectedFields.count else { return false }
            for (field, expectedField) in zip(fields, expectedFields) where !field.hasType(expectedField) {
                return false
            }
            return true
        default:
            return false
        }
    }
}

// MARK: - Building values

extension DBusValue {
    /// An `a{sv}` dictionary, sorted by key so that output is stable.
    public static func vardict(_ entries: [String: DBusValue]) -> DBusValue {
        .dictionary(
            key: .string, value: .variant,
            entries.sorted { $0.key < $1.key }.map {
                DictEntry(.string($0.key), .variant($0.value))
            })
    }

    /// An `as` array.
    public static func strings(_ values: [String]) -> DBusValue {
        .array(.string, values.map { .string($0) })
    }
}

// MARK: - Reading values

extension DBusValue {
    /// The value inside a variant, or the value itself.
    public var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    public var string: String? {
        switch self {
        case .string(let s), .objectPath(let s), .signature(let s): return s
        default: return nil
        }
    }

    public var bool: Bool? {
        if case .boolean(let b) = self { return b }
        return nil
    }

    public var double: Double? {
        if case .double(let d) = self { return d }
        return nil
    }

    /// Any integer type, widened; nil for other types or values that do not fit.
    public var int64: Int64? {
        switch self {
        case .byte(let v): return Int64(v)
        case .int16(let v): return Int64(v)
        case .uint16(let v): return Int64(v)
        case .int32(let v): return Int64(v)
        case .uint32(let v): return Int64(v)
        case .int64(let v): return v
        case .uint64(let v): return Int64(exactly: v)
        default: return nil
        }
    }

    /// Any non-negative integer, widened; nil for other types and negative values.
    public var uint64: UInt64? {
        if case .uint64(let v) = self { return v }
        return int64.flatMap { UInt64(exactly: $0) }
    }

    public var arrayElements: [DBusValue]? {
        if case .array(_, let elements) = self { return elements }
        return nil
    }

    public var dictEntries: [DictEntry]? {
        if case .dictionary(_, _, let entries) = self { return entries }
        return nil
    }

    /// An `a{sv}` (or any string-keyed dictionary) as a Swift dictionary, variants unwrapped once.
    /// Duplicate keys: the last one wins, as in most D-Bus bindings.
    public var vardictEntries: [String: DBusValue]? {
        guard case .dictionary(.string, _, let entries) = self else { return nil }
        var result: [String: DBusValue] = [:]
        result.reserveCapacity(entries.count)
        for entry in entries {
            guard let key = entry.key.string else { return nil }
            if case .variant(let inner) = entry.value { result[key] = inner } else { result[key] = entry.value }
        }
        return result
    }
}
