import Localization

/// The units a weight is read and typed in. History keeps kilograms; pounds are converted
/// exactly (1 lb = 0.45359237 kg) and kept to 0.01 kg, as every weight is.
public enum WeightUnit: String, Sendable, CaseIterable {
    case kg
    case lb

    /// Reads a unit as people and apps write it: kg, kgs, lb, lbs (any case).
    public init?(written text: String) {
        switch text.lowercased() {
        case "kg", "kgs": self = .kg
        case "lb", "lbs": self = .lb
        default: return nil
        }
    }
}

/// A number as people type it: digits with at most one decimal point ("62.5", "100", ".5").
/// No sign, exponent, hexadecimal, infinity or NaN: `1e3` is not a weight anyone means.
public struct PlainDecimal: Sendable, Equatable {
    /// The value times 10^`scale`.
    public let digits: Int64
    /// How many digits follow the point (at most `maxScale`; more are rounded away).
    public let scale: Int

    /// Digits kept after the point: beyond a ten-thousandth of a pound, a weight does not change
    /// at 0.01 kg.
    public static let maxScale = 4
    /// Digits before the point: enough for any weight or repetition count.
    public static let maxWholeDigits = 7

    /// Why a text is not a plain decimal, as the end of a sentence ("… is not a number: …").
    public enum Refusal: Error, Equatable {
        /// A comma where a dot was meant ("62,5"): the text with a dot.
        case commaForDot(String)
        /// Anything else that is not digits and one dot.
        case notPlain
        /// More digits before the point than any weight has.
        case tooLarge
    }

    /// Reads `text`, or says why not; `decimalComma` accepts "62,5" too (a file that separates
    /// its fields with semicolons writes decimals so).
    public init(parsing text: some StringProtocol, decimalComma: Bool = false) throws(Refusal) {
        var whole: Int64 = 0
        var wholeDigits = 0
        var fraction: Int64 = 0
        var fractionDigits = 0
        var roundUp = false
        var seenPoint = false
        var sawComma = false
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let digit = Int64(byte - UInt8(ascii: "0"))
                if seenPoint {
                    if fractionDigits < Self.maxScale {
                        fraction = fraction * 10 + digit
                        fractionDigits += 1
                    } else if fractionDigits == Self.maxScale {
                        roundUp = digit >= 5
                        fractionDigits += 1
                    }
                } else {
                    if wholeDigits > 0 || digit != 0 { wholeDigits += 1 }
                    guard wholeDigits <= Self.maxWholeDigits else { throw .tooLarge }
                    whole = whole * 10 + digit
                }
            case UInt8(ascii: "."), UInt8(ascii: ","):
                if byte == UInt8(ascii: ",") { sawComma = true }
                guard !seenPoint else { throw .notPlain }
                seenPoint = true
            default:
                throw .notPlain
            }
        }
        let hasDigits = text.utf8.contains { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        guard hasDigits else { throw .notPlain }
        if sawComma && !decimalComma {
            throw .commaForDot(String(text).replacing(",", with: "."))
        }
        let scale = min(fractionDigits, Self.maxScale)
        var digits = whole
        for _ in 0..<scale { digits *= 10 }
        digits += fraction + (roundUp ? 1 : 0)
        self.digits = digits
        self.scale = scale
    }

    /// The value as a Double (exact for what people type; used for repetitions and the like).
    public var value: Double {
        var divisor = 1.0
        for _ in 0..<scale { divisor *= 10 }
        return Double(digits) / divisor
    }

    /// A whole number, nil when there are digits after the point other than zeros ("8.0" is 8).
    public var whole: Int64? {
        var divisor: Int64 = 1
        for _ in 0..<scale { divisor *= 10 }
        return digits % divisor == 0 ? digits / divisor : nil
    }

    /// This number of `unit` in hundredths of a kilogram, rounded half up: exact integer
    /// arithmetic, so 225 lb is 10206 (102.06 kg) on every machine.
    public func hundredthsOfKg(_ unit: WeightUnit) -> Int64 {
        // value = digits / 10^scale; kg = value × factor / 10^factorScale.
        let (factor, factorScale): (Int64, Int) = unit == .kg ? (1, 0) : (45_359_237, 8)
        let product = digits * factor
        let shift = scale + factorScale - 2
        guard shift > 0 else { return shift == 0 ? product : product * (shift == -1 ? 10 : 100) }
        var divisor: Int64 = 1
        for _ in 0..<shift { divisor *= 10 }
        return (product + divisor / 2) / divisor
    }
}

