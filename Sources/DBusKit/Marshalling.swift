import CDBus
import Glibc

// Validating values, and reading and writing message bodies with libdbus's iterators (the bodies
// written in pieces: `MessageWriter`; those written whole go through `WireFormat`; a body that
// holds an array is read from its bytes by `WireReader`, see `readBody`).

enum Marshalling {
    /// Throws unless every value can be appended without libdbus aborting: strings valid,
    /// paths and signatures valid, array elements of the declared type, dict keys basic.
    static func validate(_ value: DBusValue) throws(DBusError) {
        switch value {
        case .string(let s):
            guard DBusValidation.isValidString(s) else {
                throw DBusError(.invalidArgs, "string \"\(s.debugEscaped)\" contains NUL or invalid UTF-8")
            }
        case .objectPath(let p):
            guard DBusValidation.isValidObjectPath(p) else {
                throw DBusError(.invalidArgs, "\"\(p.debugEscaped)\" is not a valid object path")
            }
        case .signature(let g):
            guard DBusValidation.isValidSignature(g) else {
                throw DBusError(.invalidArgs, "\"\(g.debugEscaped)\" is not a valid signature")
            }
        case .variant(let inner):
            try validate(inner)
        case .array(let elementType, let elements):
            try checkSignature(of: .array(elementType), around: elementType)
            for element in elements {
                guard element.hasType(elementType) else {
                    throw DBusError(.invalidArgs, "array of \(elementType) holds a \(element.type)")
                }
                try validate(element)
            }
        case .dictionary(let keyType, let valueType, let entries):
            guard keyType.isBasic else {
                throw DBusError(.invalidArgs, "dictionary key type \(keyType) is not basic")
            }
            try checkSignature(of: .dictionary(key: keyType, value: valueType), around: valueType)
            for entry in entries {
                guard entry.key.hasType(keyType), entry.value.hasType(valueType) else {
                    throw DBusError(
                        .invalidArgs,
                        "dictionary a{\(keyType)\(valueType)} holds a \(entry.key.type) → \(entry.value.type) entry")
                }
                try validate(entry.key)
                try validate(entry.value)
            }
        case .structure(let fields):
            guard !fields.isEmpty else { throw DBusError(.invalidArgs, "a structure needs at least one field") }
            for field in fields { try validate(field) }
        default:
            break
        }
    }

    /// Throws unless `container`'s signature is one D-Bus allows (nesting, length). Parsed only
    /// when what it holds, `inner`, is itself a container: around a basic type or a variant it
    /// always is, and those are most of what restd sends.
    private static func checkSignature(of container: DBusType, around inner: DBusType) throws(DBusError) {
        guard !inner.isBasic, inner != .variant else { return }
        _ = try DBusType.parseSingle(container.signature)
    }

    /// Appends a validated value. Returns false only when libdbus is out of memory.
    static func append(_ value: DBusValue, to iter: inout DBusMessageIter) -> Bool {
        switch value {
        case .byte(var v): return dbus_message_iter_append_basic(&iter, CDBUS_TYPE_BYTE, &v) != 0
        case .boolean(let b):
            var v: dbus_bool_t = b ? 1 : 0
            return dbus_message_iter_append_basic(&iter, CDBUS_TYPE_BOOLEAN, &v) != 0
        case .int16(var v): return dbus_message_iter_append_basic(&iter, CDBUS_TYPE_INT16, &v) != 0
        case .uint16(var v): return dbus_message_iter_append_basic(&iter, CDBUS_TYPE_UINT16, &v) != 0
        case .int32(var v): return dbus_message_iter_append_basic(&iter, CDBUS_TYPE_INT32, &v) != 0
        case .uint32(var v): return dbus_message_iter_append_basic(&iter, CDBUS_TYPE_UINT32, &v) != 0
        case .int64(var v): return dbus_message_iter_append_basic(&iter, CDBUS_TYPE_INT64, &v) != 0
        case .uint64(var v): return dbus_message_iter_append_basic(&iter, CDBUS_TYPE_UINT64, &v) != 0
        case .double(var v): return dbus_message_iter_append_basic(&iter, CDBUS_TYPE_DOUBLE, &v) != 0
        case .unixFD(var v): return dbus_message_iter_append_basic(&iter, CDBUS_TYPE_UNIX_FD, &v) != 0
        case .string(let s): return appendString(s, type: CDBUS_TYPE_STRING, to: &iter)
        case .objectPath(let s): return appendString(s, type: CDBUS_TYPE_OBJECT_PATH, to: &iter)
        case .signature(let s): return appendString(s, type: CDBUS_TYPE_SIGNATURE, to: &iter)
        case .variant(let inner):
            return withContainer(CDBUS_TYPE_VARIANT, signature: inner.type.signature, in: &iter) { sub in
                append(inner, to: &sub)
            }
        case .array(let elementType, let elements):
            return withContainer(CDBUS_TYPE_ARRAY, signature: elementType.signature, in: &iter) { sub in
                elements.allSatisfy { append($0, to: &sub) }
            }
        case .dictionary(let keyType, let valueType, let entries):
            let entrySignature = "{" + keyType.signature + valueType.signature + "}"
            return withContainer(CDBUS_TYPE_ARRAY, signature: entrySignature, in: &iter) { sub in
                entries.allSatisfy { entry in
                    withContainer(CDBUS_TYPE_DICT_ENTRY, signature: nil, in: &sub) { pair in
                        append(entry.key, to: &pair) && append(entry.value, to: &pair)
                    }
                }
            }
        case .structure(let fields):
            return withContainer(CDBUS_TYPE_STRUCT, signature: nil, in: &iter) { sub in
                fields.allSatisfy { append($0, to: &sub) }
            }
        }
    }

