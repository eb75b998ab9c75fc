import RestCore

/// Reads the DURATION argument of restctl as whole seconds, returned in microseconds.
///
/// Accepted forms: seconds (`90`), units in the order h, m, s (`90s`, `2m`, `1m30s`, `1h2m3s`)
/// and clock times (`1:30` is m:ss, `1:02:03` is h:mm:ss). Whether the amount is in range
/// for a timer is restd's decision; this only refuses what is not a positive amount of time.
public enum DurationParser {
    /// The forms, for sentences and help.
    public static let forms = "seconds (90), units (1h2m3s, 1m30s, 90s) or a clock time (1:30, 1:02:03)"

    /// Parses `text`; the result is at least 1 s and at most `Int64.max` µs, so it can be
    /// negated for Adjust.
    public static func parse(_ text: String) throws(InputError) -> UInt64 {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else {
            throw InputError("duration is empty; give \(forms)")
        }
        if bytes[0] == UInt8(ascii: "-") {
            throw InputError("duration \(quoted(text)) is negative; give \(forms)")
        }
        let seconds = bytes.contains(UInt8(ascii: ":"))
            ? try clockSeconds(bytes, text: text)
            : try unitSeconds(bytes, text: text)
        guard seconds > 0 else {
            throw InputError("duration \(quoted(text)) is zero; give at least 1 second")
        }
        let (usec, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
        guard !overflow, usec <= UInt64(Int64.max) else { throw tooLong(text) }
        return usec
    }

    // `m:ss` or `h:mm:ss`: the first field is unbounded, the others are two digits below 60.
    private static func clockSeconds(_ bytes: [UInt8], text: String) throws(InputError) -> UInt64 {
        let fields = bytes.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        guard fields.count <= 3, fields.allSatisfy({ !$0.isEmpty && $0.allSatisfy(isDigit) }) else {
            throw notUnderstood(text)
        }
        var total: UInt64 = 0
        for (index, field) in fields.enumerated() {
            let value = try number(field, text: text)
            if index > 0 {
                let unit = index == fields.count - 1 ? "seconds" : "minutes"
                guard field.count == 2 else {
                    throw InputError("duration \(quoted(text)) needs two digits after each colon, as in 1:05")
                }
                guard value < 60 else {
                    throw InputError("duration \(quoted(text)) has \(value) \(unit); after a colon use 00 to 59")
                }
            }
            total = try add(try multiply(total, 60, text: text), value, text: text)
        }
        return total
    }

    // Plain seconds, or number-unit pairs with units in the order h, m, s, each at most once.
    private static func unitSeconds(_ bytes: [UInt8], text: String) throws(InputError) -> UInt64 {
        if bytes.allSatisfy(isDigit) { return try number(bytes[...], text: text) }
        var total: UInt64 = 0
        var smallestUnitSoFar = UInt64.max
        var index = 0
        while index < bytes.count {
            let start = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            guard index > start, index < bytes.count else { throw notUnderstood(text) }
            let unit: UInt64
            switch bytes[index] {
            case UInt8(ascii: "h"): unit = 3_600
            case UInt8(ascii: "m"): unit = 60
            case UInt8(ascii: "s"): unit = 1
            default: throw notUnderstood(text)
            }
            guard unit < smallestUnitSoFar else { throw notUnderstood(text) }
            smallestUnitSoFar = unit
            let value = try number(bytes[start..<index], text: text)
            total = try add(total, try multiply(value, unit, text: text), text: text)
            index += 1
        }
        return total
    }

    private static func number(_ digits: ArraySlice<UInt8>, text: String) throws(InputError) -> UInt64 {
        var value: UInt64 = 0
        for digit in digits {
            value = try add(try multiply(value, 10, text: text), UInt64(digit - UInt8(ascii: "0")), text: text)
        }
        return value
    }

    private static func multiply(_ a: UInt64, _ b: UInt64, text: String) throws(InputError) -> UInt64 {
        let (result, overflow) = a.multipliedReportingOverflow(by: b)
        if overflow { throw tooLong(text) }
        return result
    }

    private static func add(_ a: UInt64, _ b: UInt64, text: String) throws(InputError) -> UInt64 {
        let (result, overflow) = a.addingReportingOverflow(b)
        if overflow { throw tooLong(text) }
        return result
    }

    // ASCII only: Character.isNumber would let "٣" or "３" through.
    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func notUnderstood(_ text: String) -> InputError {
        InputError("duration \(quoted(text)) is not understood; give \(forms)")
    }

    private static func tooLong(_ text: String) -> InputError {
        InputError("duration \(quoted(text)) is too long to count")
    }

    private static func quoted(_ text: String) -> String { MessageText.quoted(text) }
}
