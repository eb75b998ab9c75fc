import TOML

/// A document as toml-test sees it: tables, arrays, and scalars tagged with their type and text.
enum Tagged {
    case scalar(type: String, value: String)
    case array([Tagged])
    case table([(key: String, value: Tagged)])

    struct NotTagged: Error, CustomStringConvertible {
        let description: String
    }

    static let scalarTypes: Set<String> = [
        "string", "integer", "float", "bool", "datetime", "datetime-local", "date-local", "time-local",
    ]

    /// The expected value, from JSONSerialization's objects.
    init(json: Any) throws {
        if let object = json as? [String: Any] {
            if object.count == 2, let type = object["type"] as? String, let value = object["value"] as? String {
                guard Self.scalarTypes.contains(type) else { throw NotTagged(description: "unknown type \(type)") }
                self = .scalar(type: type, value: value)
            } else {
                self = .table(try object.map { ($0.key, try Tagged(json: $0.value)) })
            }
        } else if let array = json as? [Any] {
            self = .array(try array.map { try Tagged(json: $0) })
        } else {
            throw NotTagged(description: "\(json) is neither a table, an array nor a tagged scalar")
        }
    }

    /// What the reader made of a document.
    init(_ table: TOMLTable) {
        self = .table(table.entries.map { ($0.key, Tagged($0.value)) })
    }

    init(_ value: TOMLValue) {
        switch value.kind {
        case .string(let text): self = .scalar(type: "string", value: text)
        case .integer(let integer): self = .scalar(type: "integer", value: String(integer))
        // Swift's description of a Double reads back as the same Double ("inf", "nan", "1e+100").
        case .float(let float): self = .scalar(type: "float", value: "\(float)")
        case .boolean(let boolean): self = .scalar(type: "bool", value: boolean ? "true" : "false")
        // Tagged by its shape (kept as written); an unreadable one is tagged so that it never matches.
        case .dateTime(let text): self = .scalar(type: DateTimeText(text)?.type ?? "unreadable date-time", value: text)
        case .array(let elements): self = .array(elements.map(Tagged.init))
        case .table(let table): self = Tagged(table)
        }
    }

    /// nil when `self` (the reader's) equals `expected`, else where and how they differ.
    func difference(from expected: Tagged, at path: String = "") -> String? {
        let place = path.isEmpty ? "the document" : path
        switch (self, expected) {
        case (.scalar(let type, let value), .scalar(let expectedType, let expectedValue)):
            guard type == expectedType else {
                return "\(place) is \(json), expected \(expected.json)"
            }
            guard Self.scalarsEqual(type: type, value, expectedValue) else {
                return "\(place) is \(json), expected \(expected.json)"
            }
            return nil
        case (.array(let elements), .array(let expectedElements)):
            guard elements.count == expectedElements.count else {
                return "\(place) has \(elements.count) elements, expected \(expectedElements.count): \(json)"
            }
            for (index, (element, expectedElement)) in zip(elements, expectedElements).enumerated() {
                if let difference = element.difference(from: expectedElement, at: "\(path)[\(index)]") {
                    return difference
                }
            }
            return nil
        case (.table(let entries), .table(let expectedEntries)):
            // Keys compared scalar by scalar: Swift's String equality would let "é" match "e\u{301}".
            func name(_ key: String) -> [Unicode.Scalar] { Array(key.unicodeScalars) }
            for (key, _) in entries where !expectedEntries.contains(where: { name($0.key) == name(key) }) {
                return "\(place) has the key \(quoted(key)), which is not expected"
            }
            for (key, expectedValue) in expectedEntries {
                let child = path.isEmpty ? quoted(key) : "\(path).\(quoted(key))"
                let matches = entries.filter { name($0.key) == name(key) }
                guard matches.count == 1 else {
                    return matches.isEmpty ? "\(child) is missing" : "\(child) appears \(matches.count) times"
                }
                if let difference = matches[0].value.difference(from: expectedValue, at: child) { return difference }
            }
            return nil
        default:
            return "\(place) is \(json), expected \(expected.json)"
        }
    }

