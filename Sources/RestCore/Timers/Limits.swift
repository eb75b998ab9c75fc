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

    /// Creates limits; every value defaults to the standard one.
    public init(
        maxTimers: Int = 10_000,
        minDurationUSec: USec = 1_000_000,
        maxDurationUSec: USec = 86_400_000_000,
        expiredRetentionUSec: USec = 3_600_000_000,
        untouchedDropUSec: USec = 86_400_000_000,
        maxTextBytes: Int = 256
    ) {
        self.maxTimers = maxTimers
        self.minDurationUSec = minDurationUSec
        self.maxDurationUSec = maxDurationUSec
        self.expiredRetentionUSec = expiredRetentionUSec
        self.untouchedDropUSec = untouchedDropUSec
        self.maxTextBytes = maxTextBytes
    }

    /// The limits the daemon runs with.
    public static let standard = TimerLimits()
}
