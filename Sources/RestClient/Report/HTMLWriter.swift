import DBusKit

/// The report's page as it is written: markup appended to one string, every piece of text
/// escaped on the way in. Text from restd (exercise names, workout names, rules) goes only
/// through `text` and `attribute`, so that a name like `<script>` is shown, never run.
struct HTMLWriter {
    private(set) var html = ""

    init(capacity: Int = 0) { html.reserveCapacity(capacity) }

    /// Markup of the report's own, written as it is.
    mutating func raw(_ markup: String) { html += markup }

    /// Text between tags, escaped.
    mutating func text(_ text: String) { html += XMLText.escaped(text) }

    /// ` name="value"`, the value escaped.
    mutating func attribute(_ name: StaticString, _ value: String) {
        html += " "
        html += name.description
        html += "=\""
        html += XMLText.escaped(value)
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
}
