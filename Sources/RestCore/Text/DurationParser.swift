import Localization

/// The one duration grammar of restd and restctl: the command line's DURATION arguments,
/// the durations of config.toml and those of workout plans are read by it, so that all take
/// the same words.
///
/// Accepted forms: whole seconds (`90`), amounts with units in the order hours, minutes,
/// seconds (`90s`, `2m`, `1m30s`, `1h2m3s`; the units as letters or words: `h`, `hr`, `hrs`,
/// `hour`, `hours`, `m`, `min`, `mins`, `minute`, `minutes`, `s`, `sec`, `secs`, `second`,
/// `seconds`, in English whatever the language), decimals that make whole seconds (`1.5m` is
/// 90 s, `0.5s` is refused), and clock times (`1:30` is m:ss, `1:02:03` is h:mm:ss). Zero is
/// a duration like any other here; whether an amount is in range is for the caller to say (a
/// rest is 1 s to 24 h, `expired_retention` may be 0).
public enum DurationParser {
    /// The forms, for sentences and help, in the installed catalog's language.
    public static var forms: String {
        // TRANSLATORS: the forms of a duration restctl takes; the words in parentheses are typed as they are.
        localized("seconds (90), units (1h2m3s, 1m30s, 90s, 2min, 1.5m) or a clock time (1:30, 1:02:03)")
    }

    /// The unit words, each with its seconds.
    static let units: [String: UInt64] = [
        "h": 3_600, "hr": 3_600, "hrs": 3_600, "hour": 3_600, "hours": 3_600,
        "m": 60, "min": 60, "mins": 60, "minute": 60, "minutes": 60,
        "s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1,
    ]

    /// Parses `text` into microseconds, at most `Int64.max` (so that it can be negated for
    /// Adjust); throws a `DurationError` whose message names `text` and says what would work.
    /// `name` is what the sentence calls the value: `duration "1x" is not understood…` by
    /// default, `--warn "1x" …` or `default_duration "1x" …` when the caller says so.
    public static func parse(_ text: String, name: String = "duration") throws(DurationError) -> UInt64 {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else {
            throw DurationError(.empty, localized("%1$s is empty; give %2$s", name, forms))
        }
        let subject = "\(name) \(MessageText.quoted(text))"  // what every sentence below is about
        if bytes[0] == UInt8(ascii: "-") {
            throw DurationError(.negative, localized("%1$s is negative; give %2$s", subject, forms))
        }
        let seconds =
            bytes.contains(UInt8(ascii: ":"))
            ? try clockSeconds(bytes, subject: subject)
            : try unitSeconds(bytes, subject: subject)
        let (usec, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
        guard !overflow, usec <= UInt64(Int64.max) else { throw tooLong(subject) }
        return usec
    }

    // `m:ss` or `h:mm:ss`: the first field is unbounded, the others are two digits below 60.
    private static func clockSeconds(_ bytes: [UInt8], subject: String) throws(DurationError) -> UInt64 {
        let fields = bytes.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        guard fields.count <= 3, fields.allSatisfy({ !$0.isEmpty && $0.allSatisfy(isDigit) }) else {
            throw notUnderstood(subject)
        }
        var total: UInt64 = 0
        for (index, field) in fields.enumerated() {
            let value = try number(field, subject: subject)
            if index > 0 {
                guard field.count == 2 else {
                    throw DurationError(
                        .notUnderstood, localized("%1$s needs two digits after each colon, as in 1:05", subject))
                }
                guard value < 60 else {
                    throw DurationError(
                        .notUnderstood,
                        index == fields.count - 1
                            ? localized("%1$s has %2$d seconds; after a colon use 00 to 59", subject, value)
                            : localized("%1$s has %2$d minutes; after a colon use 00 to 59", subject, value))
                }
            }
            total = try add(try multiply(total, 60, subject: subject), value, subject: subject)
        }
        return total
    }

    // Plain seconds, or amount-unit pairs with units in the order h, m, s, each at most once; an
    // amount may have decimals when it makes whole seconds.
    private static func unitSeconds(_ bytes: [UInt8], subject: String) throws(DurationError) -> UInt64 {
        var total: UInt64 = 0
        var smallestUnitSoFar = UInt64.max
        var index = 0
        while index < bytes.count {
            let start = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            guard index > start else { throw notUnderstood(subject) }
            let whole = try number(bytes[start..<index], subject: subject)
            var fraction: (digits: UInt64, scale: UInt64) = (0, 1)
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                let fractionStart = index
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
                guard index > fractionStart, index - fractionStart <= 6 else { throw notUnderstood(subject) }
                fraction = (
                    try number(bytes[fractionStart..<index], subject: subject),
                    try multiply(1, power(10, index - fractionStart), subject: subject)
                )
            }
            let wordStart = index
            while index < bytes.count, isLetter(bytes[index]) { index += 1 }
            // A bare number is seconds, and only alone (`90`, `1.5` is refused below).
            let word = String(decoding: bytes[wordStart..<index], as: UTF8.self)
            guard let unit = word.isEmpty && start == 0 && index == bytes.count ? 1 : units[word] else {
                throw notUnderstood(subject)
            }
            if unit == smallestUnitSoFar {
                throw DurationError(.notUnderstood, twice(unit, subject: subject))
            }
            guard unit < smallestUnitSoFar else {
                throw DurationError(
                    .notUnderstood,
                    localized(
                        "%1$s has its units out of order; give hours, then minutes, then seconds, as in 1h2m3s", subject
                    ))
            }
            smallestUnitSoFar = unit
            // (whole + digits / scale) × unit, in whole seconds only.
            let scaled = try add(
                try multiply(try multiply(whole, fraction.scale, subject: subject), unit, subject: subject),
                try multiply(fraction.digits, unit, subject: subject), subject: subject)
            guard scaled % fraction.scale == 0 else {
                throw DurationError(
                    .notUnderstood,
                    localized("%1$s is not a whole number of seconds; give whole seconds, as in 1.5m (90 s)", subject))
            }
            total = try add(total, scaled / fraction.scale, subject: subject)
        }
        return total
    }

