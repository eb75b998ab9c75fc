/// The report's page as it is written: markup appended to one string, every piece of text
/// escaped on the way in. Text from restd (exercise names, workout names, rules) goes only
/// through `text` and `attribute`, so that a name like `<script>` is shown, never run.
struct HTMLWriter {
    private(set) var html = ""

    init(capacity: Int = 0) { html.reserveCapacity(capacity) }

    /// Markup of the report's own, written as it is.
    mutating func raw(_ markup: String) { html += markup }

    /// Text between tags, escaped.
    mutating func text(_ text: String) { html += HTMLWriter.escaped(text) }

    /// ` name="value"`, the value escaped.
    mutating func attribute(_ name: StaticString, _ value: String) {
        html += " "
        html += name.description
        html += "=\""
        html += HTMLWriter.escaped(value)
        html += "\""
    }

    /// `<tag>text</tag>` with the text escaped: `element("td", name)`.
    mutating func element(_ tag: StaticString, _ text: String, class className: String? = nil) {
        html += "<"
        html += tag.description
        if let className { attribute("class", className) }
        html += ">"
        self.text(text)
        html += "</"
        html += tag.description
        html += ">"
    }

    /// `text` with &, <, >, " and ' as character references: safe between tags and inside a
    /// quoted attribute, in HTML and in the SVG inside it.
    static func escaped(_ text: String) -> String {
        // Most text (numbers, dates, ASCII names) has none of them: returned as it is.
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 })
        else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
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
