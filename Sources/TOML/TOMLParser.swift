import Localization

/// A TOML 1.0 reader: the whole document into `TOMLTable`s, every value with its line.
///
/// restd's own, so that reading a configuration or a workout plan needs neither Foundation nor a
/// C++ library: the daemon links nothing that could start a thread. Written against
/// https://toml.io/en/v1.0.0; date-times are checked and kept as text. Its errors are sentences
/// a person reads (`restd --check-config`), in their language.
public enum TOMLParser {
    /// Parses a whole document.
    public static func parse(_ text: String) throws(TOMLSyntaxError) -> TOMLTable {
        var reader = Reader(Array(text.utf8))
        return try reader.document()
    }

    /// Parses a document as read from a file, refusing it when it is not UTF-8.
    public static func parse(utf8 bytes: [UInt8]) throws(TOMLSyntaxError) -> TOMLTable {
        if String(validating: bytes, as: UTF8.self) == nil {
            // Line by line to say where: a newline byte is never part of a longer UTF-8 sequence.
            for (index, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated()
            where String(validating: line, as: UTF8.self) == nil {
                throw TOMLSyntaxError(
                    line: index + 1, reason: localized("the document is not valid UTF-8, as TOML requires"))
            }
        }
        var reader = Reader(bytes)
        return try reader.document()
    }
}

/// The reader's state: the bytes, where it is, and the line it is on (for errors). Its parts are
/// by role: document structure and key paths (TOMLTables.swift), values and numbers
/// (TOMLValueSyntax.swift), date-times (TOMLDateTime.swift), strings (TOMLStrings.swift).
struct Reader {
    let bytes: [UInt8]
    var index = 0
    var line = 1

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var current: UInt8? { index < bytes.count ? bytes[index] : nil }
    func peek(_ offset: Int) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }

    func fail(_ reason: String) -> TOMLSyntaxError { TOMLSyntaxError(line: line, reason: reason) }

    mutating func advance() {
        if current == UInt8(ascii: "\n") { line += 1 }
        index += 1
    }

    // MARK: White space and comments

    mutating func skipSpaces() {
        while let byte = current, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { advance() }
    }

    /// A line feed, or the carriage return of a CRLF: a carriage return alone ends no line.
    func isLineEnd(at position: Int) -> Bool {
        guard position < bytes.count else { return false }
        return bytes[position] == UInt8(ascii: "\n")
            || (bytes[position] == UInt8(ascii: "\r") && position + 1 < bytes.count
                && bytes[position + 1] == UInt8(ascii: "\n"))
    }

    /// Blank lines and comments, as between lines or inside a list.
    mutating func skipBlankAndComments() throws(TOMLSyntaxError) {
        while let byte = current {
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || isLineEnd(at: index) {
                advance()
            } else if byte == UInt8(ascii: "#") {
                try skipComment()
            } else {
                return
            }
        }
    }

    /// From `#` to the end of the line. TOML 1.0 allows no control character in a comment but tab;
    /// a carriage return is one unless a line feed follows.
    mutating func skipComment() throws(TOMLSyntaxError) {
        while let byte = current, !isLineEnd(at: index) {
            if byte < 0x20 && byte != UInt8(ascii: "\t") || byte == 0x7F {
                throw fail(localized("control character %1$s in a comment", describe(byte)))
            }
            advance()
        }
    }

    /// After a key/value pair or a header: only spaces and a comment before the line ends.
    mutating func endOfLine() throws(TOMLSyntaxError) {
        skipSpaces()
        if current == UInt8(ascii: "#") { try skipComment() }
        if current == UInt8(ascii: "\r"), peek(1) == UInt8(ascii: "\n") { index += 1 }
        guard let byte = current else { return }
        guard byte == UInt8(ascii: "\n") else {
            throw fail(localized("expected the end of the line, found %1$s", describe(byte)))
        }
        advance()
    }

    /// The byte found where something else was expected; nil is the end of the file.
    func describe(_ byte: UInt8?) -> String {
        guard let byte else { return localized("the end of the file") }
        if byte >= 0x21 && byte < 0x7F { return "\"\(Character(Unicode.Scalar(byte)))\"" }
        return localized("byte 0x%1$s", String(byte, radix: 16, uppercase: true))
    }
}
