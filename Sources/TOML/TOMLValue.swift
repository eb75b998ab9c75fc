import Localization

/// A value of a TOML document, with the line it starts on (1-based), for `file:line: reason`.
public struct TOMLValue: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case string(String)
        case integer(Int64)
        case float(Double)
        case boolean(Bool)
        /// An offset or local date-time, date or time, kept as written: restd reads none of them,
        /// but a file holding one is still valid TOML and deserves a precise "expected …" sentence.
        case dateTime(String)
        case array([TOMLValue])
        case table(TOMLTable)
    }

    public let kind: Kind
    public let line: Int

    public init(_ kind: Kind, line: Int) {
        self.kind = kind
        self.line = line
    }

    public var string: String? { if case .string(let value) = kind { value } else { nil } }
    public var integer: Int64? { if case .integer(let value) = kind { value } else { nil } }
    public var float: Double? { if case .float(let value) = kind { value } else { nil } }
    public var boolean: Bool? { if case .boolean(let value) = kind { value } else { nil } }
    public var array: [TOMLValue]? { if case .array(let value) = kind { value } else { nil } }
    public var table: TOMLTable? { if case .table(let value) = kind { value } else { nil } }

    /// "a string", "an integer", … for sentences such as "expected a duration, found a list".
    public var typeDescription: String {
        switch kind {
        case .string: localized("a string")
        case .integer: localized("an integer")
        case .float: localized("a floating-point number")
        case .boolean: localized("a boolean")
        case .dateTime: localized("a date or time")
        case .array: localized("a list")
        case .table: localized("a table")
        }
    }
}

/// A TOML table: its keys in the order they were written, each with its value.
public struct TOMLTable: Equatable, Sendable {
    public private(set) var keys: [String] = []
    private var values: [String: TOMLValue] = [:]

    public init() {}

    public subscript(key: String) -> TOMLValue? { values[key] }

    /// Every key with its value, in the order written.
    public var entries: [(key: String, value: TOMLValue)] { keys.map { ($0, values[$0]!) } }

    public var isEmpty: Bool { keys.isEmpty }

    mutating func set(_ key: String, _ value: TOMLValue) {
        if values.updateValue(value, forKey: key) == nil { keys.append(key) }
    }

    public static func == (lhs: TOMLTable, rhs: TOMLTable) -> Bool {
        lhs.keys == rhs.keys && lhs.values == rhs.values
    }
}

/// A document that is not valid TOML: where and why.
public struct TOMLSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    public let line: Int
    public let reason: String

    public init(line: Int, reason: String) {
        self.line = line
        self.reason = reason
    }

    public var description: String { "\(line): \(reason)" }
}
