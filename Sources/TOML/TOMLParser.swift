/// A TOML 1.0 reader: the whole document into `TOMLTable`s, every value with its line.
///
/// restd's own, so that reading a configuration or a workout plan needs neither Foundation nor a
/// C++ library: the daemon links nothing that could start a thread. Written against
/// https://toml.io/en/v1.0.0; date-times are recognised and kept as text.
public enum TOMLParser {
    /// Parses a whole document.
    public static func parse(_ text: String) throws(TOMLSyntaxError) -> TOMLTable {
        var reader = Reader(Array(text.utf8))
        return try reader.document()
    }

    /// Parses a document as read from a file, refusing it when it is not UTF-8.
    public static func parse(utf8 bytes: [UInt8]) throws(TOMLSyntaxError) -> TOMLTable {
        if String(validating: bytes, as: UTF8.self) == nil {
            // Line by line to say where: a newline byte is never part of a longer UTF-8 sequence.
            for (index, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated()
            where String(validating: line, as: UTF8.self) == nil {
                throw TOMLSyntaxError(line: index + 1, reason: "the document is not valid UTF-8, as TOML requires")
            }
        }
        var reader = Reader(bytes)
        return try reader.document()
    }
}

/// How a table came to exist, which decides whether a later header or key may add to it.
private enum Origin {
    /// Created by a `[header]`: a second identical header is an error.
    case header
    /// Created on the way to a deeper header (`[a.b]` makes `a`): `[a]` may still come later.
    case implicit
    /// Created by dotted keys (`a.b = 1`): only more dotted keys may add to it.
    case dottedKeys
    /// `{ … }` and arrays written as values: closed for good.
    case inline
}

/// A table under construction; turned into a `TOMLTable` value at the end.
private final class TableNode {
    var order: [String] = []
    var entries: [String: Entry] = [:]
    let origin: Origin
    let line: Int

    init(origin: Origin, line: Int) {
        self.origin = origin
        self.line = line
    }

    enum Entry {
        case value(TOMLValue)
        case table(TableNode)
        case tableArray([TableNode], line: Int)
    }

    func set(_ key: String, _ entry: Entry) {
        if entries.updateValue(entry, forKey: key) == nil { order.append(key) }
    }

    func build() -> TOMLTable {
        var table = TOMLTable()
        for key in order {
            switch entries[key]! {
            case .value(let value): table.set(key, value)
            case .table(let node): table.set(key, TOMLValue(.table(node.build()), line: node.line))
            case .tableArray(let nodes, let line):
                table.set(
                    key, TOMLValue(.array(nodes.map { TOMLValue(.table($0.build()), line: $0.line) }), line: line))
            }
        }
        return table
    }
}

private struct Reader {
    let bytes: [UInt8]
    var index = 0
    var line = 1

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var current: UInt8? { index < bytes.count ? bytes[index] : nil }
    func peek(_ offset: Int) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }

    func fail(_ reason: String) -> TOMLSyntaxError { TOMLSyntaxError(line: line, reason: reason) }

    mutating func advance() {
        if current == UInt8(ascii: "\n") { line += 1 }
        index += 1
    }

    // MARK: Document structure

    mutating func document() throws(TOMLSyntaxError) -> TOMLTable {
        let root = TableNode(origin: .header, line: 1)
        var table = root
        // Header-defined tables, so that `[a]` twice is caught even when it was first made implicitly.
        var defined: Set<[String]> = []
        while true {
            skipBlankAndComments()
            guard let byte = current else { break }
            if byte == UInt8(ascii: "[") {
                table = try header(root: root, defined: &defined)
            } else {
                try keyValue(into: table)
            }
            try endOfLine()
        }
        return root.build()
    }

