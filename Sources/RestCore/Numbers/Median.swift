/// Values a median can be taken of: for an even count it is the mean of the two middle ones.
public protocol MedianValue: Comparable {
    /// The mean of `low` and `high` (`low <= high`), rounded down for integers.
    static func midpoint(_ low: Self, _ high: Self) -> Self
}

extension UInt64: MedianValue {
    // `(low + high) / 2` would overflow for values past half the range.
    public static func midpoint(_ low: UInt64, _ high: UInt64) -> UInt64 { low + (high - low) / 2 }
}

extension Double: MedianValue {
    public static func midpoint(_ low: Double, _ high: Double) -> Double { (low + high) / 2 }
}

extension RandomAccessCollection where Element: MedianValue {
    /// The median of values already in ascending order (a report's quartiles take it of each
    /// sorted half); nil for none.
    public var medianOfSorted: Element? {
        guard !isEmpty else { return nil }
        let middle = index(startIndex, offsetBy: count / 2)
        guard count % 2 == 0 else { return self[middle] }
        return Element.midpoint(self[index(before: middle)], self[middle])
    }
}

extension Sequence where Element: MedianValue {
    /// The middle value; for an even count, the mean of the two middle ones (rounded down for
    /// integers); nil for none. The one median of restd, restctl and the bench.
    public func median() -> Element? { sorted().medianOfSorted }
}
