import DBusKit
import RestCore

/// How `restctl watch` writes a state: one line each, without the newline.
///
/// A format is a pure function of the state and the wall clock; what changes by time alone
/// changes at the instants `WatchTick` gives, for every format.
public enum WatchFormat: String, CaseIterable, Sendable {
    /// `default  running  1:23  Squat · Next: Bench press | heart_rate=142 progress=3/5 exercise="Bench press"`;
    /// `idle` when there is no timer. See `LiveFieldsText`.
    case text
    /// `{"timer":{…TimerJSON…},"live":{"heart_rate":142,"progress_done":3,"progress_total":5}}`;
    /// `"timer":null` when there is no timer, `"live":{}` when there are no fields.
    case json
    /// waybar's custom module with `return-type: json`:
    /// `{"text":"1:23 Squat → Bench press ♥142 3/5","alt":"running","tooltip":"…","class":"running","percentage":7}`.
    /// Text and tooltip are Pango markup to waybar, so `&`, `<` and `>` are escaped.
    case waybar
    /// polybar's `custom/script` with `tail = true`: the bar text (`BarText`), with `%{`
    /// (where polybar's formatting tags begin) written `% {`.
    case polybar
    /// i3blocks with `interval=persist`: the bar text, one full_text per line.
    case i3blocks
    /// i3status-rust's `custom` block with `json = true`:
    /// `{"icon":"pomodoro_break","state":"Good","text":"1:23 Squat → Bench press","short_text":"1:23"}`.
    case i3statusRs = "i3status-rs"

    /// The line for `state` at wall-clock time `now` (µs).
    public func line(_ state: WatchState, now: UInt64) -> String {
        switch self {
        case .text:
            var line = state.timer.map { TimerLine.format($0, now: now) } ?? "idle"
            if !state.live.isEmpty { line += " | " + LiveFieldsText.text(state.live) }
            return line
        case .json:
            var object = JSONObject()
            object.raw("timer", state.timer.map { TimerJSON.object($0, now: now) })
            object.raw("live", LiveFieldsText.json(state.live))
            return object.text
        case .waybar:
            let kind = JSONText.quoted(BarText.kind(state.timer))
            return "{\"text\":" + JSONText.quoted(Markup.escaped(BarText.line(state, now: now)))
                + ",\"alt\":" + kind
                + ",\"tooltip\":" + JSONText.quoted(Markup.escaped(BarText.tooltip(state, now: now)))
                + ",\"class\":" + kind
                + ",\"percentage\":" + String(BarText.percentage(state.timer, now: now)) + "}"
        case .polybar:
            return BarText.line(state, now: now).replacing("%{", with: "% {")
        case .i3blocks:
            return BarText.line(state, now: now)
        case .i3statusRs:
            return "{\"icon\":" + JSONText.quoted(Self.i3statusIcon(state.timer))
                + ",\"state\":" + JSONText.quoted(Self.i3statusState(state.timer, now: now))
                + ",\"text\":" + JSONText.quoted(BarText.line(state, now: now))
                + ",\"short_text\":" + JSONText.quoted(BarText.time(state.timer, now: now)) + "}"
        }
    }

    /// Icon names every i3status-rust icon set has: a break, a pause, a bell, a stop.
    static func i3statusIcon(_ timer: TimerSnapshot?) -> String {
        switch timer?.state {
        case "running": "pomodoro_break"
        case "paused": "pomodoro_paused"
        case "expired": "bell"
        default: "pomodoro_stopped"
        }
    }

    /// Good while resting, Warning within the timer's pre-alert, Info paused, Critical once
    /// the rest is over (time to work), Idle without a timer.
    static func i3statusState(_ timer: TimerSnapshot?, now: UInt64) -> String {
        guard let timer else { return "Idle" }
        switch timer.state {
        case "running": return BarText.isWithinWarning(timer, now: now) ? "Warning" : "Good"
        case "paused": return "Info"
        case "expired": return "Critical"
        default: return "Idle"
        }
    }
}

/// Live fields as text and as JSON, keys in a fixed order: heart_rate, heart_rate_sensor,
/// heart_rate_contact, sensor_battery, progress_done, progress_total, exercise, workout, then
/// every other key sorted.
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
