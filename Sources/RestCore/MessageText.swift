/// Helpers for putting caller-supplied text into error sentences and logs.
public enum MessageText {
    /// Quotes `text` safely for a message: escapes quotes, backslashes and control or
    /// format characters as `\u{…}`, and truncates after `limit` characters with "…".
    ///
    /// Caller-supplied values end up in journal lines and bus replies; raw control
    /// characters there could forge log lines or corrupt a terminal.
    public static func quoted(_ text: String, limit: Int = 40) -> String {
        var out = "\""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == limit {
                out += "…"
                break
            }
            count += 1
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                switch scalar.properties.generalCategory {
                case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate,
                    .privateUse, .unassigned:
                    out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                default:
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// Formats a code point the way Unicode writes it: "U+0007", "U+1F600".
    public static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
