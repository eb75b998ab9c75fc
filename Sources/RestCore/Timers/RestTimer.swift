/// Where a timer is in its life.
public enum TimerState: String, Sendable {
    /// Counting down towards its deadline.
    case running
    /// Frozen with some time left.
    case paused
    /// Ran out; kept for a while so callers can see it.
    case expired
}

/// One rest timer, as kept in memory and on disk.
public struct RestTimer: Sendable, Equatable {
    /// The timer's name.
    public var id: TimerID
    /// A short description shown in the notification.
    public var label: String
    /// What to do once the rest is over.
    public var next: String
    /// Whether expiry sends a desktop notification.
    public var notify: Bool
    /// Whether restd plays this rest's cues and alarm (`--no-sound` turns it off for one rest).
    public var sound: Bool
    /// CLOCK_REALTIME instant until which the expired rest's alarm rings, 0 when it does not
    /// ring: set at the end (`[sound] ring_for` after the deadline), cleared by a silence, by any
    /// command on the timer, or when it passes (`TimerBook.due`).
    public var ringsUntilUSec: USec
    /// How long before the deadline a pre-alert is due; 0 for none. Less than the base duration.
    public var warnUSec: USec
    /// Whether the time left is already within `warnUSec`, so no (further) pre-alert is due in
    /// this run: set when the pre-alert fires, and when a change leaves `warnUSec` or less.
    public var warned: Bool
    /// The duration given at the last Start: what Restart runs again.
    public var baseDurationUSec: USec
    /// Running, paused or expired.
    public var state: TimerState
    /// The length of the current run including adjustments: 60 s then +30 s is 90 s;
    /// +30 s on an expired timer starts a run of 30 s.
    public var durationUSec: USec
    /// CLOCK_REALTIME start of the current run.
    public var startedAtUSec: USec
    /// CLOCK_REALTIME deadline while running, 0 otherwise.
    public var endsAtUSec: USec
    /// Time left: frozen while paused, as of the last change while running, 0 when expired.
    public var remainingUSec: USec
    /// CLOCK_REALTIME of expiry (the deadline), 0 unless expired.
    public var expiredAtUSec: USec
    /// CLOCK_REALTIME of the last change, for dropping timers nobody touches.
    public var updatedAtUSec: USec
    /// CLOCK_BOOTTIME deadline while running, 0 otherwise; not persisted, rebuilt from
    /// `endsAtUSec` on restore because boottime restarts at every boot.
    public var deadlineBoottime: USec
    /// Which rule chose this rest when a set started it; "" for a timer started by Start.
    public var restSource: String
    /// How this run may end on recovery (heart-rate-guided rest); nil for a plain timed rest.
    /// Not stored: a restarted restd resumes the rest as a plain timed rest to its maximum.
    public var recovery: RecoveryRule? {
        get { recoveryBox?.rule }
        set { recoveryBox = newValue.map(RecoveryRuleBox.init) }
    }
    /// `recovery`, held out of line: few timers have one, and a book holds up to 10,000 timers
    /// (inline, the rule would be a quarter of each).
    private var recoveryBox: RecoveryRuleBox?
    /// Why the run ended, once expired; while running, `.sensorLost` once recovery gave up on a
    /// lost strap (the rest then runs to its planned maximum, and says so); nil otherwise.
    public var endReason: EndReason?
    /// The smoothed heart rate (whole bpm) when the rest ended as recovered; nil otherwise.
    /// Not stored, like `recovery`.
    public var recoveredBPM: Int?

    /// Creates a timer from all of its fields.
    public init(
        id: TimerID,
        label: String,
        next: String,
        notify: Bool,
        sound: Bool = true,
        ringsUntilUSec: USec = 0,
        baseDurationUSec: USec,
        state: TimerState,
        durationUSec: USec,
        startedAtUSec: USec,
        endsAtUSec: USec,
        remainingUSec: USec,
        expiredAtUSec: USec,
        updatedAtUSec: USec,
        deadlineBoottime: USec,
        warnUSec: USec = 0,
        warned: Bool = false,
        restSource: String = "",
        recovery: RecoveryRule? = nil,
        endReason: EndReason? = nil,
        recoveredBPM: Int? = nil
    ) {
        self.id = id
        self.label = label
        self.next = next
        self.notify = notify
        self.sound = sound
        self.ringsUntilUSec = ringsUntilUSec
        self.baseDurationUSec = baseDurationUSec
        self.state = state
        self.durationUSec = durationUSec
        self.startedAtUSec = startedAtUSec
        self.endsAtUSec = endsAtUSec
        self.remainingUSec = remainingUSec
        self.expiredAtUSec = expiredAtUSec
        self.updatedAtUSec = updatedAtUSec
        self.deadlineBoottime = deadlineBoottime
        self.warnUSec = warnUSec
        self.warned = warned
        self.restSource = restSource
        self.recoveryBox = recovery.map(RecoveryRuleBox.init)
        self.endReason = endReason
        self.recoveredBPM = recoveredBPM
    }

    /// CLOCK_BOOTTIME start of the current run, while running: an add or a sub moves the deadline
    /// and the duration together, a new run (a set, a restart) moves this.
    public var runStartBoottime: USec { deadlineBoottime.subtractingSaturated(durationUSec) }

    /// Whether the rest is over and its alarm rings until someone stops it.
    public var ringing: Bool { ringsUntilUSec != 0 }

    /// The options this timer was started with.
    public var options: TimerOptions {
        TimerOptions(
            label: label, next: next, notify: notify, sound: sound, warnUSec: warnUSec, restSource: restSource,
            recovery: recovery)
    }
}

/// A timer's recovery rule by reference; immutable, so copies of a timer may share it.
private final class RecoveryRuleBox: Sendable, Equatable {
    let rule: RecoveryRule

    init(_ rule: RecoveryRule) {
        self.rule = rule
    }

    static func == (lhs: RecoveryRuleBox, rhs: RecoveryRuleBox) -> Bool {
        lhs.rule == rhs.rule
    }
}