    /// `[a.b]` or `[[a.b]]`: the table that the following key/value lines fill.
    mutating func header(root: TableNode, defined: inout Set<[String]>) throws(TOMLSyntaxError) -> TableNode {
        let headerLine = line
        advance()
        let isArray = current == UInt8(ascii: "[")
        if isArray { advance() }
        skipSpaces()
        let path = try key()
        skipSpaces()
        guard current == UInt8(ascii: "]"), !isArray || peek(1) == UInt8(ascii: "]") else {
            throw fail(isArray ? "expected ]] to close the table header" : "expected ] to close the table header")
        }
        advance()
        if isArray { advance() }

        var node = root
        for (depth, part) in path.dropLast().enumerated() {
            node = try descend(node, part, path: Array(path[...depth]), line: headerLine)
        }
        let last = path.last!
        let name = path.joined(separator: ".")
        if isArray {
            let element = TableNode(origin: .header, line: headerLine)
            switch node.entries[last] {
            case nil: node.set(last, .tableArray([element], line: headerLine))
            case .tableArray(let elements, let line): node.set(last, .tableArray(elements + [element], line: line))
            default:
                throw TOMLSyntaxError(
                    line: headerLine, reason: "\(name) is already defined and is not an array of tables")
            }
            return element
        }
        guard !defined.contains(path) else {
            throw TOMLSyntaxError(line: headerLine, reason: "table [\(name)] is defined twice")
        }
        defined.insert(path)
        switch node.entries[last] {
        case nil:
            let table = TableNode(origin: .header, line: headerLine)
            node.set(last, .table(table))
            return table
        case .table(let existing) where existing.origin == .implicit:
            return existing
        default:
            throw TOMLSyntaxError(line: headerLine, reason: "\(name) is already defined")
        }
    }

    /// The table named `part` inside `node` on the way to a deeper header, created if absent.
    func descend(_ node: TableNode, _ part: String, path: [String], line: Int) throws(TOMLSyntaxError) -> TableNode {
        switch node.entries[part] {
        case nil:
            let table = TableNode(origin: .implicit, line: line)
            node.set(part, .table(table))
            return table
        case .table(let table) where table.origin != .inline:
            return table
        case .tableArray(let elements, _):
            return elements.last!
        default:
            throw TOMLSyntaxError(line: line, reason: "\(path.joined(separator: ".")) is already defined as a value")
        }
    }

    /// `a.b = value`, into `table`.
    mutating func keyValue(into table: TableNode) throws(TOMLSyntaxError) {
        let keyLine = line
        let path = try key()
        skipSpaces()
        guard current == UInt8(ascii: "=") else {
            throw fail("expected = after the key \(path.joined(separator: "."))")
        }
        advance()
        skipSpaces()
        let value = try self.value()
        var node = table
        for (depth, part) in path.dropLast().enumerated() {
            switch node.entries[part] {
            case nil:
                let inner = TableNode(origin: .dottedKeys, line: keyLine)
                node.set(part, .table(inner))
                node = inner
            case .table(let inner) where inner.origin == .dottedKeys:
                node = inner
            default:
                throw TOMLSyntaxError(
                    line: keyLine, reason: "\(path[...depth].joined(separator: ".")) is already defined")
            }
        }
        let last = path.last!
        guard node.entries[last] == nil else {
            throw TOMLSyntaxError(line: keyLine, reason: "the key \(path.joined(separator: ".")) is defined twice")
        }
        if case .table(let inline) = value.kind {
            node.set(last, .table(TableNode(closed: inline, line: value.line)))
        } else {
            node.set(last, .value(value))
        }
    }

    /// A key: bare, quoted, or several joined with dots.
    mutating func key() throws(TOMLSyntaxError) -> [String] {
        var parts: [String] = []
        while true {
            skipSpaces()
            guard let byte = current else { throw fail("expected a key") }
            if byte == UInt8(ascii: "\"") {
                parts.append(try basicString())
            } else if byte == UInt8(ascii: "'") {
                parts.append(try literalString())
            } else {
                let start = index
                while let byte = current, Self.isBareKey(byte) { advance() }
                guard index > start else { throw fail("expected a key, found \(describe(byte))") }
                parts.append(String(decoding: bytes[start..<index], as: UTF8.self))
            }
            skipSpaces()
            guard current == UInt8(ascii: ".") else { return parts }
            advance()
        }
    }

    static func isBareKey(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }

    // MARK: Values

