import Localization

/// How every message of restd and restctl quotes and writes what it names (CONTRIBUTING.md,
/// "Messages"): a value as it was given in double quotes (`duration "1x"`), what one types — a
/// command, an option, a key, a suggestion — in single quotes (`did you mean 'rest'?`).
public enum MessageText {
    /// Quotes a value as it was given, safely for a message: escapes quotes, backslashes and
    /// control or format characters as `\u{…}`, and truncates after `limit` characters with "…".
    ///
    /// Caller-supplied values end up in journal lines and bus replies; raw control
    /// characters there could forge log lines or corrupt a terminal.
    public static func quoted(_ text: String, limit: Int = 40) -> String {
        escaped(text, quote: "\"", limit: limit)
    }

    /// Quotes something one types — a command line, an option, a key, a name suggested — in
    /// single quotes, escaped as `quoted` escapes (an unknown key may hold anything).
    public static func name(_ text: String, limit: Int = 40) -> String {
        escaped(text, quote: "'", limit: limit)
    }

    /// A number written with a dot ("102.5") as `catalog`'s language writes it: "102,5" in German.
    public static func decimal(_ text: String, catalog: Catalog) -> String {
        guard text.utf8.contains(UInt8(ascii: ".")) else { return text }
        // TRANSLATORS: what separates a number's fraction, as in 62.5 kg.
        let separator = catalog.localizedInContext("decimal separator", ".")
        // A separator of any length (the pseudo-language's is "⟦,⟧"), never one Character.
        return separator == "."
            ? text : text.split(separator: ".", omittingEmptySubsequences: false).joined(separator: separator)
    }

    /// A decimal number as messages write it: 2, 2.5, 0.01.
    public static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    private static func escaped(_ text: String, quote: Unicode.Scalar, limit: Int) -> String {
        var out = String(quote)
        var count = 0
        for scalar in text.unicodeScalars {
            if count == limit {
                out += "…"
                break
            }
            count += 1
            switch scalar {
            case quote: out += "\\" + String(quote)
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
        return out + String(quote)
    }

    /// Formats a code point the way Unicode writes it: "U+0007", "U+1F600".
    public static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
