import Localization

/// Splits CSV text into records as its bytes arrive, chunk by chunk, so that a file of any size
/// is read in bounded memory (RFC 4180: a quoted field may hold the delimiter, a line break, and
/// a quote written twice). Lenient where exports are: a quote inside an unquoted field is kept,
/// and lines may end in LF, CRLF or CR.
struct CSVSplitter {
    /// One record, or why one could not be read; `line` is the line where it starts.
    enum Output: Equatable {
        case record([String], line: Int)
        case unreadable(String, line: Int)
    }

    /// The longest record read: anything longer is not a row of these exports.
    static let maxRecordBytes = 64 * 1024

    let delimiter: UInt8
    private var field: [UInt8] = []
    private var fields: [String] = []
    private var quoted = false
    /// Inside a quoted field, a quote was just read: the next byte says whether it closes it.
    private var quoteAfterQuote = false
    private var skipLineFeed = false
    private var line = 1
    private var recordLine = 1
    private var recordBytes = 0
    /// Why the record being read cannot be, once known: the rest of it is skipped.
    private var problem: String?
    /// A record over `maxRecordBytes` is skipped to the end of its line, quotes or not.
    private var skippingToLineEnd = false

    init(delimiter: UInt8) {
        self.delimiter = delimiter
    }

    mutating func split(_ bytes: some Sequence<UInt8>, into out: inout [Output]) {
        for byte in bytes { take(byte, into: &out) }
    }

    /// The last record, when the file does not end with a line break.
    mutating func finish(into out: inout [Output]) {
        if quoteAfterQuote {
            quoteAfterQuote = false
            quoted = false
        }
        if quoted {
            problem = problem ?? localized("a quoted field is not closed before the end of the file")
            quoted = false
        }
        if recordBytes > 0 || !fields.isEmpty || problem != nil { endRecord(into: &out) }
    }

    private mutating func take(_ byte: UInt8, into out: inout [Output]) {
        if skipLineFeed {
            skipLineFeed = false
            if byte == UInt8(ascii: "\n") { return }
        }
        if skippingToLineEnd {
            guard byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") else { return }
            skippingToLineEnd = false
            quoted = false
            quoteAfterQuote = false
            endLine(byte, into: &out)
            return
        }
        recordBytes += 1
        if recordBytes > Self.maxRecordBytes {
            problem = problem ?? localized("the line is longer than %1$d KiB", Self.maxRecordBytes / 1024)
            skippingToLineEnd = true
            return
        }
        if byte == 0 { problem = problem ?? localized("it holds a NUL byte (binary data)") }
        if quoted {
            if quoteAfterQuote {
                quoteAfterQuote = false
                if byte == UInt8(ascii: "\"") {
                    field.append(byte)
                    return
                }
                quoted = false
                // Falls through: the byte after the closing quote is read as outside quotes.
            } else {
                if byte == UInt8(ascii: "\"") {
                    quoteAfterQuote = true
                } else {
                    if byte == UInt8(ascii: "\n") || (byte == UInt8(ascii: "\r")) { countLineBreak(byte) }
                    field.append(byte)
                }
                return
            }
        }
        switch byte {
        case delimiter:
            endField()
        case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
            endLine(byte, into: &out)
        case UInt8(ascii: "\"") where field.isEmpty:
            quoted = true
        default:
            field.append(byte)
        }
    }

    /// A line break inside a quoted field: lines go on being counted.
    private mutating func countLineBreak(_ byte: UInt8) {
        if byte == UInt8(ascii: "\r") {
            line += 1
            skipLineFeedInField = true
        } else if skipLineFeedInField {
            skipLineFeedInField = false
        } else {
            line += 1
        }
    }
    private var skipLineFeedInField = false

    private mutating func endLine(_ byte: UInt8, into out: inout [Output]) {
        if byte == UInt8(ascii: "\r") { skipLineFeed = true }
        // A blank line is no record.
        if recordBytes > 1 || !fields.isEmpty || !field.isEmpty || problem != nil { endRecord(into: &out) }
        line += 1
        recordLine = line
        recordBytes = 0
        skipLineFeedInField = false
    }

    private mutating func endField() {
        if problem == nil {
            if let text = String(validating: field, as: UTF8.self) {
                fields.append(text)
            } else {
                problem = localized("it is not UTF-8 text")
            }
        }
        field.removeAll(keepingCapacity: true)
    }

    private mutating func endRecord(into out: inout [Output]) {
        endField()
        if let problem {
            out.append(.unreadable(problem, line: recordLine))
        } else {
            out.append(.record(fields, line: recordLine))
        }
        fields.removeAll(keepingCapacity: true)
        problem = nil
        recordBytes = 0
    }
}