    private static func twice(_ unit: UInt64, subject: String) -> String {
        switch unit {
        case 3_600: localized("%1$s gives the hours twice; give each unit once, as in 1h2m3s", subject)
        case 60: localized("%1$s gives the minutes twice; give each unit once, as in 1h2m3s", subject)
        default: localized("%1$s gives the seconds twice; give each unit once, as in 1h2m3s", subject)
        }
    }

    private static func power(_ base: UInt64, _ exponent: Int) -> UInt64 {
        (0..<exponent).reduce(1) { result, _ in result * base }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")
    }

    private static func number(_ digits: ArraySlice<UInt8>, subject: String) throws(DurationError) -> UInt64 {
        var value: UInt64 = 0
        for digit in digits {
            value = try add(
                try multiply(value, 10, subject: subject), UInt64(digit - UInt8(ascii: "0")), subject: subject)
        }
        return value
    }

    private static func multiply(_ a: UInt64, _ b: UInt64, subject: String) throws(DurationError) -> UInt64 {
        let (result, overflow) = a.multipliedReportingOverflow(by: b)
        if overflow { throw tooLong(subject) }
        return result
    }

    private static func add(_ a: UInt64, _ b: UInt64, subject: String) throws(DurationError) -> UInt64 {
        let (result, overflow) = a.addingReportingOverflow(b)
        if overflow { throw tooLong(subject) }
        return result
    }

    // ASCII only: Character.isNumber would let "٣" or "３" through.
    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func notUnderstood(_ subject: String) -> DurationError {
        DurationError(.notUnderstood, localized("%1$s is not understood; give %2$s", subject, forms))
    }

    private static func tooLong(_ subject: String) -> DurationError {
        DurationError(.tooLong, localized("%1$s is too long to count", subject))
    }
}

/// A text that is not a duration, with one sentence saying why and what would work.
public struct DurationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong, for callers that say more than the sentence (restctl's `add -5`).
    public enum Reason: Sendable, Equatable {
        case empty
        /// It starts with `-`.
        case negative
        /// Not one of the forms, or a clock field out of 00…59.
        case notUnderstood
        /// More microseconds than an Int64 holds.
        case tooLong
    }

    public let reason: Reason
    /// The sentence, without a trailing period; it names the text as given.
    public let message: String

    public init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    public var description: String { message }
}
