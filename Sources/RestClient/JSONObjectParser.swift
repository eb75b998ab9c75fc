import DBusKit
import Localization
import RestCore

/// A small JSON reader for one flat object per line: `{"heart_rate":142,"exercise":"Bench press"}`.
///
/// Keys are strings; values are strings, numbers or true/false, typed by key as `LiveInput`
/// says. Nested objects and arrays, null, duplicate keys, an empty object and anything after
/// the closing brace are refused with a sentence giving the character position (from 1).
/// Strings follow RFC 8259: the escapes `\" \\ \/ \b \f \n \r \t \uXXXX` (surrogate pairs
/// joined, lone surrogates refused), and no raw control characters. U+0000 is refused too,
/// as D-Bus strings cannot carry it.
enum JSONObjectParser {
    static func parseFields(_ bytes: [UInt8]) throws(InputError) -> [String: DBusValue] {
        var parser = Parser(bytes: bytes)
        return try parser.object()
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func object() throws(InputError) -> [String: DBusValue] {
            skipWhitespace()
            try expect("{", localizedInContext("expected \"{\" …", "the object"))
            var fields: [String: DBusValue] = [:]
            skipWhitespace()
            if peek == UInt8(ascii: "}") {
                throw InputError(localized("JSON: the object sets no field"))
            }
            while true {
                skipWhitespace()
                guard peek == UInt8(ascii: "\"") else { throw error(localized("expected a key in double quotes")) }
                let key = try string()
                skipWhitespace()
                try expect(":", localized("after the key %1$s", LiveInput.shown(key)))
                skipWhitespace()
                let value = try self.value(key: key)
                guard fields[key] == nil else {
                    throw InputError(localized("JSON: %1$s is given twice", LiveInput.shown(key)))
                }
                fields[key] = value
                skipWhitespace()
                if peek == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                if peek == UInt8(ascii: "}") {
                    index += 1
                    break
                }
                throw error(localized("expected \",\" or \"}\" after the value of %1$s", LiveInput.shown(key)))
            }
            skipWhitespace()
            guard index == bytes.count else { throw error(localized("unexpected text after the object")) }
            return fields
        }

        private mutating func value(key: String) throws(InputError) -> DBusValue {
            guard let byte = peek else { throw error(localized("the value of %1$s is missing", LiveInput.shown(key))) }
            switch byte {
            case UInt8(ascii: "\""):
                return try LiveInput.typed(key: key, .text(try string()))
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let length = LiveInput.numberLength(bytes, from: index)
                guard length > 0 else { throw error(localized("invalid number for %1$s", LiveInput.shown(key))) }
                let text = String(decoding: bytes[index..<(index + length)], as: UTF8.self)
                index += length
                return try LiveInput.typed(key: key, .number(text))
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                if consume("true") { return try LiveInput.typed(key: key, .boolean(true)) }
                if consume("false") { return try LiveInput.typed(key: key, .boolean(false)) }
                if consume("null") {
                    throw InputError(localized("JSON: %1$s is null; leave the key out instead", LiveInput.shown(key)))
                }
                throw error(localized("invalid value for %1$s", LiveInput.shown(key)))
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                throw InputError(
                    byte == UInt8(ascii: "{")
                        ? localized(
                            "JSON: %1$s is an object; values are strings, numbers, true or false", LiveInput.shown(key))
                        : localized(
                            "JSON: %1$s is an array; values are strings, numbers, true or false", LiveInput.shown(key)))
            default:
                throw error(localized("invalid value for %1$s", LiveInput.shown(key)))
            }
        }

        /// A string literal; `index` is on its opening quote.
        private mutating func string() throws(InputError) -> String {
            let start = index
            index += 1
            var out: [UInt8] = []
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    return String(decoding: out, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    try escape(into: &out)
                case 0x00..<0x20:
                    throw error(localized("a control character in a string must be escaped"))
                default:
                    out.append(byte)
                    index += 1
                }
            }
            throw InputError(localized("JSON: the string at character %1$s has no closing quote", position(start)))
        }

