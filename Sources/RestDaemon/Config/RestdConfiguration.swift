import RestCore

/// restd's settings from `config.toml`, with the defaults for what the file leaves out.
/// Every key is declared once, in `ConfigKeys.all`, which also documents it.
public struct RestdConfiguration: Sendable, Equatable {
    /// The rest `restctl start` uses without a duration (the `DefaultDurationUSec` property).
    public var defaultDurationUSec: USec = 90_000_000
    /// How many timers may exist at once (`TimerLimits.maxTimers`).
    public var maxTimers: Int = TimerLimits.standard.maxTimers
    /// How long an expired timer stays listed (`TimerLimits.expiredRetentionUSec`).
    public var expiredRetentionUSec: USec = TimerLimits.standard.expiredRetentionUSec
    public var live = Live()
    public var notifications = Notifications()

    /// Settings of the live broadcast (`[live]`).
    public struct Live: Sendable, Equatable {
        /// Live updates per second at most.
        public var broadcastRate: Double = 1
        /// A heart rate older than this is no longer shown.
        public var heartRateStalenessUSec: USec = 10_000_000

        /// The shortest time between two live updates.
        public var broadcastIntervalUSec: USec { USec((1_000_000 / broadcastRate).rounded()) }
    }

    /// Settings of the desktop notification shown when a rest is over (`[notifications]`).
    public struct Notifications: Sendable, Equatable {
        public var urgency: Urgency = .normal
        /// The buttons offered, in order (only where the server has the `actions` capability).
        public var actions: [NotificationAction] = [.restart, .add30s]
        /// A program (argv, no shell) played instead when the server lacks the `sound` capability;
        /// nil plays nothing.
        public var soundCommand: [String]?
    }

    /// Urgency levels of the Desktop Notifications specification.
    public enum Urgency: String, Sendable, CaseIterable {
        case low, normal, critical

        /// The value of the notification's `urgency` hint (a byte).
        public var hint: UInt8 {
            switch self {
            case .low: 0
            case .normal: 1
            case .critical: 2
            }
        }
    }

    /// What a notification button does. The raw value is the name in `config.toml`.
    public enum NotificationAction: String, Sendable, CaseIterable {
        /// Rest again for the timer's last duration.
        case restart
        /// Run the expired timer on for 30 s / one minute.
        case add30s = "add_30s"
        case add1m = "add_1m"
        /// Remove the timer.
        case cancel
    }

    public init() {}

    /// `base` with the limits this configuration sets.
    public func limits(base: TimerLimits = .standard) -> TimerLimits {
        var limits = base
        limits.maxTimers = maxTimers
        limits.expiredRetentionUSec = expiredRetentionUSec
        return limits
    }
}
