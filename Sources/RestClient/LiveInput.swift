import DBusKit
import Localization
import RestCore

/// Reads live activity updates as `restctl live` takes them: one line of `key=value` fields
/// (`heart_rate=142 exercise="Bench press"`) or one flat JSON object
/// (`{"heart_rate":142,"exercise":"Bench press"}`), and `--set KEY=VALUE` arguments.
///
/// Values are typed by key, so that what reaches restd is what its contract asks for:
/// heart_rate, sensor_battery, progress_done and progress_total are integers (sent as `x`);
/// exercise, workout and heart_rate_sensor are always texts; any other key (the custom `x_…` ones, and keys a newer restd may
/// know) is typed by its value — `true`/`false` a boolean, an integer an `x`, a decimal number
/// a `d`, anything else a text. Numbers are written as JSON writes them (`-5`, `2.5`, `1e3`);
/// `007` or `+5` are texts. Whether a value is in range is restd's decision.
public enum LiveInput {
    /// A field's value as it goes on the bus (so that restctl need not import DBusKit).
    public typealias Value = DBusValue

    /// The keys whose values are integers.
    public static let integerKeys: Set<String> = [
        LiveKey.heartRate, LiveKey.sensorBattery, LiveKey.progressDone,
        LiveKey.progressTotal,
    ]
    /// The keys whose values are texts, whatever they look like.
    public static let textKeys: Set<String> = [LiveKey.exercise, LiveKey.workout, LiveKey.heartRateSensor]
    /// The rates `restctl watch --rate` may ask for, as restd accepts them.
    public static let subscriberRateHz = LiveLimits.standard.subscriberRateHz

    /// One line of input: `key=value` fields or a JSON object. Blank lines and lines whose
    /// first non-blank character is `#` give no fields (an empty dictionary); every other
    /// line gives at least one field or throws a sentence saying what is wrong with it.
    public static func parseLine(_ line: String) throws(InputError) -> [String: DBusValue] {
        let bytes = Array(line.utf8)
        var start = 0
        while start < bytes.count, isBlank(bytes[start]) { start += 1 }
        guard start < bytes.count, bytes[start] != UInt8(ascii: "#") else { return [:] }
        if bytes[start] == UInt8(ascii: "{") {
            return try JSONObjectParser.parseFields(bytes)
        }
        return try parseAssignments(bytes, from: start)
    }

    /// A `--set KEY=VALUE` argument. The shell has already split the words, so an unquoted
    /// value may contain spaces; a value that starts with `"` is read as a quoted text.
    public static func parseAssignment(_ argument: String) throws(InputError) -> (key: String, value: DBusValue) {
        let bytes = Array(argument.utf8)
        guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else {
            throw InputError(localized("%1$s is not key=value", MessageText.quoted(argument)))
        }
        let key = String(decoding: bytes[..<equals], as: UTF8.self)
        guard !key.isEmpty else {
            throw InputError(localized("%1$s has no key before =", MessageText.quoted(argument)))
        }
        let rest = bytes[(equals + 1)...]
        if rest.first == UInt8(ascii: "\"") {
            var index = equals + 1
            let text = try quotedText(bytes, at: &index, key: key)
            guard index == bytes.count else {
                throw InputError(localized("%1$s: text after the closing \" of its quoted value", shown(key)))
            }
            return (key, try typed(key: key, .text(text)))
        }
        guard !rest.isEmpty else { throw noValue(key) }
        return (key, try typed(key: key, .bare(String(decoding: rest, as: UTF8.self))))
    }

    /// Refuses fields restd would refuse (an unknown key, a heart rate out of range, a control
    /// character in a text, done above total), with restd's sentence: restctl and restd are one
    /// package, and these are restd's fixed rules.
    public static func check(_ fields: [String: Value]) throws(InputError) {
        var entries: [String: LiveValue] = [:]
        for (key, value) in fields {
            switch value {
            case .int64(let number): entries[key] = .integer(number)
            case .int32(let number): entries[key] = .integer(Int64(number))
            case .double(let number): entries[key] = .double(number)
            case .string(let text): entries[key] = .string(text)
            case .boolean(let flag): entries[key] = .boolean(flag)
            default: continue
            }
        }
        do {
            try LiveActivity.check(entries)
        } catch {
            throw InputError(error.message)
        }
    }

