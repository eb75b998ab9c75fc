import RestCore
import RestNotify

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
    public var heartRate = HeartRate()
    public var notifications = Notifications()
    public var mediaPlayer = MediaPlayer()
    public var sound = Sound()
    /// What the file says that is not wrong but should change (a key that was renamed).
    public var warnings: [ConfigProblem] = []
    /// `[exercises."…"]`, `[categories]`, `[rest] failed_extra`, `[history] keep_days`; its
    /// `defaultDurationUSec` is unused (see `trainingSettings`).
    public var training = TrainingSettings()

    /// What the training rules read, with `default_duration` as the last rule.
    public var trainingSettings: TrainingSettings {
        var settings = training
        settings.defaultDurationUSec = defaultDurationUSec
        return settings
    }

    /// restd as an MPRIS media player (`[mpris]`): off unless asked for, because it would take
    /// the media keys and the desktop's "current player" slot from the music that is playing.
    public struct MediaPlayer: Sendable, Equatable {
        public var enabled = false
        /// The timer shown and controlled.
        public var timer: TimerID = .default
    }

    /// Where restd reads a heart rate itself (`[heart_rate]`).
    public struct HeartRate: Sendable, Equatable {
        /// Which Bluetooth strap, through BlueZ: "auto", "off" or an address.
        public var bluetooth: StrapChoice = .auto
    }

    /// Settings of the live activity (`[live]`).
    public struct Live: Sendable, Equatable {
        /// The broadcast's rate: PropertiesChanged of Fields at most this often (the MaxRateHz property).
        public var broadcastRate: Double = LiveLimits.standard.broadcastRateHz
        /// A heart rate not refreshed for this long is removed.
        public var heartRateStalenessUSec: USec = LiveLimits.standard.heartRateStaleUSec

        /// The shortest time between two broadcasts.
        public var broadcastIntervalUSec: USec { USec((1_000_000 / broadcastRate).rounded()) }
    }

    /// Settings of the desktop notification shown when a rest is over (`[notifications]`).
    public struct Notifications: Sendable, Equatable {
        /// Critical by default: "Rest over" stays until dismissed.
        public var urgency: Urgency = .critical
        /// The buttons offered, in order (only where the server has the `actions` capability);
        /// the `default` action, which dismisses, always comes first.
        public var actions: [NotificationAction] = NotificationStyle.standard.actions

        /// How "Rest over" looks with these settings.
        public var style: NotificationStyle {
            NotificationStyle(urgency: urgency.notificationUrgency, actions: actions)
        }
    }

    /// restd's own sounds (`[sound]`): the cues before a rest ends and the alarm at its end.
    public struct Sound: Sendable, Equatable {
        public var enabled = true
        /// Cue ticks in the last seconds of a rest, one a second (0: none).
        public var cues = 3
        /// How long the alarm rings unless silenced (0: once).
        public var ringForUSec: USec = 60_000_000
        /// Whether the alarm rings while the desktop's Do Not Disturb is on.
        public var inDoNotDisturb = true
        /// A program (argv, no shell) run at each ring instead of restd's alarm sound; nil plays
        /// restd's own.
        public var command: [String]?
        /// The sound theme (freedesktop.org Sound Theme specification); nil: the desktop's, else
        /// `freedesktop`.
        public var theme: String?
        /// A sound file played as the cue instead of the theme's `bell`.
        public var cueFile: String?
        /// A sound file played as the alarm instead of the theme's `alarm-clock-elapsed`.
        public var alarmFile: String?

        /// What decides which files play: a change brings them into the server's cache again.
        var sounds: [String?] { [theme, cueFile, alarmFile] }

        /// The most cues: one a second in a rest's last ten seconds.
        public static let maxCues = 10
        /// The longest `ring_for`.
        public static let maxRingForUSec: USec = 600_000_000
    }

    /// Urgency levels of the Desktop Notifications specification.
    public enum Urgency: String, Sendable, CaseIterable {
        case low, normal, critical

        /// The value of the notification's `urgency` hint (a byte).
        public var hint: UInt8 { notificationUrgency.rawValue }

        var notificationUrgency: NotificationRequest.Urgency {
            switch self {
            case .low: .low
            case .normal: .normal
            case .critical: .critical
            }
        }
    }

    public init() {}

    /// `base` with the limits this configuration sets.
    public func limits(base: TimerLimits = .standard) -> TimerLimits {
        var limits = base
        limits.maxTimers = maxTimers
        limits.expiredRetentionUSec = expiredRetentionUSec
        // Nothing rings without sound: no Ringing to silence.
        limits.ringForUSec = sound.enabled ? sound.ringForUSec : 0
        return limits
    }

    /// `base` with the live settings this configuration sets.
    public func liveLimits(base: LiveLimits = .standard) -> LiveLimits {
        var limits = base
        limits.broadcastRateHz = live.broadcastRate
        limits.heartRateStaleUSec = live.heartRateStalenessUSec
        return limits
    }
}
