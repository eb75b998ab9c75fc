// Saturating helpers: a corrupt or absurd timestamp must clamp, never trap the daemon.
extension UInt64 {
    public func addingSaturated(_ other: UInt64) -> UInt64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }

    public func subtractingSaturated(_ other: UInt64) -> UInt64 {
        self > other ? self - other : 0
    }

    /// Adds a signed delta, clamping to 0…UInt64.max.
    func addingSaturated(signed delta: Int64) -> UInt64 {
        delta >= 0 ? addingSaturated(delta.magnitude) : subtractingSaturated(delta.magnitude)
    }
}
