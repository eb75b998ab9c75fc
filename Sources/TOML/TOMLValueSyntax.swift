import Localization

// Values: arrays, inline tables, booleans, numbers, date-times.

extension Reader {
    mutating func value() throws(TOMLSyntaxError) -> TOMLValue {
        let valueLine = line
        guard let byte = current else { throw fail(localized("expected a value after =")) }
        switch byte {
        case UInt8(ascii: "\""):
            let isMultiline = peek(1) == UInt8(ascii: "\"") && peek(2) == UInt8(ascii: "\"")
            return TOMLValue(.string(isMultiline ? try multilineBasicString() : try basicString()), line: valueLine)
        case UInt8(ascii: "'"):
            let isMultiline = peek(1) == UInt8(ascii: "'") && peek(2) == UInt8(ascii: "'")
            return TOMLValue(.string(isMultiline ? try multilineLiteralString() : try literalString()), line: valueLine)
        case UInt8(ascii: "["):
            return TOMLValue(.array(try array()), line: valueLine)
        case UInt8(ascii: "{"):
            return TOMLValue(.table(try inlineTable()), line: valueLine)
        default:
            return TOMLValue(try scalar(), line: valueLine)
        }
    }

    /// Booleans, numbers and date-times: the word up to the next delimiter.
    mutating func scalar() throws(TOMLSyntaxError) -> TOMLValue.Kind {
        let start = index
        while let byte = current, !Self.endsScalar(byte) { advance() }
        // A date and time may be separated by one space: "1979-05-27 07:32:00".
        if index - start == 10, current == UInt8(ascii: " "), let next = peek(1), next >= 0x30, next <= 0x39,
            bytes[start + 4] == UInt8(ascii: "-")
        {
            advance()
            while let byte = current, !Self.endsScalar(byte) { advance() }
        }
        let word = String(decoding: bytes[start..<index], as: UTF8.self)
        guard !word.isEmpty else {
            throw fail(localized("expected a value, found %1$s", describe(current)))
        }
        if word == "true" { return .boolean(true) }
        if word == "false" { return .boolean(false) }
        if let literal = Self.integerLiteral(word) {
            guard let integer = Int64(literal.digits, radix: literal.radix) else {
                throw fail(localized("%1$s does not fit in a 64-bit integer", word))
            }
            return .integer(integer)
        }
        if let float = Self.float(word) { return .float(float) }
        if Self.looksLikeDateTime(word) {
            if let problem = Self.dateTimeProblem(word) {
                throw fail(localized("%1$s is not a valid date or time: %2$s", word, problem))
            }
            return .dateTime(word)
        }
        throw fail(localized("%1$s is not a TOML value (strings need quotes)", word))
    }

    static func endsScalar(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
            || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]")
            || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "#")
    }

    /// The digits of an integer (with a minus sign, if any) and their radix; nil when `word` is not
    /// written as a TOML integer.
    static func integerLiteral(_ word: String) -> (digits: String, radix: Int)? {
        var text = Substring(word)
        for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] where text.hasPrefix(prefix) {
            text = text.dropFirst(2)
            // Digits and underscores only: Int64(_:radix:) alone would also take a sign ("0x-1").
            let isDigit = { (character: Character) in character.hexDigitValue.map { $0 < radix } ?? false }
            guard !text.isEmpty, text.allSatisfy({ $0 == "_" || ($0.isASCII && isDigit($0)) }), validUnderscores(text)
            else { return nil }
            return (String(text.filter { $0 != "_" }), radix)
        }
        var sign = ""
        if let first = text.first, first == "+" || first == "-" {
            sign = first == "-" ? "-" : ""
            text = text.dropFirst()
        }
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "_") }), validUnderscores(text),
            text == "0" || !text.hasPrefix("0")
        else { return nil }
        return (sign + text.filter { $0 != "_" }, 10)
    }

    static func float(_ word: String) -> Double? {
        var text = Substring(word)
        var negative = false
        if let first = text.first, first == "+" || first == "-" {
            negative = first == "-"
            text = text.dropFirst()
        }
        if text == "inf" { return negative ? -.infinity : .infinity }
        if text == "nan" { return .nan }
        // Digits, then a fraction and/or an exponent; each part with digits on both sides of "_".
        let parts = text.split(separator: "e", maxSplits: 1, omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "E", maxSplits: 1, omittingEmptySubsequences: false) }
        guard let mantissa = parts.first, parts.count <= 2 else { return nil }
        let halves = mantissa.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        func digits(_ part: Substring) -> Bool {
            !part.isEmpty && part.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "_") } && validUnderscores(part)
        }
        guard digits(halves[0]), halves[0] == "0" || !halves[0].hasPrefix("0") else { return nil }
        if halves.count == 2 { guard digits(halves[1]) else { return nil } }
        if parts.count == 2 {
            var exponent = parts[1]
            if let first = exponent.first, first == "+" || first == "-" { exponent = exponent.dropFirst() }
            guard digits(exponent) else { return nil }
        }
        guard halves.count == 2 || parts.count == 2 else { return nil }
        guard let value = Double(String(text.filter { $0 != "_" })) else { return nil }
        return negative ? -value : value
    }

    /// Underscores only between digits. Not `contains("__")`: that overload is _StringProcessing's,
    /// and calling it links the regex engine (1.2 MB) into restd.
    static func validUnderscores(_ text: Substring) -> Bool {
        !text.hasPrefix("_") && !text.hasSuffix("_") && !zip(text, text.dropFirst()).contains { $0 == "_" && $1 == "_" }
    }

    mutating func array() throws(TOMLSyntaxError) -> [TOMLValue] {
        // An unclosed list is reported where it opened: the end of the file says nothing useful.
        let opened = line
        advance()  // [
        var elements: [TOMLValue] = []
        while true {
            try skipBlankAndComments()
            guard let byte = current else {
                throw TOMLSyntaxError(line: opened, reason: localized("the list is not closed with ]"))
            }
            if byte == UInt8(ascii: "]") {
                advance()
                return elements
            }
            elements.append(try value())
            try skipBlankAndComments()
            guard current != nil else {
                throw TOMLSyntaxError(line: opened, reason: localized("the list is not closed with ]"))
            }
            if current == UInt8(ascii: ",") {
                advance()
            } else if current != UInt8(ascii: "]") {
                throw fail(localized("expected , or ] in the list, found %1$s", describe(current)))
            }
        }
    }

    /// `{ a = 1, b.c = "x" }`, on one line.
    mutating func inlineTable() throws(TOMLSyntaxError) -> TOMLTable {
        let node = TableNode(origin: .dottedKeys, line: line)
        advance()  // {
        skipSpaces()
        if current == UInt8(ascii: "}") {
            advance()
            return node.build()
        }
        while true {
            skipSpaces()
            try keyValue(into: node)
            skipSpaces()
            guard let byte = current else { throw fail(localized("the inline table is not closed with }")) }
            if byte == UInt8(ascii: "}") {
                advance()
                return node.build()
            }
            guard byte == UInt8(ascii: ",") else {
                throw fail(localized("expected , or } in the inline table, found %1$s", describe(byte)))
            }
            advance()
        }
    }
}
