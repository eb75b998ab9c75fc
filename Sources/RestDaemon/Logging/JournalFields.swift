import Logging

/// One field of a journal entry, `NAME=value`.
public struct JournalField: Equatable, Sendable, CustomStringConvertible {
    public let name: String
    public let value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    public var description: String { "\(name)=\(value)" }
}

/// Builds the fields of a structured journal entry from a log event: a pure function, so every
/// rule is tested without a journal.
public enum JournalFields {
    /// Field names the entry always sets itself; metadata cannot replace them.
    static let fixed: Set<String> = ["MESSAGE", "PRIORITY", "SYSLOG_IDENTIFIER", "CODE_FILE", "CODE_LINE", "CODE_FUNC"]

    /// The entry's fields: MESSAGE, PRIORITY, SYSLOG_IDENTIFIER, CODE_FILE, CODE_LINE, CODE_FUNC,
    /// then one field per metadata value, sorted by name. An array value gives one field per
    /// element (the journal allows a name to repeat); metadata keys become upper-case names
    /// (`timer_id` and `timerID` both become `TIMER_ID`), and `message_id` becomes `MESSAGE_ID`.
    public static func make(
        level: Logger.Level, message: String, metadata: Logger.Metadata, identifier: String,
        file: String, function: String, line: UInt
    ) -> [JournalField] {
        var fields = [
            JournalField("MESSAGE", message),
            JournalField("PRIORITY", String(priority(level))),
            JournalField("SYSLOG_IDENTIFIER", identifier),
            JournalField("CODE_FILE", file),
            JournalField("CODE_LINE", String(line)),
            JournalField("CODE_FUNC", function),
        ]
        var extra: [JournalField] = []
        for (key, value) in metadata {
            guard let name = fieldName(forMetadataKey: key), !fixed.contains(name) else { continue }
            for text in values(value) { extra.append(JournalField(name, text)) }
        }
        // Sorting by name only keeps the elements of an array in their order (stable sort).
        fields += extra.enumerated()
            .sorted { ($0.element.name, $0.offset) < ($1.element.name, $1.offset) }
            .map(\.element)
        return fields
    }

    /// syslog priorities, as journald and `journalctl -p` understand them.
    public static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    /// The journal field name for a metadata key, or nil when nothing usable is left.
    /// journald accepts upper-case letters, digits and underscores, at most 64, not starting
    /// with an underscore (those are trusted fields) or a digit.
    public static func fieldName(forMetadataKey key: String) -> String? {
        snakeCaseFieldName(key) ?? generalFieldName(key)
    }

    /// `timer_id` → `TIMER_ID` byte by byte: the keys restd's own entries use (every expiry
    /// logs three), which `generalFieldName` would walk character by character. Nil for any
    /// other key. The general rule gives the same name for these (a test compares them).
    static func snakeCaseFieldName(_ key: String) -> String? {
        let bytes = key.utf8
        let lowercase = UInt8(ascii: "a")...UInt8(ascii: "z")
        guard let first = bytes.first, lowercase.contains(first), bytes.count <= 64,
            bytes.allSatisfy({
                lowercase.contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || $0 == UInt8(ascii: "_")
            })
        else { return nil }
        return String(decoding: bytes.map { lowercase.contains($0) ? $0 - 32 : $0 }, as: UTF8.self)
    }

    static func generalFieldName(_ key: String) -> String? {
        var name = ""
        var previous: Character?
        for character in key {
            if character.isASCII, character.isLetter {
                // camelCase → CAMEL_CASE: a capital after a small letter or a digit starts a word.
                if character.isUppercase, let previous, previous.isLowercase || previous.isNumber {
                    name.append("_")
                }
                name.append(Character(character.uppercased()))
            } else if character.isASCII, character.isNumber {
                name.append(character)
            } else {
                name.append("_")
            }
            previous = character
        }
        while let first = name.first, first == "_" || first.isNumber { name.removeFirst() }
        if name.count > 64 { name = String(name.prefix(64)) }
        return name.isEmpty ? nil : name
    }

    private static func values(_ value: Logger.MetadataValue) -> [String] {
        if case .array(let elements) = value { return elements.map(text) }
        return [text(value)]
    }

    /// A metadata value as plain text: strings unquoted, lists `[a, b]`, dictionaries `[k: v]`.
    static func text(_ value: Logger.MetadataValue) -> String {
        switch value {
        case .string(let text): text
        case .stringConvertible(let convertible): convertible.description
        case .array(let elements): "[" + elements.map(text).joined(separator: ", ") + "]"
        case .dictionary(let entries):
            "[" + entries.sorted { $0.key < $1.key }.map { "\($0.key): \(text($0.value))" }.joined(separator: ", ")
                + "]"
        }
    }
}
