import RestCore

/// Order statistics of a sample: the bench reports percentiles and ratios, never one time.
struct Summary: Sendable {
    let count: Int
    let min: Double
    /// The median (the mean of the two middle values of an even count); p90 and p99 by nearest rank.
    let p50: Double
    let p90: Double
    let p99: Double
    let max: Double
    let mean: Double

    /// Nil for an empty sample.
    init?(_ values: [Double]) {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        count = sorted.count
        min = sorted[0]
        max = sorted[sorted.count - 1]
        p50 = sorted.medianOfSorted ?? sorted[0]
        p90 = Self.percentile(sorted, 0.90)
        p99 = Self.percentile(sorted, 0.99)
        mean = sorted.reduce(0, +) / Double(sorted.count)
    }

    /// Nearest rank: the smallest value with at least `q` of the sample at or below it.
    static func percentile(_ sorted: [Double], _ q: Double) -> Double {
        let rank = Int((q * Double(sorted.count)).rounded(.up))
        return sorted[Swift.max(0, Swift.min(sorted.count - 1, rank - 1))]
    }

    /// For the JSON file.
    var values: [String: Double] {
        ["count": Double(count), "min": min, "p50": p50, "p90": p90, "p99": p99, "max": max, "mean": mean]
    }
}

/// The median of a sample, RestCore's (the mean of the two middle values of an even count), as
/// `Summary.p50` is; 0 when empty.
func median(_ values: [Double]) -> Double { values.median() ?? 0 }

// MARK: - Formatting

/// "1.23" with `digits` decimals.
func fixed(_ value: Double, _ digits: Int = 2) -> String {
    guard value.isFinite else { return value.isNaN ? "n/a" : (value > 0 ? "∞" : "-∞") }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (abs(value) * scale).rounded() / scale
    let whole = Int(rounded)
    var fraction = String(Int(((rounded - Double(whole)) * scale).rounded()))
    while fraction.count < digits { fraction = "0" + fraction }
    let sign = value < 0 && rounded > 0 ? "-" : ""
    return digits == 0 ? sign + String(whole) : sign + String(whole) + "." + fraction
}

/// Thousands separated by commas: 60,123.
func grouped(_ value: Double) -> String {
    let digits = String(Int(value.rounded()))
    var out = ""
    for (i, c) in digits.reversed().enumerated() {
        if i > 0 && i % 3 == 0 && c != "-" { out.append(",") }
        out.append(c)
    }
    return String(out.reversed())
}

/// "p50 0.41 / p99 1.20 / max 3.05 ms".
func percentiles(_ s: Summary, unit: String = "ms", digits: Int = 2) -> String {
    "p50 \(fixed(s.p50, digits)) / p99 \(fixed(s.p99, digits)) / max \(fixed(s.max, digits)) \(unit)"
}