        /// One escape sequence; `index` is on the backslash.
        private mutating func escape(into out: inout [UInt8]) throws(InputError) {
            let start = index
            guard index + 1 < bytes.count else { throw error(localized("a backslash ends the line")) }
            let letter = bytes[index + 1]
            index += 2
            let simple: UInt8?
            switch letter {
            case UInt8(ascii: "\""): simple = 0x22
            case UInt8(ascii: "\\"): simple = 0x5C
            case UInt8(ascii: "/"): simple = 0x2F
            case UInt8(ascii: "b"): simple = 0x08
            case UInt8(ascii: "f"): simple = 0x0C
            case UInt8(ascii: "n"): simple = 0x0A
            case UInt8(ascii: "r"): simple = 0x0D
            case UInt8(ascii: "t"): simple = 0x09
            case UInt8(ascii: "u"): simple = nil
            default:
                index = start
                throw error(localized("invalid escape; use \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX"))
            }
            if let simple {
                out.append(simple)
                return
            }
            var scalar = try hex4(escapeAt: start)
            if (0xDC00...0xDFFF).contains(scalar) {
                index = start
                throw error(localized("\\u%1$s is a lone low surrogate", hexText(scalar)))
            }
            if (0xD800...0xDBFF).contains(scalar) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else {
                    index = start
                    throw error(localized("\\u%1$s is a high surrogate without its low surrogate", hexText(scalar)))
                }
                let lowStart = index
                index += 2
                let low = try hex4(escapeAt: lowStart)
                guard (0xDC00...0xDFFF).contains(low) else {
                    index = start
                    throw error(localized("\\u%1$s is a high surrogate without its low surrogate", hexText(scalar)))
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard scalar != 0 else {
                index = start
                throw error(localized("\\u0000 cannot be sent over D-Bus"))
            }
            out.append(contentsOf: Array(String(Unicode.Scalar(scalar)!).utf8))
        }

        /// Four hex digits after `\u`.
        private mutating func hex4(escapeAt start: Int) throws(InputError) -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard index < bytes.count, let digit = hexDigit(bytes[index]) else {
                    index = start
                    throw error(localized("\\u needs four hex digits"))
                }
                value = value << 4 | digit
                index += 1
            }
            return value
        }

        private func hexDigit(_ byte: UInt8) -> UInt32? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
            default: nil
            }
        }

        private func hexText(_ value: UInt32) -> String {
            let hex = String(value, radix: 16, uppercase: true)
            return String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }

        private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        private mutating func skipWhitespace() {
            while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
        }

        private mutating func expect(_ character: Unicode.Scalar, _ context: String) throws(InputError) {
            guard peek == UInt8(ascii: character) else {
                throw error(localized("expected \"%1$s\" %2$s", character, context))
            }
            index += 1
        }

        private mutating func consume(_ word: String) -> Bool {
            let word = Array(word.utf8)
            guard index + word.count <= bytes.count, Array(bytes[index..<(index + word.count)]) == word else {
                return false
            }
            // `truex` is not `true`: the word must end here.
            let end = index + word.count
            if end < bytes.count, isWordByte(bytes[end]) { return false }
            index = end
            return true
        }

        private func isWordByte(_ byte: UInt8) -> Bool {
            LiveInput.isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || byte == UInt8(ascii: "_")
        }

        /// A sentence about the character at `index`.
        private func error(_ what: String) -> InputError {
            InputError(localized("JSON: %1$s at character %2$s", what, position(index)))
        }

        /// The position of byte `offset` counted in characters from 1 (bytes of a
        /// multi-byte character count once).
        private func position(_ offset: Int) -> Int {
            bytes[..<min(offset, bytes.count)].reduce(1) { count, byte in byte & 0xC0 == 0x80 ? count : count + 1 }
        }
    }
}
