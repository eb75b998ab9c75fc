import Localization

// Date-times: RFC 3339 as TOML 1.0 writes it, checked field by field, so that a typo such as
// 1979-02-30 or 25:00:00 is refused with its reason rather than kept. restd reads no date-time;
// the value stays the text as written.

extension Reader {
    /// Whether `word` is meant as a date or a time ("1979-…" or "07:…"), valid or not.
    static func looksLikeDateTime(_ word: String) -> Bool {
        let bytes = Array(word.utf8.prefix(5))
        func digits(_ range: Range<Int>) -> Bool { range.allSatisfy { $0 < bytes.count && isDigit(bytes[$0]) } }
        return (digits(0..<4) && bytes.count == 5 && bytes[4] == UInt8(ascii: "-"))
            || (digits(0..<2) && bytes.count > 2 && bytes[2] == UInt8(ascii: ":"))
    }

    /// Why `word` is not an offset date-time, local date-time, local date or local time; nil if it is.
    static func dateTimeProblem(_ word: String) -> String? {
        var text = DateTimeText(Array(word.utf8))
        var hasDate = false
        if text.bytes.count > 4, text.bytes[4] == UInt8(ascii: "-") {
            guard let year = text.number(4), text.skip("-"), let month = text.number(2), text.skip("-"),
                let day = text.number(2)
            else { return localized("a date is YYYY-MM-DD") }
            guard (1...12).contains(month) else { return localized("there is no month %1$s", twoDigits(month)) }
            let days = daysIn(month: month, year: year)
            guard day >= 1 else { return localized("there is no day 00") }
            guard day <= days else { return localized("the month %1$s has %2$d days", String(word.prefix(7)), days) }
            if text.atEnd { return nil }
            // The date and the time are separated by T, t or one space (RFC 3339 allows the space).
            guard text.skip("T") || text.skip("t") || text.skip(" ") else {
                return localized("only a time, after T, may follow a date")
            }
            hasDate = true
        }
        guard let hour = text.number(2), text.skip(":"), let minute = text.number(2), text.skip(":"),
            let second = text.number(2)
        else { return localized("a time is HH:MM:SS, two digits each") }
        guard hour <= 23 else { return localized("the hour must be 00 to 23") }
        guard minute <= 59 else { return localized("the minute must be 00 to 59") }
        // 60: RFC 3339's leap second.
        guard second <= 60 else { return localized("the second must be 00 to 60") }
        if text.skip(".") {
            guard text.digits() > 0 else { return localized("the decimal point must be followed by digits") }
        }
        if text.atEnd { return nil }
        guard hasDate else { return localized("a time without a date has no offset") }
        if text.skip("Z") || text.skip("z") { return text.atEnd ? nil : localized("nothing may follow the offset Z") }
        guard text.skip("+") || text.skip("-"), let hours = text.number(2), text.skip(":"),
            let minutes = text.number(2), text.atEnd, hours <= 23, minutes <= 59
        else { return localized("an offset is Z or ±HH:MM, from -23:59 to +23:59") }
        return nil
    }

    static func daysIn(month: Int, year: Int) -> Int {
        let isLeapYear = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        return month == 2 ? (isLeapYear ? 29 : 28) : [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    }

    static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}

/// A date-time's bytes, read left to right.
private struct DateTimeText {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index == bytes.count }

    /// Exactly `count` digits, as a number.
    mutating func number(_ count: Int) -> Int? {
        guard index + count <= bytes.count, bytes[index..<(index + count)].allSatisfy(Reader.isDigit) else {
            return nil
        }
        defer { index += count }
        return bytes[index..<(index + count)].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    /// Any number of digits; how many.
    mutating func digits() -> Int {
        let start = index
        while index < bytes.count, Reader.isDigit(bytes[index]) { index += 1 }
        return index - start
    }

    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }
}
