import CDBus
import DBusKit

/// Building and reading libdbus messages directly, for the measured paths: a call is a
/// `dbus_message_copy` of a template, a reply is popped and counted without dispatching,
/// so the bench's own cost per call stays small next to the bus's and restd's. Every name
/// and string here is the bench's own and valid, which libdbus requires (it aborts otherwise).
enum RawMessage {
    /// A new method call; the caller owns it (`dbus_message_unref`).
    static func call(
        _ destination: String, _ path: String, _ interface: String, _ member: String,
        _ arguments: [DBusValue] = []
    ) -> OpaquePointer {
        guard let message = dbus_message_new_method_call(destination, path, interface, member) else {
            fatalError("out of memory")
        }
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(message, &iter)
        for argument in arguments { append(argument, to: &iter) }
        return message
    }

    /// Appends one value (the types the bench sends: basic types, variants, string-keyed
    /// dictionaries and string arrays).
    static func append(_ value: DBusValue, to iter: inout DBusMessageIter) {
        switch value {
        case .boolean(let b):
            var v: dbus_bool_t = b ? 1 : 0
            dbus_message_iter_append_basic(&iter, CDBUS_TYPE_BOOLEAN, &v)
        case .int32(var v): dbus_message_iter_append_basic(&iter, CDBUS_TYPE_INT32, &v)
        case .uint32(var v): dbus_message_iter_append_basic(&iter, CDBUS_TYPE_UINT32, &v)
        case .int64(var v): dbus_message_iter_append_basic(&iter, CDBUS_TYPE_INT64, &v)
        case .uint64(var v): dbus_message_iter_append_basic(&iter, CDBUS_TYPE_UINT64, &v)
        case .double(var v): dbus_message_iter_append_basic(&iter, CDBUS_TYPE_DOUBLE, &v)
        case .string(let s), .objectPath(let s):
            let type = value.type == .string ? CDBUS_TYPE_STRING : CDBUS_TYPE_OBJECT_PATH
            s.withCString { pointer in
                var p: UnsafePointer<CChar>? = pointer
                dbus_message_iter_append_basic(&iter, type, &p)
            }
        case .variant(let inner):
            var sub = DBusMessageIter()
            dbus_message_iter_open_container(&iter, CDBUS_TYPE_VARIANT, inner.type.signature, &sub)
            append(inner, to: &sub)
            dbus_message_iter_close_container(&iter, &sub)
        case .array(let element, let elements):
            var sub = DBusMessageIter()
            dbus_message_iter_open_container(&iter, CDBUS_TYPE_ARRAY, element.signature, &sub)
            for e in elements { append(e, to: &sub) }
            dbus_message_iter_close_container(&iter, &sub)
        case .dictionary(let key, let valueType, let entries):
            var sub = DBusMessageIter()
            dbus_message_iter_open_container(
                &iter, CDBUS_TYPE_ARRAY, "{" + key.signature + valueType.signature + "}", &sub)
            for entry in entries {
                var pair = DBusMessageIter()
                dbus_message_iter_open_container(&sub, CDBUS_TYPE_DICT_ENTRY, nil, &pair)
                append(entry.key, to: &pair)
                append(entry.value, to: &pair)
                dbus_message_iter_close_container(&sub, &pair)
            }
            dbus_message_iter_close_container(&iter, &sub)
        default:
            fatalError("restd-bench does not send \(value.type.signature)")
        }
    }

    /// The body of a message, read into values (arrays are typed loosely: the bench only reads them).
    static func arguments(_ message: OpaquePointer) -> [DBusValue] {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(message, &iter) != 0 else { return [] }
        return readAll(&iter)
    }

    private static func readAll(_ iter: inout DBusMessageIter) -> [DBusValue] {
        var values: [DBusValue] = []
        while dbus_message_iter_get_arg_type(&iter) != CDBUS_TYPE_INVALID {
            values.append(read(&iter))
            dbus_message_iter_next(&iter)
        }
        return values
    }

