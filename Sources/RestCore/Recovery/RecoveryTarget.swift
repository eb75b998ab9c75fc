import Localization

/// The heart rate at or below which a rest counts as recovered.
///
/// Straps count whole beats and people write whole bpm, so the two shares are whole bpm, worked
/// out in integers (the share in tenths of a percent, as it is shown) and rounded half up: 70 %
/// of 175 is 122.5, so 123 — in floating point it is 122.49999999999999, which would round to
/// 122 and keep a strap's 123 from ever recovering.
public enum RecoveryTarget: Sendable, Equatable, CustomStringConvertible {
    /// A fixed heart rate, in bpm.
    case absolute(bpm: Int)
    /// A share (0.3–1.0) of the maximum heart rate: `share × maxBPM`.
    case shareOfMax(share: Double, maxBPM: Int)
    /// A share (0.3–1.0) of the heart-rate reserve, Karvonen's method (Karvonen, Kentala and
    /// Mustala, 1957): `restingBPM + share × (maxBPM − restingBPM)`.
    case shareOfReserve(share: Double, restingBPM: Int, maxBPM: Int)
    /// A drop of this many bpm from the peak after the set (the highest smoothed heart rate in
    /// the rest's first 20 s): heart rate settles higher after squats than after curls, and a
    /// drop follows that where a fixed bpm does not.
    case drop(bpm: Int)

    /// The target when nothing is configured: 120 bpm, the one kind of target that needs no
    /// personal figure such as HRmax.
    public static let standard = RecoveryTarget.absolute(bpm: standardBPM)
    public static let standardBPM = 120
    /// The drop when a drop target names no value.
    public static let defaultDropBPM = 30

    /// The heart rates a target, a resting heart rate or an HRmax may be: anything outside is a
    /// typo or a unit mistake rather than a person.
    public static let bpmRange = 30...220
    /// The shares of HRmax or of the reserve accepted: below 30 % no one gets there after a set.
    public static let shareRange = 0.3...1.0
    /// The drops accepted: under 5 bpm is within a strap's noise, over 100 bpm is never reached.
    public static let dropRange = 5...100

    /// The threshold in bpm for a rest whose peak so far is `peakBPM`; nil when it cannot be
    /// known yet (a drop target before any heart rate has been seen).
    public func thresholdBPM(peakBPM: Double?) -> Double? {
        switch self {
        case .absolute(let bpm):
            return Double(bpm)
        case .shareOfMax(let share, let maxBPM):
            return Double(Self.roundedShare(share, of: maxBPM))
        case .shareOfReserve(let share, let restingBPM, let maxBPM):
            return Double(restingBPM + Self.roundedShare(share, of: maxBPM - restingBPM))
        case .drop(let bpm):
            guard let peakBPM else { return nil }
            return peakBPM - Double(bpm)
        }
    }

    /// `share` of `bpm` in whole bpm, rounded half up, with the share taken to a tenth of a
    /// percent; only for a share in `shareRange`, which every valid target has.
    static func roundedShare(_ share: Double, of bpm: Int) -> Int {
        let tenthsOfPercent = share.isFinite ? Int((share * 1_000).rounded()) : 0
        return (tenthsOfPercent * bpm + 500) / 1_000
    }

    /// Refuses a target no person can have, with one sentence naming the bad value.
    public func validate() throws(TimerError) {
        switch self {
        case .absolute(let bpm):
            try Self.check(bpm) {
                localized("recovery target %1$d bpm is out of range: give %2$d to %3$d bpm", $0, $1, $2)
            }
        case .shareOfMax(let share, let maxBPM):
            try Self.check(
                share: share, finite: { localized("the share of HRmax must be a finite number") },
                inRange: { localized("share %1$s of HRmax is out of range: give %2$s to %3$s", $0, $1, $2) })
            try Self.check(maxBPM) { localized("HRmax %1$d bpm is out of range: give %2$d to %3$d bpm", $0, $1, $2) }
        case .shareOfReserve(let share, let restingBPM, let maxBPM):
            try Self.check(
                share: share, finite: { localized("the share of heart-rate reserve must be a finite number") },
                inRange: {
                    localized("share %1$s of heart-rate reserve is out of range: give %2$s to %3$s", $0, $1, $2)
                })
            try Self.check(restingBPM) {
                localized("resting heart rate %1$d bpm is out of range: give %2$d to %3$d bpm", $0, $1, $2)
            }
            try Self.check(maxBPM) { localized("HRmax %1$d bpm is out of range: give %2$d to %3$d bpm", $0, $1, $2) }
            guard restingBPM < maxBPM else {
                throw .invalidArgs(
                    localized(
                        "resting heart rate %1$d bpm is not below HRmax %2$d bpm; a heart-rate reserve needs the resting heart rate lower",
                        restingBPM, maxBPM))
            }
        case .drop(let bpm):
            guard Self.dropRange.contains(bpm) else {
                throw .invalidArgs(
                    localized(
                        "recovery drop %1$d bpm is out of range: give %2$d to %3$d bpm", bpm, Self.dropRange.lowerBound,
                        Self.dropRange.upperBound))
            }
        }
    }

    /// "120 bpm", "60 % of HRmax 190", "60 % of heart-rate reserve (resting 50, HRmax 190)",
    /// "30 bpm below the peak".
    public var description: String {
        switch self {
        case .absolute(let bpm): "\(bpm) bpm"
        case .shareOfMax(let share, let maxBPM): "\(Self.percent(share)) of HRmax \(maxBPM)"
        case .shareOfReserve(let share, let restingBPM, let maxBPM):
            "\(Self.percent(share)) of heart-rate reserve (resting \(restingBPM), HRmax \(maxBPM))"
        case .drop(let bpm): "\(bpm) bpm below the peak"
        }
    }

    /// Refuses `bpm` outside `bpmRange` with `refusal`'s sentence (the value, the lowest, the highest).
    private static func check(_ bpm: Int, refusal: (Int, Int, Int) -> String) throws(TimerError) {
        guard bpmRange.contains(bpm) else {
            throw .invalidArgs(refusal(bpm, bpmRange.lowerBound, bpmRange.upperBound))
        }
    }

    /// Refuses a share that is no number (`finite`'s sentence) or outside `shareRange` (`inRange`'s:
    /// the share, the lowest, the highest, as percentages).
    private static func check(
        share: Double, finite: () -> String, inRange: (String, String, String) -> String
    ) throws(TimerError) {
        guard share.isFinite else { throw .invalidArgs(finite()) }
        guard shareRange.contains(share) else {
            throw .invalidArgs(inRange(percent(share), percent(shareRange.lowerBound), percent(shareRange.upperBound)))
        }
    }

    /// 0.6 → "60 %", 0.625 → "62.5 %" (one decimal at most).
    static func percent(_ share: Double) -> String {
        // Far outside any share, and too large for Int: say it as Swift prints it.
        guard share.magnitude < 1e12 else { return "\(share * 100) %" }
        let tenths = Int((share * 1_000).rounded())
        return tenths % 10 == 0 ? "\(tenths / 10) %" : "\(tenths / 10).\(abs(tenths % 10)) %"
    }
}
