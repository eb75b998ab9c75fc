/// One heart-rate notification as the recovery logic reads it: when it came, the strap's bpm,
/// the beats it carried, and what the strap says of skin contact.
public struct HeartSample: Sendable, Equatable {
    /// When it arrived, in µs on a clock that never jumps (the daemon uses CLOCK_BOOTTIME).
    public var atUSec: USec
    /// The strap's heart rate; nil when it has none (no skin contact).
    public var beatsPerMinute: Int?
    /// The time between successive beats, in ms, oldest first; empty for a strap without RR.
    public var rrMilliseconds: [Double]
    /// `.lost` only from a strap that can tell: the value means nothing then.
    public var contact: HeartRateMeasurement.Contact

    public init(
        atUSec: USec, beatsPerMinute: Int?, rrMilliseconds: [Double] = [],
        contact: HeartRateMeasurement.Contact = .unsupported
    ) {
        self.atUSec = atUSec
        self.beatsPerMinute = beatsPerMinute
        self.rrMilliseconds = rrMilliseconds
        self.contact = contact
    }

    /// A parsed measurement that arrived at `atUSec`, its RR intervals converted exactly
    /// (1/1024 s each, not rounded to whole ms: RMSSD is a few ms, rounding would show in it).
    public init(_ measurement: HeartRateMeasurement, atUSec: USec) {
        self.init(
            atUSec: atUSec, beatsPerMinute: measurement.beatsPerMinute,
            rrMilliseconds: measurement.rrIntervals.map { Double($0) * 1_000 / 1_024 }, contact: measurement.contact)
    }

    /// A heart rate a person can have, from a strap that is not reporting lost contact.
    public var isValid: Bool {
        guard contact != .lost, let beatsPerMinute else { return false }
        return (1...HeartRateMeasurement.maxBeatsPerMinute).contains(beatsPerMinute)
    }
}
