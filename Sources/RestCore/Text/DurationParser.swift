/// The one duration grammar of restd and restctl: the command line's DURATION arguments and
/// the durations of config.toml are read by it, so that both take the same words.
///
/// Accepted forms: whole seconds (`90`), units in the order h, m, s (`90s`, `2m`, `1m30s`,
/// `1h2m3s`) and clock times (`1:30` is m:ss, `1:02:03` is h:mm:ss). Zero is a duration like
/// any other here; whether an amount is in range is for the caller to say (a rest is 1 s to
/// 24 h, `expired_retention` may be 0).
public enum DurationParser {
    /// The forms, for sentences and help.
    public static let forms = "seconds (90), units (1h2m3s, 1m30s, 90s) or a clock time (1:30, 1:02:03)"

    /// Parses `text` into microseconds, at most `Int64.max` (so that it can be negated for
    /// Adjust); throws a `DurationError` whose message names `text` and says what would work.
    /// `name` is what the sentence calls the value: `duration "1x" is not understood…` by
    /// default, `--warn "1x" …` or `default_duration "1x" …` when the caller says so.
    public static func parse(_ text: String, name: String = "duration") throws(DurationError) -> UInt64 {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else {
            throw DurationError(.empty, "\(name) is empty; give \(forms)")
        }
        let subject = "\(name) \(MessageText.quoted(text))"  // what every sentence below is about
        if bytes[0] == UInt8(ascii: "-") {
            throw DurationError(.negative, "\(subject) is negative; give \(forms)")
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
                let unit = index == fields.count - 1 ? "seconds" : "minutes"
                guard field.count == 2 else {
                    throw DurationError(
                        .notUnderstood,
                        "\(subject) needs two digits after each colon, as in 1:05")
                }
                guard value < 60 else {
                    throw DurationError(
                        .notUnderstood,
                        "\(subject) has \(value) \(unit); after a colon use 00 to 59")
                }
            }
            total = try add(try multiply(total, 60, subject: subject), value, subject: subject)
        }
        return total
    }

    // Plain seconds, or number-unit pairs with units in the order h, m, s, each at most once.
    private static func unitSeconds(_ bytes: [UInt8], subject: String) throws(DurationError) -> UInt64 {
        if bytes.allSatisfy(isDigit) { return try number(bytes[...], subject: subject) }
        var total: UInt64 = 0
        var smallestUnitSoFar = UInt64.max
        var index = 0
        while index < bytes.count {
            let start = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            guard index > start, index < bytes.count else { throw notUnderstood(subject) }
            let unit: UInt64
            switch bytes[index] {
            case UInt8(ascii: "h"): unit = 3_600
            case UInt8(ascii: "m"): unit = 60
            case UInt8(ascii: "s"): unit = 1
            default: throw notUnderstood(subject)
            }
            guard unit < smallestUnitSoFar else { throw notUnderstood(subject) }
            smallestUnitSoFar = unit
            let value = try number(bytes[start..<index], subject: subject)
            total = try add(total, try multiply(value, unit, subject: subject), subject: subject)
            index += 1
        }
        return total
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
        DurationError(.notUnderstood, "\(subject) is not understood; give \(forms)")
    }

    private static func tooLong(_ subject: String) -> DurationError {
        DurationError(.tooLong, "\(subject) is too long to count")
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