    private static func appendString(_ string: String, type: Int32, to iter: inout DBusMessageIter) -> Bool {
        string.withCString { pointer in
            // libdbus wants the address of the char pointer, not the pointer itself.
            var cString: UnsafePointer<CChar>? = pointer
            return dbus_message_iter_append_basic(&iter, type, &cString) != 0
        }
    }

    private static func withContainer(
        _ type: Int32, signature: String?, in iter: inout DBusMessageIter,
        _ body: (inout DBusMessageIter) -> Bool
    ) -> Bool {
        var sub = DBusMessageIter()
        let opened: Bool
        if let signature {
            opened = signature.withCString { dbus_message_iter_open_container(&iter, type, $0, &sub) != 0 }
        } else {
            opened = dbus_message_iter_open_container(&iter, type, nil, &sub) != 0
        }
        guard opened else { return false }
        guard body(&sub) else {
            dbus_message_iter_abandon_container(&iter, &sub)
            return false
        }
        return dbus_message_iter_close_container(&iter, &sub) != 0
    }

    /// Reads every value from the iterator's position to the end of its container; `types`,
    /// when known, are theirs in order (the last one repeats: an array's elements share one).
    static func readAll(_ iter: inout DBusMessageIter, types: [DBusType] = []) -> [DBusValue] {
        var values: [DBusValue] = []
        while dbus_message_iter_get_arg_type(&iter) != CDBUS_TYPE_INVALID {
            values.append(read(&iter, type: types.isEmpty ? nil : types[min(values.count, types.count - 1)]))
            dbus_message_iter_next(&iter)
        }
        return values
    }

    /// Reads the value at the iterator's position (libdbus has validated incoming messages).
    /// `type`, when the caller knows it (an element of an array, a field of a structure), spares
    /// asking libdbus for a container's signature and parsing it: once per record of a history
    /// page otherwise.
    static func read(_ iter: inout DBusMessageIter, type known: DBusType? = nil) -> DBusValue {
        let code = dbus_message_iter_get_arg_type(&iter)
        switch code {
        case CDBUS_TYPE_BYTE: return .byte(basic(&iter, UInt8(0)))
        case CDBUS_TYPE_BOOLEAN: return .boolean(basic(&iter, dbus_bool_t(0)) != 0)
        case CDBUS_TYPE_INT16: return .int16(basic(&iter, Int16(0)))
        case CDBUS_TYPE_UINT16: return .uint16(basic(&iter, UInt16(0)))
        case CDBUS_TYPE_INT32: return .int32(basic(&iter, Int32(0)))
        case CDBUS_TYPE_UINT32: return .uint32(basic(&iter, UInt32(0)))
        case CDBUS_TYPE_INT64: return .int64(basic(&iter, Int64(0)))
        case CDBUS_TYPE_UINT64: return .uint64(basic(&iter, UInt64(0)))
        case CDBUS_TYPE_DOUBLE: return .double(basic(&iter, Double(0)))
        case CDBUS_TYPE_UNIX_FD: return .unixFD(basic(&iter, Int32(-1)))
        case CDBUS_TYPE_STRING: return .string(readString(&iter))
        case CDBUS_TYPE_OBJECT_PATH: return .objectPath(readString(&iter))
        case CDBUS_TYPE_SIGNATURE: return .signature(readString(&iter))
        case CDBUS_TYPE_VARIANT:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            return .variant(read(&sub))
        case CDBUS_TYPE_STRUCT:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            if case .structure(let fields) = known { return .structure(readAll(&sub, types: fields)) }
            return .structure(readAll(&sub))
        case CDBUS_TYPE_ARRAY:
            let arrayType = known ?? currentType(&iter)
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            if case .dictionary(let keyType, let valueType) = arrayType {
                var entries: [DBusValue.DictEntry] = []
                while dbus_message_iter_get_arg_type(&sub) == CDBUS_TYPE_DICT_ENTRY {
                    var pair = DBusMessageIter()
                    dbus_message_iter_recurse(&sub, &pair)
                    let key = read(&pair, type: keyType)
                    dbus_message_iter_next(&pair)
                    let value = read(&pair, type: valueType)
                    entries.append(.init(key, value))
                    dbus_message_iter_next(&sub)
                }
                return .dictionary(key: keyType, value: valueType, entries)
            }
            guard case .array(let elementType) = arrayType else { preconditionFailure("array iterator") }
            return .array(elementType, readAll(&sub, types: [elementType]))
        default:
            preconditionFailure("unexpected D-Bus type code \(code) in a validated message")
        }
    }

