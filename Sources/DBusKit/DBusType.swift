import CDBus
import Glibc

/// A D-Bus type, as written in a signature ("s", "a{sv}", "(ii)", …).
public indirect enum DBusType: Hashable, Sendable, CustomStringConvertible {
    case byte, boolean, int16, uint16, int32, uint32, int64, uint64, double
    case string, objectPath, signature, unixFD, variant
    case array(DBusType)
    /// `a{kv}`: an array of dict entries, keyed by a basic type.
    case dictionary(key: DBusType, value: DBusType)
    case structure([DBusType])

    /// The signature of this single complete type.
    public var signature: String {
        switch self {
        case .byte: return "y"
        case .boolean: return "b"
        case .int16: return "n"
        case .uint16: return "q"
        case .int32: return "i"
        case .uint32: return "u"
        case .int64: return "x"
        case .uint64: return "t"
        case .double: return "d"
        case .string: return "s"
        case .objectPath: return "o"
        case .signature: return "g"
        case .unixFD: return "h"
        case .variant: return "v"
        case .array(let element): return "a" + element.signature
        case .dictionary(let key, let value): return "a{" + key.signature + value.signature + "}"
        case .structure(let fields): return "(" + fields.map(\.signature).joined() + ")"
        }
    }

    public var description: String { signature }

    /// Basic types are the only ones allowed as dictionary keys.
    public var isBasic: Bool {
        switch self {
        case .variant, .array, .dictionary, .structure: return false
        default: return true
        }
    }

    /// The type a signature of this one byte names (a basic type or a variant); nil for a byte
    /// that starts or closes a container.
    static func single(code: UInt8) -> DBusType? {
        switch code {
        case UInt8(ascii: "y"): .byte
        case UInt8(ascii: "b"): .boolean
        case UInt8(ascii: "n"): .int16
        case UInt8(ascii: "q"): .uint16
        case UInt8(ascii: "i"): .int32
        case UInt8(ascii: "u"): .uint32
        case UInt8(ascii: "x"): .int64
        case UInt8(ascii: "t"): .uint64
        case UInt8(ascii: "d"): .double
        case UInt8(ascii: "s"): .string
        case UInt8(ascii: "o"): .objectPath
        case UInt8(ascii: "g"): .signature
        case UInt8(ascii: "h"): .unixFD
        case UInt8(ascii: "v"): .variant
        default: nil
        }
    }

    /// The one byte of a basic type's or a variant's signature; nil for a container.
    var singleCode: UInt8? { isBasic || self == .variant ? signature.utf8.first : nil }

    /// The signature of a sequence of types, as in a message body.
    public static func signature(of types: [DBusType]) -> String {
        types.map(\.signature).joined()
    }

    /// Parses a whole signature (zero or more complete types).
    public static func parse(_ signature: String) throws(DBusError) -> [DBusType] {
        guard !signature.utf8.contains(0), dbus_signature_validate(signature, nil) != 0 else {
            throw DBusError(.invalidSignature, "\"\(signature.debugEscaped)\" is not a valid D-Bus signature")
        }
        return signature.withCString { parse(validated: $0) }
    }

    /// Parses a signature libdbus has already validated (a message's own), in place.
    static func parse(validated signature: UnsafePointer<CChar>) -> [DBusType] {
        let count = strlen(signature)
        return signature.withMemoryRebound(to: UInt8.self, capacity: count) { start in
            var parser = SignatureParser(bytes: UnsafeBufferPointer(start: start, count: count))
            var types: [DBusType] = []
            while !parser.atEnd { types.append(parser.parseOne()) }
            return types
        }
    }

    /// Parses a signature holding exactly one complete type.
    public static func parseSingle(_ signature: String) throws(DBusError) -> DBusType {
        let types = try parse(signature)
        guard types.count == 1 else {
            throw DBusError(.invalidSignature, "\"\(signature.debugEscaped)\" is not a single complete type")
        }
        return types[0]
    }
}

/// Parses signatures that libdbus has already validated, so it never meets malformed input.
private struct SignatureParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    var atEnd: Bool { index >= bytes.count }

    mutating func parseOne() -> DBusType {
        let code = bytes[index]
        index += 1
        if let single = DBusType.single(code: code) { return single }
        switch code {
        case UInt8(ascii: "a"):
            if bytes[index] == UInt8(ascii: "{") {
                index += 1
                let key = parseOne()
                let value = parseOne()
                index += 1  // "}"
                return .dictionary(key: key, value: value)
            }
            return .array(parseOne())
        case UInt8(ascii: "("):
            var fields: [DBusType] = []
            while bytes[index] != UInt8(ascii: ")") { fields.append(parseOne()) }
            index += 1
            return .structure(fields)
        default:
            preconditionFailure("signature was validated by libdbus")
        }
    }
}

extension String {
    /// The string with control characters and quotes escaped, cut to a readable length: safe to put in an error sentence.
    public var debugEscaped: String {
        var out = ""
        var count = 0
        for scalar in unicodeScalars {
            if count >= 80 { out += "…"; break }
            count += 1
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value < 0xA0):
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\u{" + hex + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
