/// The little JSON that restctl writes, by hand (no Foundation in the client).
public enum JSONText {
    /// `text` as a JSON string literal: quotes and backslashes escaped, U+0000–U+001F,
    /// U+007F–U+009F and U+2028/U+2029 as `\uXXXX` (lower-case hex), everything else as UTF-8.
    public static func quoted(_ text: String) -> String {
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
}