    private static func basic<T: BitwiseCopyable>(_ iter: inout DBusMessageIter, _ initial: T) -> T {
        var value = initial
        dbus_message_iter_get_basic(&iter, &value)
        return value
    }

    static func readString(_ iter: inout DBusMessageIter) -> String {
        var pointer: UnsafePointer<CChar>? = nil
        dbus_message_iter_get_basic(&iter, &pointer)
        return pointer.map { String(cString: $0) } ?? ""
    }

    private static func currentType(_ iter: inout DBusMessageIter) -> DBusType {
        guard let raw = dbus_message_iter_get_signature(&iter) else { preconditionFailure("out of memory") }
        defer { dbus_free(raw) }
        let signature = String(cString: raw)
        guard let type = try? DBusType.parseSingle(signature) else {
            preconditionFailure("libdbus signature \(signature)")
        }
        return type
    }
}

extension Marshalling {
    /// Every value of the message's body. A body that holds an array (a list, a dictionary: what
    /// grows) is read straight from its bytes (`WireReader`); one of a few values, or one that
    /// carries file descriptors, through libdbus's iterator. For a few values the iterator's
    /// call or two each cost less than the copy of the message the reader starts with.
    static func readBody(of message: OpaquePointer) -> [DBusValue] {
        guard let signature = dbus_message_get_signature(message), signature.pointee != 0 else { return [] }
        guard strchr(signature, Int32(UInt8(ascii: "a"))) != nil, dbus_message_contains_unix_fds(message) == 0 else {
            return readBodyWithIterator(of: message)
        }
        let types = DBusType.parse(validated: signature)
        return WireReader.withBody(of: message) { reader in
            let values = reader.read(types)
            assert(values == nil || reader.atEnd, "the body has bytes past its signature's values")
            return values
        } ?? readBodyWithIterator(of: message)
    }

    /// Every value of the message's body, through libdbus's iterator: what turns a descriptor's
    /// index into a descriptor of the reader's own.
    static func readBodyWithIterator(of message: OpaquePointer) -> [DBusValue] {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(message, &iter) != 0 else { return [] }
        return readAll(&iter)
    }

    /// The body's first value, through libdbus's iterator; only that one, as each descriptor the
    /// iterator reads is a new one that its reader must close.
    private static func readFirstValueWithIterator(of message: OpaquePointer) -> DBusValue? {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(message, &iter) != 0 else { return nil }
        return read(&iter)
    }

    /// Reads the body's first value, an `aa{sv}`, as one dictionary per record, variants
    /// unwrapped; nil when that value is something else. From the bytes, no `DBusValue` tree of
    /// dictionary entries and variants is built, then converted, then freed; a body with
    /// descriptors is read as a tree, then converted.
    static func readRecords(firstOf message: OpaquePointer) -> [[String: DBusValue]]? {
        guard firstValueIsOfType(message, "aa{sv}") else { return nil }
        if let records = WireReader.withBody(of: message, { $0.readRecords() }) { return records }
        return readFirstValueWithIterator(of: message)?.arrayElements?.compactMap(\.vardictEntries)
    }

    /// Reads the body's first value, an `a{sv}`, as a dictionary, variants unwrapped (what
    /// `arguments().first?.vardictEntries` gives, without the tree); nil when that value is
    /// something else. From the bytes or the iterator, as `readRecords`.
    static func readVardict(firstOf message: OpaquePointer) -> [String: DBusValue]? {
        guard firstValueIsOfType(message, "a{sv}") else { return nil }
        if let dictionary = WireReader.withBody(of: message, { $0.readVardict() }) { return dictionary }
        return readFirstValueWithIterator(of: message)?.vardictEntries
    }

    /// Whether the body's first value has the single complete type `type`: exactly when the
    /// body's signature starts with that type's. libdbus keeps the signature in the header, so
    /// nothing is copied.
    private static func firstValueIsOfType(_ message: OpaquePointer, _ type: StaticString) -> Bool {
        guard let signature = dbus_message_get_signature(message) else { return false }
        return type.withUTF8Buffer { prefix in
            UnsafeRawBufferPointer(prefix).withMemoryRebound(to: CChar.self) {
                strncmp(signature, $0.baseAddress!, $0.count) == 0
            }
        }
    }
}
