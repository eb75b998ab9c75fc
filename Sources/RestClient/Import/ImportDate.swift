import RestCore

/// A date, with a time of day where the file has one, as the exports write them:
/// `2026-03-13 15:22:05` (Strong), `13 Mar 2026, 15:22` (Hevy), `2026-03-13` (FitNotes), and
/// `2026-03-13T15:22:05Z` or with an offset (`+01:00`) as some exports write an exact instant.
struct ImportDate: Equatable {
    var local: LocalCalendar.Parts
    /// Whether the text had a time of day.
    var hasTime: Bool
    /// Minutes east of UTC when the text named its offset: then it is an instant, whatever the
    /// zone restctl runs in.
    var offsetMinutes: Int?

    private static let months = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ]

    init?(_ raw: some StringProtocol) {
        let text = Array(raw.trimmingSpaces.utf8)
        var reader = DigitReader(bytes: text)
        if let year = reader.number(digits: 4), reader.skip("-"), let month = reader.number(digits: 1...2),
            reader.skip("-"), let day = reader.number(digits: 1...2)
        {
            local = LocalCalendar.Parts(year: year, month: month, day: day)
        } else {
            // 13 Mar 2026, 15:22
            reader = DigitReader(bytes: text)
            guard let day = reader.number(digits: 1...2), reader.skip(" "), let name = reader.letters(),
                let month = Self.months.firstIndex(of: String(name.lowercased().prefix(3))), reader.skip(" "),
                let year = reader.number(digits: 4)
            else { return nil }
            _ = reader.skip(",")
            local = LocalCalendar.Parts(year: year, month: month + 1, day: day)
        }
        hasTime = false
        offsetMinutes = nil
        guard !reader.atEnd else { return }
        guard reader.skip(" ") || reader.skip("T") else { return nil }
        while reader.skip(" ") {}
        guard let hour = reader.number(digits: 1...2), reader.skip(":"), let minute = reader.number(digits: 2) else {
            return nil
        }
        local.hour = hour
        local.minute = minute
        hasTime = true
        if reader.skip(":") {
            guard let second = reader.number(digits: 2) else { return nil }
            local.second = second
            if reader.skip(".") { _ = reader.number(digits: 1...9) }
        }
        if reader.skip("Z") {
            offsetMinutes = 0
        } else if let sign = reader.sign() {
            guard let hours = reader.number(digits: 2) else { return nil }
            _ = reader.skip(":")
            let minutes = reader.number(digits: 2) ?? 0
            offsetMinutes = sign * (hours * 60 + minutes)
        }
        guard reader.atEnd else { return nil }
    }

    /// The instant it names: local dates through `localInstant` (the local calendar, or a
    /// test's zone); nil for a date that does not exist.
    func instant(localInstant: (LocalCalendar.Parts) -> USec?) -> USec? {
        guard let offsetMinutes else { return localInstant(local) }
        guard let utc = CivilTime.utcSeconds(local) else { return nil }
        let seconds = utc - Int64(offsetMinutes) * 60
        return seconds >= 0 ? USec(seconds) * 1_000_000 : nil
    }
}

/// Dates without a time zone: the seconds since 1970 of a date and time in UTC.
public enum CivilTime {
    /// nil for a date that does not exist (2026-02-30).
    public static func utcSeconds(_ parts: LocalCalendar.Parts) -> Int64? {
        guard (1...12).contains(parts.month), (0..<24).contains(parts.hour), (0..<60).contains(parts.minute),
            (0..<60).contains(parts.second), (1...daysIn(month: parts.month, year: parts.year)).contains(parts.day)
        else { return nil }
        // Howard Hinnant's days_from_civil.
        let year = Int64(parts.month <= 2 ? parts.year - 1 : parts.year)
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let month = Int64(parts.month)
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + Int64(parts.day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return days * 86_400 + Int64(parts.hour) * 3_600 + Int64(parts.minute) * 60 + Int64(parts.second)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

/// Reads numbers and words from a date's bytes.
private struct DigitReader {
    let bytes: [UInt8]
    var position = 0

    var atEnd: Bool { position == bytes.count }

    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
        position += 1
        return true
    }

    mutating func number(digits: Int) -> Int? { number(digits: digits...digits) }

    mutating func number(digits: ClosedRange<Int>) -> Int? {
        var value = 0
        var count = 0
        while position < bytes.count, count < digits.upperBound, bytes[position] >= UInt8(ascii: "0"),
            bytes[position] <= UInt8(ascii: "9")
        {
            value = value * 10 + Int(bytes[position] - UInt8(ascii: "0"))
            position += 1
            count += 1
        }
        return digits.contains(count) ? value : nil
    }

    mutating func letters() -> String? {
        let start = position
        while position < bytes.count,
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(bytes[position] | 0x20)
        {
            position += 1
        }
        return position > start ? String(decoding: bytes[start..<position], as: UTF8.self) : nil
    }

    mutating func sign() -> Int? {
        if skip("+") { return 1 }
        if skip("-") { return -1 }
        return nil
    }
}