    private static func read(_ iter: inout DBusMessageIter) -> DBusValue {
        let type = dbus_message_iter_get_arg_type(&iter)
        switch type {
        case CDBUS_TYPE_BOOLEAN: return .boolean(basic(&iter, dbus_bool_t(0)) != 0)
        case CDBUS_TYPE_BYTE: return .byte(basic(&iter, UInt8(0)))
        case CDBUS_TYPE_INT16: return .int16(basic(&iter, Int16(0)))
        case CDBUS_TYPE_UINT16: return .uint16(basic(&iter, UInt16(0)))
        case CDBUS_TYPE_INT32: return .int32(basic(&iter, Int32(0)))
        case CDBUS_TYPE_UINT32: return .uint32(basic(&iter, UInt32(0)))
        case CDBUS_TYPE_INT64: return .int64(basic(&iter, Int64(0)))
        case CDBUS_TYPE_UINT64: return .uint64(basic(&iter, UInt64(0)))
        case CDBUS_TYPE_DOUBLE: return .double(basic(&iter, Double(0)))
        case CDBUS_TYPE_STRING, CDBUS_TYPE_OBJECT_PATH, CDBUS_TYPE_SIGNATURE:
            var p: UnsafePointer<CChar>?
            dbus_message_iter_get_basic(&iter, &p)
            let s = p.map { String(cString: $0) } ?? ""
            return type == CDBUS_TYPE_STRING
                ? .string(s) : type == CDBUS_TYPE_OBJECT_PATH ? .objectPath(s) : .signature(s)
        case CDBUS_TYPE_VARIANT:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            return .variant(read(&sub))
        case CDBUS_TYPE_ARRAY:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            if dbus_message_iter_get_element_type(&iter) == CDBUS_TYPE_DICT_ENTRY {
                var entries: [DBusValue.DictEntry] = []
                var keyType = DBusType.string
                while dbus_message_iter_get_arg_type(&sub) != CDBUS_TYPE_INVALID {
                    var pair = DBusMessageIter()
                    dbus_message_iter_recurse(&sub, &pair)
                    let key = read(&pair)
                    keyType = key.type
                    dbus_message_iter_next(&pair)
                    entries.append(.init(key, read(&pair)))
                    dbus_message_iter_next(&sub)
                }
                return .dictionary(key: keyType, value: .variant, entries)
            }
            return .array(.variant, readAll(&sub))
        case CDBUS_TYPE_STRUCT:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            return .structure(readAll(&sub))
        default:
            return .string("<\(type)>")
        }
    }

    /// The fixed-size basic value at `iter` (the caller has checked its type).
    private static func basic<T: BitwiseCopyable>(_ iter: inout DBusMessageIter, _ initial: T) -> T {
        var value = initial
        dbus_message_iter_get_basic(&iter, &value)
        return value
    }
}

/// One message popped from a connection's queue, with what the bench looks at.
struct ReceivedMessage: Sendable {
    enum Kind: Sendable { case reply, error, signal, call }
    let kind: Kind
    let interface: String
    let member: String
    let path: String
    let errorName: String
    let arguments: [DBusValue]

    /// Reads (and does not release) a libdbus message.
    init(_ message: OpaquePointer) {
        switch dbus_message_get_type(message) {
        case CDBUS_MESSAGE_TYPE_METHOD_RETURN: kind = .reply
        case CDBUS_MESSAGE_TYPE_ERROR: kind = .error
        case CDBUS_MESSAGE_TYPE_SIGNAL: kind = .signal
        default: kind = .call
        }
        interface = dbus_message_get_interface(message).map { String(cString: $0) } ?? ""
        member = dbus_message_get_member(message).map { String(cString: $0) } ?? ""
        path = dbus_message_get_path(message).map { String(cString: $0) } ?? ""
        errorName = dbus_message_get_error_name(message).map { String(cString: $0) } ?? ""
        arguments = RawMessage.arguments(message)
    }
}
