/// Finds the line of a key in TOML text, so that a value TOMLKit parsed (it keeps no positions)
/// can be reported as `file:line`. A line scanner that knows table headers, dotted and quoted
/// keys and multi-line strings; a key it cannot place (inside an inline table, say) is reported
/// at the line of its table, else without a line.
struct KeyLocator {
    /// The first line (1-based) of each dotted key path, tables included.
    private(set) var lines: [String: Int] = [:]

    init(_ text: String) {
        var table: [String] = []
        var openMultiline: String?  // the delimiter of a multi-line string being read
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let line = Substring(rawLine)
            if let delimiter = openMultiline {
                if Self.count(delimiter, in: line) % 2 == 1 { openMultiline = nil }
                continue
            }
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.hasPrefix("[") {
                let isArray = trimmed.hasPrefix("[[")
                var rest = trimmed.dropFirst(isArray ? 2 : 1)
                if let path = Self.keyPath(&rest, terminator: "]") {
                    table = path
                    record(path, number)
                }
                continue
            }
            var rest = trimmed
            guard let key = Self.keyPath(&rest, terminator: "=") else { continue }
            record(table + key, number)
            for delimiter in ["\"\"\"", "'''"] where Self.count(delimiter, in: rest) % 2 == 1 {
                openMultiline = delimiter
            }
        }
    }

    /// The line of `path` ("notifications.urgency"), else of the closest enclosing table.
    func line(of path: String) -> Int? {
        var parts = path.split(separator: ".").map(String.init)
        while !parts.isEmpty {
            if let line = lines[parts.joined(separator: ".")] { return line }
            parts.removeLast()
        }
        return nil
    }

    private mutating func record(_ path: [String], _ line: Int) {
        let key = path.joined(separator: ".")
        if lines[key] == nil { lines[key] = line }
    }

    /// Reads `a.b."c d"` up to `terminator`, leaving `text` after it; nil if it is not a key.
    private static func keyPath(_ text: inout Substring, terminator: Character) -> [String]? {
        var parts: [String] = []
        while true {
            text = text.drop { $0 == " " || $0 == "\t" }
            guard let first = text.first else { return nil }
            if first == "\"" || first == "'" {
                text = text.dropFirst()
                var part = ""
                while let character = text.first, character != first {
                    if first == "\"", character == "\\" {  // keep it simple: skip the escaped character
                        text = text.dropFirst()
                        if let escaped = text.first { part.append(escaped) }
                    } else {
                        part.append(character)
                    }
                    text = text.dropFirst()
                }
                guard !text.isEmpty else { return nil }
                text = text.dropFirst()
                parts.append(part)
            } else {
                let bare = text.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
                guard !bare.isEmpty else { return nil }
                parts.append(String(bare))
                text = text.dropFirst(bare.count)
            }
            text = text.drop { $0 == " " || $0 == "\t" }
            guard let next = text.first else { return nil }
            if next == "." {
                text = text.dropFirst()
                continue
            }
            guard next == terminator else { return nil }
            text = text.dropFirst()
            return parts
        }
    }

    private static func count(_ needle: String, in text: Substring) -> Int {
        var count = 0
        var rest = text
        while let range = rest.range(of: needle) {
            count += 1
            rest = rest[range.upperBound...]
        }
        return count
    }
}
