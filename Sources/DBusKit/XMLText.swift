/// Text inside XML, and inside the HTML and SVG written the same way: the one escaper of
/// introspection data and of restctl's report.
public enum XMLText {
    /// `text` with &, <, >, " and ' as character references: safe between tags and inside a
    /// quoted attribute. The apostrophe is `&#39;`, which XML, HTML 4 and 5 and SVG all read
    /// (`&apos;` is not HTML 4's).
    public static func escaped(_ text: String) -> String {
        // Most text (names, numbers, dates) has none of them: returned as it is.
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 })
        else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        // Scalars, not Characters: "<" followed by a combining mark is one Character that is not
        // equal to "<", yet a parser still sees the "<".
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
