/// The peak after a set: the highest confirmed smoothed heart rate from the rest's start (the
/// value the source carried into it from the set) through its first 20 s — heart rate still
/// rises for a few seconds after a set ends, then falls. What a drop target counts from, live
/// (`RecoveryTracker`) and afterwards (`RecoveryMetrics`), fed the same values in the same order.
/// Only confirmed values count (`HeartSignal.confirmingSamples`): one stray value cannot set it.
public struct RecoveryPeak: Sendable, Equatable {
    /// How long after the rest's start a value may still be the peak.
    public static let windowUSec: USec = 20_000_000

    public let startUSec: USec
    /// The peak so far; nil before any confirmed value.
    public private(set) var bpm: Double?
    /// When it came: its sample's time, or the rest's start for the value carried into it.
    public private(set) var atUSec: USec?

    public init(startUSec: USec) {
        self.startUSec = startUSec
    }

    /// A smoothed value at `atUSec` (the value carried into the rest at its start).
    public mutating func note(_ value: Double, confirmed: Bool, atUSec: USec) {
        guard confirmed, atUSec.subtractingSaturated(startUSec) < Self.windowUSec, value > (bpm ?? 0) else { return }
        bpm = value
        self.atUSec = max(atUSec, startUSec)
    }
}
