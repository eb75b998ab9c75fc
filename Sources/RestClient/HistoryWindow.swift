import Localization
import RestCore

/// The instants `history` and `stats` take for `--since` and `--until`: an age counted back
/// from now (`7d`, `2w`, `12h`, `90m`, or any duration restctl takes: `1h30m`), `today`,
/// `yesterday` (either with a time: `today 09:00`), or a local date and time (`2026-11-23`,
/// `2026-11-23 18:00`, `2026-11-23T18:00:30`). A whole day given to `--until` counts in full:
/// `--until today` is until the end of today, as `--since today` is from its start.
public enum HistoryWindow {
    /// The forms a time may take, in the reader's language (the words typed stay as typed).
    public static var forms: String {
        localized(
            // TRANSLATORS: "today" and "yesterday" are typed as they are: keep them in English.
            "an age (7d, 2w, 12h, 90m), today, yesterday (either with a time: \"today 09:00\"), or a local date (2026-11-23, \"2026-11-23 18:00\")"
        )
    }

    /// Which end of the window a time is for.
    public enum Bound: String, Sendable {
        case since = "--since"
        case until = "--until"
        /// A day picked within the window (`restctl report --day`): read as --since is.
        case day = "--day"
    }

    /// CLOCK_REALTIME µs for `text` at `now` as `bound`, or one sentence naming its option.
    public static func instant(_ text: String, as bound: Bound, now: UInt64) throws(InputError) -> UInt64 {
        let trimmed = text.trimmingSpaces()
        let subject = "\(bound.rawValue) \(MessageText.quoted(text))"
        if let day = day(trimmed, now: now) {
            // A day named without a time is the whole day: its end, for --until.
            guard bound == .until else { return day }
            return LocalCalendar.startOfDay(containing: day + 25 * 3_600_000_000)
        }
        if let instant = dayAndTime(trimmed, now: now) { return instant }
        if trimmed == "now" { return now }
        var amount = trimmed
        var unit: UInt64 = 0
        if amount.hasSuffix("d") { unit = 86_400_000_000 } else if amount.hasSuffix("w") { unit = 604_800_000_000 }
        let age: UInt64
        if unit != 0 {
            amount.removeLast()
            guard !amount.isEmpty, amount.allSatisfy(\.isASCIIDigitCharacter), let count = UInt64(amount),
                count <= 100_000
            else {
                throw InputError(localized("%1$s is not understood; give %2$s", subject, forms))
            }
            age = count * unit
        } else {
            do {
                age = try DurationParser.parse(trimmed, name: bound.rawValue)
            } catch {
                throw InputError(localized("%1$s is not understood; give %2$s", subject, forms))
            }
        }
        return now > age ? now - age : 0
    }

    /// The first instant of a day named without a time: `today`, `yesterday`, `2026-11-23`.
    private static func day(_ text: String, now: UInt64) -> UInt64? {
        switch text {
        case "today": LocalCalendar.startOfDay(containing: now)
        case "yesterday": LocalCalendar.startOfPreviousDay(before: now)
        default: text.utf8.count == 10 ? localDate(text) : nil
        }
    }

    /// A day and a time of it: `today 09:00`, `yesterday 18:30:15`, `2026-11-23 18:00`.
    private static func dayAndTime(_ text: String, now: UInt64) -> UInt64? {
        guard let space = text.firstIndex(of: " ") else { return localDate(text) }
        let dayStart: UInt64
        switch text[..<space] {
        case "today": dayStart = LocalCalendar.startOfDay(containing: now)
        case "yesterday": dayStart = LocalCalendar.startOfPreviousDay(before: now)
        default: return localDate(text)
        }
        guard let date = LocalCalendar.parts(of: dayStart) else { return nil }
        return localDate(date.dateText + text[space...])
    }

    /// `YYYY-MM-DD`, optionally followed by ` ` or `T` and `HH:MM` or `HH:MM:SS`, as local time.
    static func localDate(_ text: String) -> UInt64? {
        let bytes = Array(text.utf8)
        guard bytes.count == 10 || bytes.count == 16 || bytes.count == 19 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            guard range.allSatisfy({ (48...57).contains(bytes[$0]) }) else { return nil }
            return range.reduce(0) { $0 * 10 + Int(bytes[$1] - 48) }
        }
        guard let year = number(0..<4), bytes[4] == UInt8(ascii: "-"), let month = number(5..<7),
            bytes[7] == UInt8(ascii: "-"), let day = number(8..<10)
        else { return nil }
        var local = LocalCalendar.Parts(year: year, month: month, day: day)
        if bytes.count > 10 {
            guard bytes[10] == UInt8(ascii: " ") || bytes[10] == UInt8(ascii: "T"), let hour = number(11..<13),
                bytes[13] == UInt8(ascii: ":"), let minute = number(14..<16)
            else { return nil }
            local.hour = hour
            local.minute = minute
            if bytes.count == 19 {
                guard bytes[16] == UInt8(ascii: ":"), let second = number(17..<19) else { return nil }
                local.second = second
            }
        }
        return LocalCalendar.instant(local)
    }
}

extension Character {
    fileprivate var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        var text = Substring(self)
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return String(text)
    }
}
