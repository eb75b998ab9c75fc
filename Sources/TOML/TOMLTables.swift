import Localization

// Document structure: headers, key/value lines, dotted keys, and the tables they make.

/// How a table came to exist, which decides whether a later header or key may add to it.
enum Origin {
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
final class TableNode {
    var order: [String] = []
    var entries: [String: Entry] = [:]
    let origin: Origin
    let line: Int
    /// Whether a `[header]` has named it: a second one is an error. Kept on the table rather than
    /// by name, since `[a.b]` after each `[[a]]` names a new table every time.
    var hasHeader: Bool

    init(origin: Origin, line: Int) {
        self.origin = origin
        self.line = line
        hasHeader = origin == .header
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

extension Reader {
    mutating func document() throws(TOMLSyntaxError) -> TOMLTable {
        // A UTF-8 byte-order mark, as some Windows editors write, is allowed at the very start only.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        let root = TableNode(origin: .header, line: 1)
        var table = root
        while true {
            try skipBlankAndComments()
            guard let byte = current else { break }
            if byte == UInt8(ascii: "[") {
                table = try header(root: root)
            } else {
                try keyValue(into: table)
            }
            try endOfLine()
        }
        return root.build()
    }

    /// `[a.b]` or `[[a.b]]`: the table that the following key/value lines fill.
    mutating func header(root: TableNode) throws(TOMLSyntaxError) -> TableNode {
        let headerLine = line
        advance()
        let isArray = current == UInt8(ascii: "[")
        if isArray { advance() }
        skipSpaces()
        let path = try key()
        skipSpaces()
        guard current == UInt8(ascii: "]"), !isArray || peek(1) == UInt8(ascii: "]") else {
            throw fail(
                isArray
                    ? localized("expected ]] to close the table header")
                    : localized("expected ] to close the table header"))
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
                    line: headerLine, reason: localized("%1$s is already defined and is not an array of tables", name))
            }
            return element
        }
        switch node.entries[last] {
        case nil:
            let table = TableNode(origin: .header, line: headerLine)
            node.set(last, .table(table))
            return table
        case .table(let existing) where existing.hasHeader:
            throw TOMLSyntaxError(line: headerLine, reason: localized("table [%1$s] is defined twice", name))
        case .table(let existing) where existing.origin == .implicit:
            existing.hasHeader = true
            return existing
        default:
            throw TOMLSyntaxError(line: headerLine, reason: localized("%1$s is already defined", name))
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
            throw TOMLSyntaxError(
                line: line, reason: localized("%1$s is already defined as a value", path.joined(separator: ".")))
        }
    }

    /// `a.b = value`, into `table`.
    mutating func keyValue(into table: TableNode) throws(TOMLSyntaxError) {
        let keyLine = line
        let path = try key()
        skipSpaces()
        guard current == UInt8(ascii: "=") else {
            throw fail(localized("expected = after the key %1$s", path.joined(separator: ".")))
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
                    line: keyLine, reason: localized("%1$s is already defined", path[...depth].joined(separator: ".")))
            }
        }
        let last = path.last!
        guard node.entries[last] == nil else {
            throw TOMLSyntaxError(
                line: keyLine, reason: localized("the key %1$s is defined twice", path.joined(separator: ".")))
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
            guard let byte = current else { throw fail(localized("expected a key")) }
            if byte == UInt8(ascii: "\"") {
                parts.append(try basicString())
            } else if byte == UInt8(ascii: "'") {
                parts.append(try literalString())
            } else {
                let start = index
                while let byte = current, Self.isBareKey(byte) { advance() }
                guard index > start else { throw fail(localized("expected a key, found %1$s", describe(byte))) }
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
