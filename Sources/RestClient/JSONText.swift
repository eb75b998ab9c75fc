import RestCore

/// The little JSON that restctl writes, by hand (no Foundation in the client).
public enum JSONText {
    /// `text` as a JSON string literal: quotes and backslashes escaped, U+0000–U+001F,
    /// U+007F–U+009F and U+2028/U+2029 as `\uXXXX` (lower-case hex), everything else as UTF-8.
    public static func quoted(_ text: String) -> String {
        // Printable ASCII but for the quote and the backslash, as every key and most values
        // are: the text itself between quotes (a week of history is 30,000 of them).
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }) {
            return "\"" + text + "\""
        }
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Objects as a JSON array on one line; `[]` when there are none.
    public static func array(_ objects: [JSONObject]) -> String {
        "[" + objects.map(\.text).joined(separator: ",") + "]"
    }
}

/// One JSON object of restctl's, on one line, keys in the order they are added. Every `--json`
/// writes through this, so that they all follow one style (README, "JSON output"):
///
/// - an instant is an ISO 8601 UTC string with milliseconds, under a key ending in `_at`;
/// - a duration is an integer of microseconds, under a key ending in `_usec`;
/// - every key is always present: what is unknown or unset is `null`, never `""` or 0 (the one
///   map of `watch --json`, `live`, holds the live fields that are set, as producers named them).
public struct JSONObject: Sendable {
    private var members: [String] = []

    public init() {}

    /// `{…}`.
    public var text: String { "{" + members.joined(separator: ",") + "}" }

    /// A text; `null` when nil or empty.
    public mutating func text(_ key: String, _ value: String?) {
        add(key, value.flatMap { $0.isEmpty ? nil : JSONText.quoted($0) })
    }

    /// An instant given in µs since the epoch; `null` when nil or 0 (unset).
    public mutating func instant(_ key: String, usec: UInt64?) {
        precondition(key.hasSuffix("_at"), "an instant's key ends in _at")
        add(key, usec.flatMap { $0 == 0 ? nil : JSONText.quoted(DateText.iso8601(usec: $0)) })
    }

    /// A duration in µs.
    public mutating func duration(_ key: String, usec: UInt64?) {
        precondition(key.hasSuffix("_usec"), "a duration's key ends in _usec")
        add(key, usec.map { String($0) })
    }

    /// A duration in µs that may be negative (an overrun, an adjustment).
    public mutating func duration(_ key: String, signedUSec usec: Int64?) {
        precondition(key.hasSuffix("_usec"), "a duration's key ends in _usec")
        add(key, usec.map { String($0) })
    }

    public mutating func integer<Number: BinaryInteger>(_ key: String, _ value: Number?) {
        add(key, value.map { String($0) })
    }

    /// A number: 100, 102.5 (no needless ".0"); `null` when nil or not finite.
    public mutating func number(_ key: String, _ value: Double?) {
        add(key, value.flatMap { $0.isFinite ? HistoryFormat.number($0) : nil })
    }

    public mutating func bool(_ key: String, _ value: Bool) {
        add(key, value ? "true" : "false")
    }

    /// A nested object or array, already JSON; `null` when nil.
    public mutating func raw(_ key: String, _ json: String?) {
        add(key, json)
    }

    private mutating func add(_ key: String, _ json: String?) {
        members.append(JSONText.quoted(key) + ":" + (json ?? "null"))
    }
}
