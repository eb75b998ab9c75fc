import Localization

/// How one rest may end on recovery: the target, how long heart rate must stay at or below it,
/// and the window in which that may end the rest. Always valid: the initializer refuses
/// anything else.
public struct RecoveryRule: Sendable, Equatable {
    /// The heart rate to get down to.
    public let target: RecoveryTarget
    /// The planned rest: the most it lasts, recovered or not.
    public let plannedUSec: USec
    /// The least it lasts, however fast heart rate falls: a rest is also for the muscles, whose
    /// recovery a heart rate does not show. At most `plannedUSec`.
    public let minimumUSec: USec
    /// How long smoothed heart rate must stay at or below the target before the rest ends, so
    /// that one low reading between two breaths does not end it.
    public let holdUSec: USec

    /// The minimum when none is given is this, or the planned rest when that is shorter.
    public static let defaultMinimumCapUSec: USec = 60_000_000
    /// The hold when none is given: long enough that one low reading between two breaths does not
    /// end a rest.
    public static let defaultHoldUSec: USec = 10_000_000
    /// The holds accepted: under a second is one reading, over five minutes no rest is planned.
    public static let holdRangeUSec: ClosedRange<USec> = 1_000_000...300_000_000

    /// Checks every value and refuses the first bad one with a sentence. `minimumUSec` defaults
    /// to min(60 s, planned), `holdUSec` to 10 s.
    public init(
        target: RecoveryTarget = .standard, plannedUSec: USec, minimumUSec: USec? = nil,
        holdUSec: USec = RecoveryRule.defaultHoldUSec
    ) throws(TimerError) {
        try target.validate()
        guard Self.holdRangeUSec.contains(holdUSec) else {
            throw .invalidArgs(
                localized(
                    "hold time %1$s is out of range: give %2$s to %3$s", DurationText.describe(holdUSec),
                    DurationText.describe(Self.holdRangeUSec.lowerBound),
                    DurationText.describe(Self.holdRangeUSec.upperBound)))
        }
        let minimum = minimumUSec ?? min(Self.defaultMinimumCapUSec, plannedUSec)
        guard minimum <= plannedUSec else {
            throw .invalidArgs(
                localized(
                    "minimum rest %1$s is longer than the planned rest %2$s; give at most %2$s",
                    DurationText.describe(minimum), DurationText.describe(plannedUSec)))
        }
        self.init(unchecked: target, plannedUSec: plannedUSec, minimumUSec: minimum, holdUSec: holdUSec)
    }

    private init(unchecked target: RecoveryTarget, plannedUSec: USec, minimumUSec: USec, holdUSec: USec) {
        self.target = target
        self.plannedUSec = plannedUSec
        self.minimumUSec = minimumUSec
        self.holdUSec = holdUSec
    }

    /// The same rule for a rest now planned to last `plannedUSec` (after `restctl add`/`sub`): a
    /// minimum longer than the new plan shrinks to it, so the rule stays valid.
    public func replanned(_ plannedUSec: USec) -> RecoveryRule {
        RecoveryRule(
            unchecked: target, plannedUSec: plannedUSec, minimumUSec: min(minimumUSec, plannedUSec),
            holdUSec: holdUSec)
    }
}
