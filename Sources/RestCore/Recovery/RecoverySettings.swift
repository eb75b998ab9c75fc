import Localization

/// What the configuration says about resting until recovered: restd-wide in `[recovery]`, and
/// per exercise (`until_recovered`, `recovery_target`, `recovery_min`, `recovery_hold` in
/// `[exercises."…"]`). Every field optional: an exercise's value wins over `[recovery]`'s, which
/// wins over the defaults (`RecoveryRule`, `RecoveryTarget.standard`).
public struct RecoverySettings: Sendable, Equatable {
    /// A target as written, before the personal figures (HRmax, resting heart rate) it may need.
    public enum TargetSpec: Sendable, Equatable, CustomStringConvertible {
        /// `"120bpm"`.
        case bpm(Int)
        /// `"60%max"`: a share of HRmax.
        case shareOfMax(Double)
        /// `"60%reserve"`: a share of the heart-rate reserve (needs the resting heart rate too).
        case shareOfReserve(Double)
        /// `"-30bpm"`: a drop from the peak after the set.
        case drop(Int)

        /// The forms accepted, for messages, in the installed catalog's language.
        public static var forms: String {
            // TRANSLATORS: the forms of a recovery target, each typed as it is: "120bpm", "60%max", "60%reserve" or "-30bpm".
            localized("%1$s, %2$s, %3$s or %4$s", "\"120bpm\"", "\"60%max\"", "\"60%reserve\"", "\"-30bpm\"")
        }

        /// Reads `"120bpm"`, `"60%max"`, `"60%reserve"`, `"-30bpm"` (spaces and case do not
        /// matter: `"60 % max"`), refusing anything else or a value out of range with a sentence.
        public init(parsing text: String) throws(TimerError) {
            let compact = String(text.lowercased().filter { $0 != " " })
            func number<T: LosslessStringConvertible>(_ digits: Substring, as: T.Type) throws(TimerError) -> T {
                guard let value = T(String(digits)) else { throw Self.notOneOfTheForms(text) }
                return value
            }
            if compact.hasSuffix("bpm") {
                let digits = compact.dropLast(3)
                if digits.hasPrefix("-") {
                    let drop = try number(digits.dropFirst(), as: Int.self)
                    guard RecoveryTarget.dropRange.contains(drop) else {
                        throw .invalidArgs(
                            localized(
                                "recovery drop %1$d bpm is out of range: give %2$d to %3$d bpm", drop,
                                RecoveryTarget.dropRange.lowerBound, RecoveryTarget.dropRange.upperBound))
                    }
                    self = .drop(drop)
                } else {
                    let bpm = try number(digits, as: Int.self)
                    try RecoveryTarget.absolute(bpm: bpm).validate()
                    self = .bpm(bpm)
                }
                return
            }
            for (suffix, reserve) in [("%max", false), ("%reserve", true)] where compact.hasSuffix(suffix) {
                let percent = try number(compact.dropLast(suffix.count), as: Double.self)
                let share = percent / 100
                guard share.isFinite, RecoveryTarget.shareRange.contains(share) else {
                    throw .invalidArgs(
                        localized(
                            "recovery target %1$s is out of range: give %2$s to %3$s", MessageText.quoted(text),
                            RecoveryTarget.percent(RecoveryTarget.shareRange.lowerBound),
                            RecoveryTarget.percent(RecoveryTarget.shareRange.upperBound)))
                }
                self = reserve ? .shareOfReserve(share) : .shareOfMax(share)
                return
            }
            throw Self.notOneOfTheForms(text)
        }

        private static func notOneOfTheForms(_ text: String) -> TimerError {
            .invalidArgs(localized("recovery target %1$s is not one of %2$s", MessageText.quoted(text), forms))
        }

        /// As the configuration writes it: "120bpm", "60%max", "60%reserve", "-30bpm".
        public var description: String {
            switch self {
            case .bpm(let bpm): "\(bpm)bpm"
            case .shareOfMax(let share): "\(Self.percentText(share))%max"
            case .shareOfReserve(let share): "\(Self.percentText(share))%reserve"
            case .drop(let bpm): "-\(bpm)bpm"
            }
        }

        private static func percentText(_ share: Double) -> String {
            RecoveryTarget.percent(share).replacing(" %", with: "")
        }
    }

    /// Whether a set's rest ends on recovery when the set does not say.
    public var untilRecovered: Bool?
    public var target: TargetSpec?
    /// The least a rest lasts; at most the planned rest (a longer one is cut to it).
    public var minimumUSec: USec?
    public var holdUSec: USec?

    public init(
        untilRecovered: Bool? = nil, target: TargetSpec? = nil, minimumUSec: USec? = nil, holdUSec: USec? = nil
    ) {
        self.untilRecovered = untilRecovered
        self.target = target
        self.minimumUSec = minimumUSec
        self.holdUSec = holdUSec
    }

    /// Whether nothing is set.
    public var isEmpty: Bool { self == RecoverySettings() }

    /// These settings where they say something, `base`'s elsewhere.
    public func over(_ base: RecoverySettings) -> RecoverySettings {
        RecoverySettings(
            untilRecovered: untilRecovered ?? base.untilRecovered, target: target ?? base.target,
            minimumUSec: minimumUSec ?? base.minimumUSec, holdUSec: holdUSec ?? base.holdUSec)
    }

    /// The rule for a rest of `plannedUSec` with these settings, or nil when it does not end on
    /// recovery (`asked`, the set's own choice, wins over `untilRecovered`). A configured
    /// minimum longer than the rest is cut to it: the planned rest is the maximum. Refused with a
    /// sentence when the target needs a figure the configuration does not give.
    public func rule(
        asked: Bool?, plannedUSec: USec, maxHeartRate: Int?, restingHeartRate: Int?
    ) throws(TimerError) -> RecoveryRule? {
        guard asked ?? untilRecovered ?? false else { return nil }
        let target: RecoveryTarget
        switch self.target {
        case nil: target = .standard
        case .bpm(let bpm): target = .absolute(bpm: bpm)
        case .drop(let bpm): target = .drop(bpm: bpm)
        case .shareOfMax(let share):
            guard let maxHeartRate else {
                throw .invalidArgs(
                    localized(
                        "the recovery target %1$s needs your HRmax: set %2$s in %3$s of config.toml", self.target!,
                        "hr_max", "[recovery]"))
            }
            target = .shareOfMax(share: share, maxBPM: maxHeartRate)
        case .shareOfReserve(let share):
            guard let maxHeartRate, let restingHeartRate else {
                throw .invalidArgs(
                    localized(
                        "the recovery target %1$s needs your HRmax and resting heart rate: set %2$s and %3$s in %4$s of config.toml",
                        self.target!, "hr_max", "resting_hr", "[recovery]"))
            }
            target = .shareOfReserve(share: share, restingBPM: restingHeartRate, maxBPM: maxHeartRate)
        }
        return try RecoveryRule(
            target: target, plannedUSec: plannedUSec, minimumUSec: minimumUSec.map { min($0, plannedUSec) },
            holdUSec: holdUSec ?? RecoveryRule.defaultHoldUSec)
    }
}
