import RestCore

/// Numbers as the report writes them: coordinates in the SVG and whole values with digits alone,
/// a decimal value a person reads with the language's separator (`shown`: 62,5 in German).
enum ReportNumber {
    /// `value` rounded to `decimals` places (0 to 3), without trailing zeros: 12, 12.5, -0.3.
    /// A value that is not finite, or too large to be a coordinate, is written as 0.
    static func fixed(_ value: Double, decimals: Int) -> String {
        precondition((0...3).contains(decimals), "0 to 3 decimals")
        var scale: Int64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (value * Double(scale)).rounded()
        guard scaled.isFinite, abs(scaled) < 1e15 else { return "0" }
        let units = Int64(scaled)
        return DigitText.make(capacity: 32) { text in
            if units < 0 { text.character("-") }
            let magnitude = UInt64(units.magnitude)
            text.number(magnitude / UInt64(scale))
            var fraction = magnitude % UInt64(scale)
            guard fraction != 0 else { return }
            var digits = decimals
            while fraction % 10 == 0 {
                fraction /= 10
                digits -= 1
            }
            text.character(".")
            text.number(fraction, minimumDigits: digits)
        }
    }

    /// An SVG coordinate: to 0.1 of a unit, what a screen can show of a 640-unit-wide chart.
    static func coordinate(_ value: Double) -> String { fixed(value, decimals: 1) }

    /// A decimal value on a label or in a table, without a needless ".0": 62.5, 60 (62,5 in German).
    static func shown(_ value: Double) -> String {
        MessageText.decimal(MessageText.number(value), catalog: .installed)
    }

    /// Whole numbers, as bpm and kilograms of volume are shown: 12345.
    static func whole(_ value: Double) -> String { fixed(value, decimals: 0) }

    /// A share as a whole percentage, rounded half up: 12%; "-" of nothing.
    static func percent(_ part: Int, of whole: Int) -> String {
        guard whole > 0 else { return "-" }
        return String((part * 100 + whole / 2) / whole) + "%"
    }
}

/// Weights as the report shows them, in its unit (the Manager's `WeightUnit`): numbers for the
/// tables and labels by the one formatter (`Weight.number`, in the language's way: 102,5 in
/// German), amounts for the scales.
struct ReportWeights {
    let unit: WeightUnit

    /// "kg" or "lb", after a number or in a heading.
    var symbol: String { Weight.symbol(unit, catalog: .installed) }

    /// Where `kg` stands on a scale in the page's unit (unrounded: a scale is no label).
    func amount(_ kg: Double) -> Double { unit == .kg ? kg : kg / Weight.kilogramsPerPound }

    /// A weight: "102.5", "225"; `tenths` for an estimate.
    func number(_ kg: Double, tenths: Bool = false) -> String {
        Weight.number(kilograms: kg, in: unit, catalog: .installed, tenths: tenths)
    }

    /// A weight with its unit: "102.5 kg", "225 lb".
    func text(_ kg: Double, tenths: Bool = false) -> String { number(kg, tenths: tenths) + " " + symbol }

    /// A volume, in whole units: "4250".
    func whole(_ kg: Double) -> String { ReportNumber.whole(amount(kg)) }
}
