import Localization

/// What a caller may set besides the duration when starting a timer.
public struct TimerOptions: Sendable, Equatable {
    /// A short description shown in the notification ("Tea").
    public var label: String
    /// What to do once the rest is over ("back to the report").
    public var next: String
    /// Whether expiry sends a desktop notification.
    public var notify: Bool
    /// Whether restd plays the rest's cues and its alarm; independent of `notify`.
    public var sound: Bool
    /// How long before the end a pre-alert is due ("10 s left"); 0 for none.
    public var warnUSec: USec
    /// Which rule chose this rest when a set started it (`RestChoice.sourceText`); "" for a
    /// timer started by Start. Set by restd, never by a caller.
    public var restSource: String
    /// How the rest may end on recovery; nil for a plain timed rest. Its planned maximum is
    /// the duration the timer starts with (`TimerBook.start` sets it).
    public var recovery: RecoveryRule?

    /// Creates options; by default no texts, a notification and a sound on expiry, no pre-alert.
    public init(
        label: String = "", next: String = "", notify: Bool = true, sound: Bool = true, warnUSec: USec = 0,
        restSource: String = "", recovery: RecoveryRule? = nil
    ) {
        self.label = label
        self.next = next
        self.notify = notify
        self.sound = sound
        self.warnUSec = warnUSec
        self.restSource = restSource
        self.recovery = recovery
    }

    /// Checks a caller-supplied text: at most `limits.maxTextBytes` UTF-8 bytes and no
    /// control characters (general category Cc: C0, DEL, C1, NUL).
    ///
    /// Texts travel into notifications and the journal; a NUL would be cut off by C string
    /// APIs and other control characters could forge log lines.
    public static func validateText(_ s: String, field: String, limits: TimerLimits) throws(TimerError) {
        switch textProblem(s, limits: limits) {
        case .tooLong(let bytes, let max):
            throw .invalidArgs(localized("%1$s is %2$d bytes long; at most %3$d are allowed", field, bytes, max))
        case .controlCharacter(let scalar, let position):
            throw .invalidArgs(
                localized(
                    "%1$s contains a control character (%2$s) at position %3$d", field, MessageText.codePoint(scalar),
                    position))
        case .empty, nil:
            return
        }
    }

    /// What `validateText` refuses in `s`; nil when nothing. The length first: a long text is
    /// refused for its length whatever it holds.
    private static func textProblem(_ s: String, limits: TimerLimits) -> TextProblem? {
        let bytes = s.utf8.count
        if bytes > limits.maxTextBytes { return .tooLong(bytes: bytes, max: limits.maxTextBytes) }
        return TextProblem.of(s, maxBytes: limits.maxTextBytes, allowsEmpty: true)
    }

    /// Validates both texts of these options, and the pre-alert against the duration it is for.
    public func validate(durationUSec: USec, limits: TimerLimits) throws(TimerError) {
        try Self.validateText(label, field: "label", limits: limits)
        try Self.validateText(next, field: "next", limits: limits)
        try Self.validateWarning(warnUSec, durationUSec: durationUSec, limits: limits)
    }

    /// Checks a pre-alert time: 0 (none), or at least the shortest duration (1 s) and less than
    /// the duration, so that the pre-alert comes after the start and before the end.
    public static func validateWarning(_ warnUSec: USec, durationUSec: USec, limits: TimerLimits) throws(TimerError) {
        guard warnUSec != 0 else { return }
        guard warnUSec >= limits.minDurationUSec else {
            throw .invalidArgs(
                localized(
                    "the pre-alert (%1$s) %2$s is too short: give at least %3$s, or 0 for none", "warn_usec",
                    DurationText.describe(warnUSec), DurationText.describe(limits.minDurationUSec)))
        }
        guard warnUSec < durationUSec else {
            throw .invalidArgs(
                localized(
                    "the pre-alert (%1$s) %2$s is not shorter than the duration %3$s: give less than %3$s, or 0 for none",
                    "warn_usec", DurationText.describe(warnUSec), DurationText.describe(durationUSec)))
        }
    }
}
