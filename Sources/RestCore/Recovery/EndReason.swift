/// Why a rest ended; the raw value is what the bus, the history and `--json` carry.
public enum EndReason: String, Sendable, CaseIterable {
    /// Heart rate stayed at or below the target for the hold time, after the minimum.
    case recovered
    /// The planned rest ran out (with a heart rate that never got down to the target, or no
    /// recovery asked for).
    case planned
    /// Skipped or cancelled by hand.
    case user
    /// The strap went silent or lost skin contact, so recovery could not end the rest: it ran
    /// to its planned maximum.
    case sensorLost = "sensor_lost"
}
