import Localization

// Strings: basic, literal, multi-line, escapes.

extension Reader {
    mutating func basicString() throws(TOMLSyntaxError) -> String {
        advance()  // "
        var scalars = String.UnicodeScalarView()
        var start = index
        while true {
            guard let byte = current, byte != UInt8(ascii: "\n") else {
                throw fail(localized("the string is not closed with \""))
            }
            if byte == UInt8(ascii: "\"") {
                try appendText(start..<index, to: &scalars)
                advance()
                return String(scalars)
            }
            if byte == UInt8(ascii: "\\") {
                try appendText(start..<index, to: &scalars)
                scalars.append(try escape())
                start = index
                continue
            }
            try checkControl(byte)
            advance()
        }
    }

    mutating func multilineBasicString() throws(TOMLSyntaxError) -> String {
        let opened = line
        index += 3
        skipNewline()
        var scalars = String.UnicodeScalarView()
        var start = index
        while true {
            guard let byte = current else {
                throw TOMLSyntaxError(line: opened, reason: localized("the string is not closed with \"\"\""))
            }
            if let close = closingTriple(of: UInt8(ascii: "\"")) {
                try appendText(start..<close.textEnd, to: &scalars)
                index = close.next
                return String(scalars)
            }
            if byte == UInt8(ascii: "\\") {
                try appendText(start..<index, to: &scalars)
                // A backslash at the end of a line joins it with the next non-blank text.
                var probe = index + 1
                while probe < bytes.count, bytes[probe] == UInt8(ascii: " ") || bytes[probe] == UInt8(ascii: "\t") {
                    probe += 1
                }
                if isLineEnd(at: probe) {
                    index = probe
                    while current == UInt8(ascii: " ") || current == UInt8(ascii: "\t") || isLineEnd(at: index) {
                        advance()
                    }
                } else {
                    scalars.append(try escape())
                }
                start = index
                continue
            }
            // Line ends belong to the string; a carriage return on its own is a control character.
            if !isLineEnd(at: index) { try checkControl(byte) }
            advance()
        }
    }

    mutating func literalString() throws(TOMLSyntaxError) -> String {
        advance()  // '
        let start = index
        while true {
            guard let byte = current, byte != UInt8(ascii: "\n") else {
                throw fail(localized("the string is not closed with '"))
            }
            if byte == UInt8(ascii: "'") {
                var scalars = String.UnicodeScalarView()
                try appendText(start..<index, to: &scalars)
                advance()
                return String(scalars)
            }
            if byte != UInt8(ascii: "\t") { try checkControl(byte) }
            advance()
        }
    }

    mutating func multilineLiteralString() throws(TOMLSyntaxError) -> String {
        let opened = line
        index += 3
        skipNewline()
        let start = index
        while true {
            guard let byte = current else {
                throw TOMLSyntaxError(line: opened, reason: localized("the string is not closed with '''"))
            }
            if let close = closingTriple(of: UInt8(ascii: "'")) {
                var scalars = String.UnicodeScalarView()
                try appendText(start..<close.textEnd, to: &scalars)
                index = close.next
                return String(scalars)
            }
            if byte != UInt8(ascii: "\t"), !isLineEnd(at: index) { try checkControl(byte) }
            advance()
        }
    }

    /// At the three quotes that close a multi-line string: where its text ends, and where what
    /// follows starts. Up to two more quotes right before the closing three belong to the string.
    private func closingTriple(of quote: UInt8) -> (textEnd: Int, next: Int)? {
        guard current == quote, peek(1) == quote, peek(2) == quote else { return nil }
        var end = index + 3
        while end < bytes.count, bytes[end] == quote, end - index < 5 { end += 1 }
        return (end - 3, end)
    }

    mutating func skipNewline() {
        if current == UInt8(ascii: "\r"), peek(1) == UInt8(ascii: "\n") { index += 1 }
        if current == UInt8(ascii: "\n") { advance() }
    }

    /// `\n`, `\u00e9`, …, after the backslash at `index`.
    mutating func escape() throws(TOMLSyntaxError) -> Unicode.Scalar {
        advance()  // backslash
        guard let byte = current else { throw fail(localized("the string ends inside an escape")) }
        advance()
        switch byte {
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "e"): return "\u{1B}"
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "u"), UInt8(ascii: "U"):
            let count = byte == UInt8(ascii: "u") ? 4 : 8
            guard index + count <= bytes.count,
                let code = UInt32(String(decoding: bytes[index..<(index + count)], as: UTF8.self), radix: 16),
                let scalar = Unicode.Scalar(code)
            else {
                throw fail(
                    localized(
                        "\\%1$s must be followed by %2$d hex digits of a Unicode scalar",
                        Character(Unicode.Scalar(byte)), count))
            }
            index += count
            return scalar
        default:
            guard byte >= 0x21 && byte < 0x7F else {
                throw fail(localized("a backslash followed by %1$s is not a TOML escape", describe(byte)))
            }
            throw fail(localized("\\%1$s is not a TOML escape", Character(Unicode.Scalar(byte))))
        }
    }

    /// Appends raw bytes of a string, refusing what is not UTF-8.
    func appendText(_ range: Range<Int>, to scalars: inout String.UnicodeScalarView) throws(TOMLSyntaxError) {
        guard let text = String(validating: bytes[range], as: UTF8.self) else {
            throw fail(localized("the string is not valid UTF-8"))
        }
        scalars.append(contentsOf: text.unicodeScalars)
    }

    func checkControl(_ byte: UInt8) throws(TOMLSyntaxError) {
        if byte < 0x20 && byte != UInt8(ascii: "\t") || byte == 0x7F {
            throw fail(localized("control character %1$s in a string; write it as an escape", describe(byte)))
        }
    }
}