    mutating func value() throws(TOMLSyntaxError) -> TOMLValue {
        let valueLine = line
        guard let byte = current else { throw fail("expected a value after =") }
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
            throw fail("expected a value, found \(current.map(describe) ?? "the end of the file")")
        }
        if word == "true" { return .boolean(true) }
        if word == "false" { return .boolean(false) }
        if let integer = Self.integer(word) { return .integer(integer) }
        if let float = Self.float(word) { return .float(float) }
        if Self.isDateTime(word) { return .dateTime(word) }
        throw fail("\(word) is not a TOML value (strings need quotes)")
    }

    static func endsScalar(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
            || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]")
            || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "#")
    }

    static func integer(_ word: String) -> Int64? {
        var text = Substring(word)
        for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] where text.hasPrefix(prefix) {
            text = text.dropFirst(2)
            guard validUnderscores(text) else { return nil }
            return Int64(text.filter { $0 != "_" }, radix: radix)
        }
        var sign = ""
        if let first = text.first, first == "+" || first == "-" {
            sign = first == "-" ? "-" : ""
            text = text.dropFirst()
        }
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "_") }), validUnderscores(text),
            text == "0" || !text.hasPrefix("0")
        else { return nil }
        return Int64(sign + text.filter { $0 != "_" })
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

    static func validUnderscores(_ text: Substring) -> Bool {
        !text.hasPrefix("_") && !text.hasSuffix("_") && !text.contains("__")
    }

    static func isDateTime(_ word: String) -> Bool {
        let shape = word.map { $0.isASCII && $0.isNumber ? "9" : $0 }
        let text = String(shape)
        return text.hasPrefix("9999-99-99") || text.hasPrefix("99:99:99")
    }

    mutating func array() throws(TOMLSyntaxError) -> [TOMLValue] {
        // An unclosed list is reported where it opened: the end of the file says nothing useful.
        let unclosed = TOMLSyntaxError(line: line, reason: "the list is not closed with ]")
        advance()  // [
        var elements: [TOMLValue] = []
        while true {
            skipBlankAndComments()
            guard let byte = current else { throw unclosed }
            if byte == UInt8(ascii: "]") {
                advance()
                return elements
            }
            elements.append(try value())
            skipBlankAndComments()
            guard current != nil else { throw unclosed }
            if current == UInt8(ascii: ",") {
                advance()
            } else if current != UInt8(ascii: "]") {
                throw fail("expected , or ] in the list, found \(current.map(describe) ?? "the end of the file")")
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
            guard let byte = current else { throw fail("the inline table is not closed with }") }
            if byte == UInt8(ascii: "}") {
                advance()
                return node.build()
            }
            guard byte == UInt8(ascii: ",") else {
                throw fail("expected , or } in the inline table, found \(describe(byte))")
            }
            advance()
        }
    }

    // MARK: Strings

    mutating func basicString() throws(TOMLSyntaxError) -> String {
        advance()  // "
        var scalars = String.UnicodeScalarView()
        var start = index
        while true {
            guard let byte = current, byte != UInt8(ascii: "\n") else { throw fail("the string is not closed with \"") }
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
        let unclosed = TOMLSyntaxError(line: line, reason: "the string is not closed with \"\"\"")
        index += 3
        skipNewline()
        var scalars = String.UnicodeScalarView()
        var start = index
        while true {
            guard let byte = current else { throw unclosed }
            if byte == UInt8(ascii: "\""), peek(1) == UInt8(ascii: "\""), peek(2) == UInt8(ascii: "\"") {
                // Up to two more quotes right before the closing ones belong to the string.
                var end = index + 3
                while end < bytes.count, bytes[end] == UInt8(ascii: "\""), end - index < 5 { end += 1 }
                try appendText(start..<(end - 3), to: &scalars)
                index = end
                return String(scalars)
            }
            if byte == UInt8(ascii: "\\") {
                try appendText(start..<index, to: &scalars)
                // A backslash at the end of a line joins it with the next non-blank text.
                var probe = index + 1
                while probe < bytes.count, bytes[probe] == UInt8(ascii: " ") || bytes[probe] == UInt8(ascii: "\t") {
                    probe += 1
                }
                if probe < bytes.count, bytes[probe] == UInt8(ascii: "\n") || bytes[probe] == UInt8(ascii: "\r") {
                    index = probe
                    while let next = current,
                        next == UInt8(ascii: " ") || next == UInt8(ascii: "\t")
                            || next == UInt8(ascii: "\n") || next == UInt8(ascii: "\r")
                    { advance() }
                } else {
                    scalars.append(try escape())
                }
                start = index
                continue
            }
            if byte != UInt8(ascii: "\n"), byte != UInt8(ascii: "\r") { try checkControl(byte) }
            advance()
        }
    }

    mutating func literalString() throws(TOMLSyntaxError) -> String {
        advance()  // '
        let start = index
        while true {
            guard let byte = current, byte != UInt8(ascii: "\n") else { throw fail("the string is not closed with '") }
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
        let unclosed = TOMLSyntaxError(line: line, reason: "the string is not closed with '''")
        index += 3
        skipNewline()
        let start = index
        while true {
            guard let byte = current else { throw unclosed }
            if byte == UInt8(ascii: "'"), peek(1) == UInt8(ascii: "'"), peek(2) == UInt8(ascii: "'") {
                var end = index + 3
                while end < bytes.count, bytes[end] == UInt8(ascii: "'"), end - index < 5 { end += 1 }
                var scalars = String.UnicodeScalarView()
                try appendText(start..<(end - 3), to: &scalars)
                index = end
                return String(scalars)
            }
            if byte != UInt8(ascii: "\n"), byte != UInt8(ascii: "\r"), byte != UInt8(ascii: "\t") {
                try checkControl(byte)
            }
            advance()
        }
    }

    mutating func skipNewline() {
        if current == UInt8(ascii: "\r"), peek(1) == UInt8(ascii: "\n") { index += 1 }
        if current == UInt8(ascii: "\n") { advance() }
    }

    /// `\n`, `\u00e9`, …, after the backslash at `index`.
    mutating func escape() throws(TOMLSyntaxError) -> Unicode.Scalar {
        advance()  // backslash
        guard let byte = current else { throw fail("the string ends inside an escape") }
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
                    "\\\(Character(Unicode.Scalar(byte))) must be followed by \(count) hex digits of a Unicode scalar")
            }
            index += count
            return scalar
        default:
            throw fail("\\\(describe(byte)) is not a TOML escape")
        }
    }

    /// Appends raw bytes of a string, refusing what is not UTF-8.
    func appendText(_ range: Range<Int>, to scalars: inout String.UnicodeScalarView) throws(TOMLSyntaxError) {
        guard let text = String(validating: bytes[range], as: UTF8.self) else {
            throw fail("the string is not valid UTF-8")
        }
        scalars.append(contentsOf: text.unicodeScalars)
    }

    func checkControl(_ byte: UInt8) throws(TOMLSyntaxError) {
        if byte < 0x20 && byte != UInt8(ascii: "\t") || byte == 0x7F {
            throw fail("control character \(describe(byte)) in a string; write it as an escape")
        }
    }

    // MARK: White space and comments

    mutating func skipSpaces() {
        while let byte = current, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { advance() }
    }

    /// Blank lines and comments, as between lines or inside a list.
    mutating func skipBlankAndComments() {
        while let byte = current {
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
                || (byte == UInt8(ascii: "\r") && peek(1) == UInt8(ascii: "\n"))
            {
                advance()
            } else if byte == UInt8(ascii: "#") {
                while let byte = current, byte != UInt8(ascii: "\n") { advance() }
            } else {
                return
            }
        }
    }

    /// After a key/value pair or a header: only spaces and a comment before the line ends.
    mutating func endOfLine() throws(TOMLSyntaxError) {
        skipSpaces()
        if current == UInt8(ascii: "#") {
            while let byte = current, byte != UInt8(ascii: "\n") {
                if byte < 0x20 && byte != UInt8(ascii: "\t") && byte != UInt8(ascii: "\r") || byte == 0x7F {
                    throw fail("control character \(describe(byte)) in a comment")
                }
                advance()
            }
        }
        if current == UInt8(ascii: "\r"), peek(1) == UInt8(ascii: "\n") { index += 1 }
        guard let byte = current else { return }
        guard byte == UInt8(ascii: "\n") else { throw fail("expected the end of the line, found \(describe(byte))") }
        advance()
    }

    func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "\"\(Character(Unicode.Scalar(byte)))\"" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }
}

private extension TableNode {
    /// A table written as a value (`{ … }`): nothing may be added to it later.
    convenience init(closed table: TOMLTable, line: Int) {
        self.init(origin: .inline, line: line)
        for (key, value) in table.entries {
            if case .table(let inner) = value.kind {
                set(key, .table(TableNode(closed: inner, line: value.line)))
            } else {
                set(key, .value(value))
            }
        }
    }
}