    static func scalarsEqual(type: String, _ value: String, _ expected: String) -> Bool {
        switch type {
        case "string":
            return Array(value.unicodeScalars) == Array(expected.unicodeScalars)
        case "integer":
            guard let expected = Int64(expected) else { return false }
            return Int64(value) == expected
        case "float":
            guard let value = parseFloat(value), let expected = parseFloat(expected) else { return false }
            return value == expected || (value.isNaN && expected.isNaN)
        case "bool":
            return value == expected && (value == "true" || value == "false")
        default:
            // Both sides read the same way; the expected one must also have the shape its tag says.
            guard let value = DateTimeText(value), let expected = DateTimeText(expected), expected.type == type else {
                return false
            }
            return value == expected
        }
    }

    /// toml-test writes floats as TOML does, "inf", "+inf", "-nan" included.
    static func parseFloat(_ text: String) -> Double? {
        var body = Substring(text)
        var sign = 1.0
        if let first = body.first, first == "+" || first == "-" {
            sign = first == "-" ? -1 : 1
            body = body.dropFirst()
        }
        switch body {
        case "inf": return sign * .infinity
        case "nan": return .nan
        default:
            guard body.allSatisfy({ $0.isASCII && ($0.isNumber || ".eE+-".contains($0)) }), let value = Double(body)
            else { return nil }
            return sign * value
        }
    }

    /// The value in toml-test's JSON, for messages.
    var json: String {
        switch self {
        case .scalar(let type, let value): "{\"type\": \"\(type)\", \"value\": \(quoted(value))}"
        case .array(let elements): "[" + elements.map(\.json).joined(separator: ", ") + "]"
        case .table(let entries):
            "{" + entries.map { "\(quoted($0.key)): \($0.value.json)" }.joined(separator: ", ") + "}"
        }
    }
}

/// A string in double quotes with what would be invisible escaped.
func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        case "\n": result += "\\n"
        case "\t": result += "\\t"
        case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value):
            let hex = String(scalar.value, radix: 16)
            result += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        default: result.unicodeScalars.append(scalar)
        }
    }
    return result + "\""
}

/// An RFC 3339 date-time as TOML writes it, reduced to what it means: `T`, `t` and a space are the
/// same separator, `z` is `Z`, `+00:00` is `Z`, and trailing zeros of the fraction say nothing.
/// Read here, independently of the reader, so that the check does not reuse the code it checks.
struct DateTimeText: Equatable {
    let date: String?
    let time: String?
    /// The fraction of a second without trailing zeros ("" for none).
    let fraction: String
    /// Minutes east of UTC, nil for a local date-time.
    let offset: Int?

    var type: String {
        switch (date, time, offset) {
        case (_?, _?, _?): "datetime"
        case (_?, _?, nil): "datetime-local"
        case (_?, nil, _): "date-local"
        default: "time-local"
        }
    }

    init?(_ text: String) {
        var rest = Substring(text)
        func take(_ shape: String) -> String? {
            guard rest.count >= shape.count else { return nil }
            let part = rest.prefix(shape.count)
            for (character, expected) in zip(part, shape) {
                guard expected == "9" ? character.isASCII && character.isNumber : character == expected else {
                    return nil
                }
            }
            rest = rest.dropFirst(shape.count)
            return String(part)
        }
        date = take("9999-99-99")
        if date != nil, let separator = rest.first, "Tt ".contains(separator), rest.count > 1 {
            rest = rest.dropFirst()
        } else if date != nil {
            guard rest.isEmpty else { return nil }
            (time, fraction, offset) = (nil, "", nil)
            return
        }
        guard let time = take("99:99:99") else { return nil }
        self.time = time
        var fraction = ""
        if rest.first == "." {
            rest = rest.dropFirst()
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty else { return nil }
            rest = rest.dropFirst(digits.count)
            fraction = String(digits)
            while fraction.hasSuffix("0") { fraction.removeLast() }
        }
        self.fraction = fraction
        if rest == "Z" || rest == "z" {
            offset = 0
        } else if let sign = rest.first, sign == "+" || sign == "-", date != nil {
            rest = rest.dropFirst()
            guard let text = take("99:99"), rest.isEmpty else { return nil }
            let minutes = Int(text.prefix(2))! * 60 + Int(text.suffix(2))!
            offset = sign == "-" ? -minutes : minutes
        } else {
            guard rest.isEmpty else { return nil }
            offset = nil
        }
        if offset != nil, date == nil { return nil }
    }
}
