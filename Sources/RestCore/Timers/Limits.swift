/// The bounds the timer book enforces.
public struct TimerLimits: Sendable, Equatable {
    /// How many timers may exist at once, expired ones included.
    public var maxTimers: Int
    /// The shortest duration Start accepts.
    public var minDurationUSec: USec
    /// The longest duration Start accepts, and the most time a timer may have left.
    public var maxDurationUSec: USec
    /// How long an expired timer stays listed after its deadline.
    public var expiredRetentionUSec: USec
    /// How long a paused timer may go untouched before it is dropped.
    public var untouchedDropUSec: USec
    /// The longest label or next-activity text, in UTF-8 bytes.
    public var maxTextBytes: Int
    /// How long a rest's alarm rings after its end unless stopped (`[sound] ring_for`); 0 plays
    /// it once, and the timer does not ring.
    public var ringForUSec: USec

    /// Creates limits; every value defaults to the standard one.
    public init(
        maxTimers: Int = 10_000,
        minDurationUSec: USec = 1_000_000,
        maxDurationUSec: USec = 86_400_000_000,
        expiredRetentionUSec: USec = 3_600_000_000,
        untouchedDropUSec: USec = 86_400_000_000,
        maxTextBytes: Int = 256,
        ringForUSec: USec = 60_000_000
    ) {
        self.maxTimers = maxTimers
        self.minDurationUSec = minDurationUSec
        self.maxDurationUSec = maxDurationUSec
        self.expiredRetentionUSec = expiredRetentionUSec
        self.untouchedDropUSec = untouchedDropUSec
        self.maxTextBytes = maxTextBytes
        self.ringForUSec = ringForUSec
    }

    /// The limits the daemon runs with.
    public static let standard = TimerLimits()
}
