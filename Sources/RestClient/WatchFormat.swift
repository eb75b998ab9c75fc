import DBusKit
import RestCore

/// How `restctl watch` writes a state: one line each, without the newline.
///
/// A format is a pure function of the state and the wall clock, so that a later format (a
/// bar, a local countdown) is one more case here and one more test file.
public enum WatchFormat: String, CaseIterable, Sendable {
    /// `default  running  1:23  Squat · Next: Bench press | heart_rate=142 progress=3/5 exercise="Bench press"`;
    /// `idle` when there is no timer. See `LiveFieldsText`.
    case text
    /// `{"timer":{…TimerJSON…},"live":{"heart_rate":142,"progress_done":3,"progress_total":5}}`;
    /// `"timer":null` when there is no timer, `"live":{}` when there are no fields.
    case json

    /// The line for `state` at wall-clock time `now` (µs).
    public func line(_ state: WatchState, now: UInt64) -> String {
        switch self {
        case .text:
            var line = state.timer.map { TimerLine.format($0, now: now) } ?? "idle"
            if !state.live.isEmpty { line += " | " + LiveFieldsText.text(state.live) }
            return line
        case .json:
            return "{\"timer\":" + (state.timer.map { TimerJSON.object($0, now: now) } ?? "null")
                + ",\"live\":" + LiveFieldsText.json(state.live) + "}"
        }
    }
}

/// Live fields as text and as JSON, keys in a fixed order: heart_rate, progress_done,
/// progress_total, exercise, workout, then every other key sorted.
public enum LiveFieldsText {
    /// The keys of `fields` in display order.
    public static func orderedKeys(_ fields: [String: DBusValue]) -> [String] {
        LiveKey.known.filter { fields[$0] != nil } + fields.keys.filter { !LiveKey.known.contains($0) }.sorted()
    }

    /// `heart_rate=142 progress=3/5 exercise="Bench press" workout=Push x_zone=3`: fields one
    /// space apart; progress as done/total when both are set; a text quoted (with `\"` and `\\`)
    /// when it is empty, holds white space, a quote or a backslash, or would read back as a
    /// number or boolean — the way `restctl live --stdin` reads it.
    public static func text(_ fields: [String: DBusValue]) -> String {
        var parts: [String] = []
        let bothProgress = fields[LiveKey.progressDone] != nil && fields[LiveKey.progressTotal] != nil
        for key in orderedKeys(fields) {
            let value = fields[key]!
            if bothProgress, key == LiveKey.progressDone {
                parts.append("progress=" + text(value, key: key) + "/" + text(fields[LiveKey.progressTotal]!, key: key))
                continue
            }
            if bothProgress, key == LiveKey.progressTotal { continue }
            parts.append(key + "=" + text(value, key: key))
        }
        return parts.joined(separator: " ")
    }

    /// The fields as one JSON object: integers and numbers as JSON numbers, texts as strings,
    /// booleans as true/false.
    public static func json(_ fields: [String: DBusValue]) -> String {
        "{" + orderedKeys(fields).map { JSONText.quoted($0) + ":" + json(fields[$0]!) }.joined(separator: ",") + "}"
    }

    private static func text(_ value: DBusValue, key: String) -> String {
        switch value.unwrapped {
        case .string(let text):
            return needsQuotes(text, key: key) ? quoted(text) : text
        case .boolean(let flag):
            return flag ? "true" : "false"
        case .double(let number):
            return number.isFinite ? String(number) : quoted(String(number))
        case let other:
            if let integer = other.int64 { return String(integer) }
            if let integer = other.uint64 { return String(integer) }
            return quoted(String(describing: other))
        }
    }

    private static func json(_ value: DBusValue) -> String {
        switch value.unwrapped {
        case .string(let text): return JSONText.quoted(text)
        case .boolean(let flag): return flag ? "true" : "false"
        case .double(let number): return number.isFinite ? String(number) : "null"
        case let other:
            if let integer = other.int64 { return String(integer) }
            if let integer = other.uint64 { return String(integer) }
            return "null"
        }
    }

    private static func needsQuotes(_ text: String, key: String) -> Bool {
        text.isEmpty || !LiveInput.readsAsText(text, key: key)
            || text.unicodeScalars.contains { scalar in
                scalar == "\"" || scalar == "\\" || scalar.properties.isWhitespace || !isVisible(scalar)
            }
    }

    /// `"…"` with `\"` and `\\`; characters that would break the line as `\u{…}`.
    private static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                if isVisible(scalar) || scalar == " " {
                    out.unicodeScalars.append(scalar)
                } else {
                    out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                }
            }
        }
        return out + "\""
    }

    private static func isVisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: false
        default: true
        }
    }
}