/// A weight as typed: a plain decimal with an optional unit ("62.5", "225lb", "100 kg").
public struct TypedWeight: Sendable, Equatable {
    public let amount: PlainDecimal
    /// The unit written after the number, nil when none was.
    public let unit: WeightUnit?

    /// Reads `text`; `decimalComma` accepts "62,5" too (where the reader's language writes
    /// decimals so), else a comma is refused with the text dotted.
    public init(parsing text: String, decimalComma: Bool = false) throws(PlainDecimal.Refusal) {
        var number = Substring(text)
        while let last = number.last, last == " " { number = number.dropLast() }
        var suffix = ""
        while let last = number.last, last.isLetter {
            suffix = String(last) + suffix
            number = number.dropLast()
        }
        while let last = number.last, last == " " { number = number.dropLast() }
        if suffix.isEmpty {
            unit = nil
        } else if let written = WeightUnit(written: suffix) {
            unit = written
        } else {
            throw .notPlain
        }
        amount = try PlainDecimal(parsing: number, decimalComma: decimalComma)
    }

    /// In kilograms, kept to 0.01 kg; a weight without a unit is in `defaultUnit`.
    public func kilograms(defaultUnit: WeightUnit) -> Double {
        Weight.kilograms(hundredths: amount.hundredthsOfKg(unit ?? defaultUnit))
    }
}

/// Weights as history keeps them: kilograms to 0.01 kg.
public enum Weight {
    /// Kilograms in a pound, exactly (the international pound of 1959).
    public static let kilogramsPerPound = 0.45359237

    public static func kilograms(hundredths: Int64) -> Double { Double(hundredths) / 100 }

    /// `kg` rounded to 0.01 kg, half up.
    public static func rounded(_ kg: Double) -> Double { (kg * 100).rounded(.toNearestOrAwayFromZero) / 100 }

    /// `kg` as read in `unit`: kilograms as kept (to 0.01 kg); pounds to 0.1 lb, which gives back
    /// every weight typed in pounds to a tenth (135 lb is kept as 61.23 kg, 134.99 lb, and reads
    /// 135 again).
    public static func amount(kilograms kg: Double, in unit: WeightUnit) -> Double {
        switch unit {
        case .kg: rounded(kg)
        case .lb: (kg / kilogramsPerPound * 10).rounded(.toNearestOrAwayFromZero) / 10
        }
    }

    /// "100 kg", "225 lb", "62,5 kg" in German: the one way a weight kept in kg is shown to a
    /// person, in `unit` (`amount`), with `catalog`'s decimal separator and no needless ".0".
    /// `tenths` for what is no more precise than 0.1 (an estimate, a sum): kilograms to 0.1 kg
    /// too.
    public static func text(
        kilograms kg: Double, in unit: WeightUnit, catalog: Catalog, tenths: Bool = false
    )
        -> String
    {
        number(kilograms: kg, in: unit, catalog: catalog, tenths: tenths) + " " + symbol(unit, catalog: catalog)
    }

    /// "kg", "lb": the unit's symbol as `catalog`'s language writes it.
    public static func symbol(_ unit: WeightUnit, catalog: Catalog) -> String {
        switch unit {
        // TRANSLATORS: the symbol of kilograms, after a weight ("100 kg") or heading a column.
        case .kg: catalog.localizedInContext("unit of weight", "kg")
        // TRANSLATORS: the symbol of pounds, after a weight ("225 lb") or heading a column.
        case .lb: catalog.localizedInContext("unit of weight", "lb")
        }
    }

    /// `text` without the unit, for a number whose unit was just said: "(was 118)".
    public static func number(
        kilograms kg: Double, in unit: WeightUnit, catalog: Catalog, tenths: Bool = false
    )
        -> String
    {
        let value =
            tenths && unit == .kg ? (kg * 10).rounded(.toNearestOrAwayFromZero) / 10 : amount(kilograms: kg, in: unit)
        return MessageText.decimal(MessageText.number(value), catalog: catalog)
    }
}