    /// The fields of `restctl live`'s options: the named ones, then each `--set KEY=VALUE`.
    /// A key given twice is refused.
    public static func fields(
        heartRate: Int64? = nil, done: Int64? = nil, total: Int64? = nil,
        exercise: String? = nil, workout: String? = nil, assignments: [String] = []
    ) throws(InputError) -> [String: DBusValue] {
        var fields: [String: DBusValue] = [:]
        if let heartRate { fields[LiveKey.heartRate] = .int64(heartRate) }
        if let done { fields[LiveKey.progressDone] = .int64(done) }
        if let total { fields[LiveKey.progressTotal] = .int64(total) }
        if let exercise { fields[LiveKey.exercise] = .string(exercise) }
        if let workout { fields[LiveKey.workout] = .string(workout) }
        for assignment in assignments {
            let (key, value) = try parseAssignment(assignment)
            guard fields[key] == nil else { throw InputError(localized("%1$s is given twice", shown(key))) }
            fields[key] = value
        }
        return fields
    }

    // MARK: key=value lines

    private static func parseAssignments(_ bytes: [UInt8], from start: Int) throws(InputError) -> [String: DBusValue] {
        var fields: [String: DBusValue] = [:]
        var index = start
        while index < bytes.count {
            if isBlank(bytes[index]) {
                index += 1
                continue
            }
            let keyStart = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "="), !isBlank(bytes[index]),
                bytes[index] != UInt8(ascii: "\"")
            {
                index += 1
            }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
                var end = index
                while end < bytes.count, !isBlank(bytes[end]) { end += 1 }
                let word = String(decoding: bytes[keyStart..<end], as: UTF8.self)
                throw InputError(localized("expected key=value, found %1$s", MessageText.quoted(word)))
            }
            let key = String(decoding: bytes[keyStart..<index], as: UTF8.self)
            guard !key.isEmpty else {
                var end = index
                while end < bytes.count, !isBlank(bytes[end]) { end += 1 }
                throw InputError(
                    localized(
                        "%1$s has no key before =",
                        MessageText.quoted(String(decoding: bytes[keyStart..<end], as: UTF8.self))))
            }
            index += 1  // "="
            let literal: Literal
            if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                literal = .text(try quotedText(bytes, at: &index, key: key))
                guard index == bytes.count || isBlank(bytes[index]) else {
                    throw InputError(
                        localized(
                            "%1$s: put a space after the closing \" of its value, before the next field", shown(key)))
                }
            } else {
                let valueStart = index
                while index < bytes.count, !isBlank(bytes[index]) {
                    if bytes[index] == UInt8(ascii: "\"") {
                        throw InputError(
                            localized(
                                "%1$s: a \" inside an unquoted value; quote the whole value and write the quote as \\\"",
                                shown(key))
                        )
                    }
                    index += 1
                }
                guard index > valueStart else { throw noValue(key) }
                literal = .bare(String(decoding: bytes[valueStart..<index], as: UTF8.self))
            }
            guard fields[key] == nil else { throw InputError(localized("%1$s is given twice", shown(key))) }
            fields[key] = try typed(key: key, literal)
        }
        return fields
    }

    /// A `"…"` value starting at `index` (on the opening quote), with `\"` and `\\` escapes;
    /// leaves `index` after the closing quote.
    private static func quotedText(_ bytes: [UInt8], at index: inout Int, key: String) throws(InputError) -> String {
        var text: [UInt8] = []
        index += 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: text, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") {
                guard index + 1 < bytes.count else { break }
                let escaped = bytes[index + 1]
                guard escaped == UInt8(ascii: "\"") || escaped == UInt8(ascii: "\\") else {
                    let next = String(decoding: bytes[(index + 1)...], as: UTF8.self).unicodeScalars.first!
                    throw InputError(
                        localized(
                            "%1$s: unknown escape \\%2$s in its quoted value; only \\\" and \\\\ are escapes",
                            shown(key),
                            visible(next)))
                }
                text.append(escaped)
                index += 2
                continue
            }
            text.append(byte)
            index += 1
        }
        throw InputError(localized("%1$s: the quoted value has no closing \"", shown(key)))
    }

    private static func noValue(_ key: String) -> InputError {
        integerKeys.contains(key)
            ? InputError(localized("%1$s has no value", shown(key)))
            : InputError(localized("%1$s has no value; write %2$s=\"\" for an empty text", shown(key), shown(key)))
    }

    // MARK: Typing

    /// A value as written, before it is typed by its key.
    enum Literal {
        /// A quoted value or a JSON string.
        case text(String)
        /// An unquoted value of a key=value line or --set.
        case bare(String)
        /// A JSON number, as written.
        case number(String)
        /// JSON true or false.
        case boolean(Bool)
    }

    static func typed(key: String, _ literal: Literal) throws(InputError) -> DBusValue {
        if integerKeys.contains(key) {
            switch literal {
            case .text(let text):
                throw InputError(
                    localized("%1$s must be an integer, not the text %2$s", shown(key), MessageText.quoted(text)))
            case .boolean(let flag):
                throw InputError(localized("%1$s must be an integer, not %2$s", shown(key), flag))
            case .bare(let text), .number(let text):
                guard isInteger(text) else {
                    throw InputError(localized("%1$s %2$s is not an integer", shown(key), MessageText.quoted(text)))
                }
                return .int64(try integer(text, key: key))
            }
        }
        if textKeys.contains(key) {
            switch literal {
            case .text(let text), .bare(let text): return .string(text)
            case .number(let text):
                throw InputError(localized("%1$s must be a text, not the number %2$s", shown(key), text))
            case .boolean(let flag): throw InputError(localized("%1$s must be a text, not %2$s", shown(key), flag))
            }
        }
        switch literal {
        case .text(let text):
            return .string(text)
        case .boolean(let flag):
            return .boolean(flag)
        case .number(let text):
            return try number(text, key: key)
        case .bare(let text):
            if text == "true" { return .boolean(true) }
            if text == "false" { return .boolean(false) }
            if isJSONNumber(Array(text.utf8)) { return try number(text, key: key) }
            return .string(text)
        }
    }

    /// Whether a text value of `key` would be read back as a text when written unquoted:
    /// false for the custom values that look like numbers or booleans.
    static func readsAsText(_ text: String, key: String) -> Bool {
        if textKeys.contains(key) { return true }
        return text != "true" && text != "false" && !isJSONNumber(Array(text.utf8))
    }

    private static func number(_ text: String, key: String) throws(InputError) -> DBusValue {
        if isInteger(text) { return .int64(try integer(text, key: key)) }
        guard let value = Double(text), value.isFinite else {
            throw InputError(localized("%1$s %2$s is out of range for a number", shown(key), text))
        }
        return .double(value)
    }

    private static func integer(_ text: String, key: String) throws(InputError) -> Int64 {
        guard let value = Int64(text) else {
            throw InputError(localized("%1$s %2$s is too large for a 64-bit integer", shown(key), text))
        }
        return value
    }

    /// `-?[0-9]+`
    private static func isInteger(_ text: String) -> Bool {
        var digits = Substring(text)
        if digits.first == "-" { digits = digits.dropFirst() }
        return !digits.isEmpty && digits.utf8.allSatisfy(isDigit)
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, the JSON number grammar.
    static func isJSONNumber(_ bytes: [UInt8]) -> Bool {
        numberLength(bytes, from: 0) == bytes.count && !bytes.isEmpty
    }

    /// How many bytes of a JSON number start at `from` (0 when none does).
    static func numberLength(_ bytes: [UInt8], from: Int) -> Int {
        var index = from
        func digits() -> Int {
            let start = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            return index - start
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { return 0 }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            _ = digits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return 0 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digits() > 0 else { return 0 }
        }
        return index - from
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// A key as messages show it: bare when it is a plain name, quoted and escaped otherwise.
    static func shown(_ key: String) -> String {
        let plain =
            !key.isEmpty
            && key.utf8.allSatisfy { byte in
                isDigit(byte) || byte == UInt8(ascii: "_") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            }
        return plain ? key : MessageText.quoted(key)
    }

    private static func visible(_ scalar: Unicode.Scalar) -> String {
        scalar.value >= 0x21 && scalar.value < 0x7F ? String(scalar) : MessageText.codePoint(scalar)
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }
}
