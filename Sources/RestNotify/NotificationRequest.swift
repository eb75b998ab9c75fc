import RestCore

/// The arguments of one org.freedesktop.Notifications.Notify call, before they are D-Bus values.
public struct NotificationRequest: Equatable, Sendable {
    public var appName: String
    /// The server's id of the notification this one replaces, 0 for a new one.
    public var replacesID: UInt32
    /// A name from the freedesktop icon theme.
    public var icon: String
    public var summary: String
    /// Plain text, or markup with every character escaped when the server parses markup.
    public var body: String
    /// Action keys and labels, alternating: ["default", "Dismiss", "add_30s", "+30 s", …].
    public var actions: [String]
    public var hints: Hints
    /// Milliseconds; 0 never expires, -1 leaves it to the server.
    public var expireTimeoutMS: Int32

    public init(
        appName: String, replacesID: UInt32, icon: String, summary: String, body: String, actions: [String],
        hints: Hints, expireTimeoutMS: Int32
    ) {
        self.appName = appName
        self.replacesID = replacesID
        self.icon = icon
        self.summary = summary
        self.body = body
        self.actions = actions
        self.hints = hints
        self.expireTimeoutMS = expireTimeoutMS
    }

    /// The hints restd sets (Desktop Notifications Specification, "Hints").
    public struct Hints: Equatable, Sendable {
        public var urgency: Urgency
        public var category: String
        /// A name from the freedesktop sound theme, nil for no sound.
        public var soundName: String?
        /// `suppress-sound`: the server plays no sound of its own (restd plays the alarm).
        public var suppressSound: Bool
        /// The desktop file (without ".desktop") of the application sending it.
        public var desktopEntry: String

        public init(
            urgency: Urgency, category: String, soundName: String?, suppressSound: Bool = false, desktopEntry: String
        ) {
            self.urgency = urgency
            self.category = category
            self.soundName = soundName
            self.suppressSound = suppressSound
            self.desktopEntry = desktopEntry
        }
    }

    /// The `urgency` hint's byte.
    public enum Urgency: UInt8, Sendable {
        case low = 0, normal = 1, critical = 2
    }
}

/// The action keys of restd's notifications besides the buttons (`NotificationAction.key`).
public enum ActionKey {
    /// Clicking the notification: dismisses it.
    public static let dismiss = "default"
}

/// What a notification server said it can do (GetCapabilities), as far as restd cares.
public struct ServerCapabilities: Equatable, Sendable {
    /// `actions`: buttons are shown and ActionInvoked is emitted.
    public var actions: Bool
    /// `body-markup`: the body is parsed as markup.
    public var bodyMarkup: Bool
    /// `sound`: the server plays sounds (the `sound-name` hint).
    public var sound: Bool

    public init(actions: Bool, bodyMarkup: Bool, sound: Bool = false) {
        self.actions = actions
        self.bodyMarkup = bodyMarkup
        self.sound = sound
    }

    /// From the list GetCapabilities returns.
    public init(advertised: [String]) {
        self.init(
            actions: advertised.contains("actions"), bodyMarkup: advertised.contains("body-markup"),
            sound: advertised.contains("sound"))
    }
}

/// Turns an alert into the Notify call that shows it.
public enum NotificationContent {
    public static let appName = "restd"
    /// "An appointment will occur soon" in the freedesktop Icon Naming Specification: the nearest
    /// standard icon to a rest that ends; every common icon theme has it.
    public static let icon = "appointment-soon"
    public static let category = "x-restd.timer"
    public static let workoutCategory = "x-restd.workout"
    /// From the freedesktop Sound Naming Specification: "an operation completes".
    public static let workoutSoundName = "complete"
    public static let desktopEntry = "restd"

    /// The Notify arguments for `alert` at `now`, replacing notification `replacesID` (0: none).
    ///
    /// "Rest over" has the style's urgency (critical by default, so that it stays until
    /// dismissed), no sound of the server's (restd rings the alarm itself, or keeps quiet when
    /// asked to: one sound, never two) and, when the server has them, the `default` action (dismiss) followed by the
    /// style's buttons in order; the pre-alert is low-urgency, silent, without actions, and
    /// expires as the server likes. "Workout done" is normal urgency, expires as the server likes,
    /// and has only the `default` action. User text is escaped when the server parses markup.
    public static func request(
        for alert: Alert, replacing replacesID: UInt32, capabilities: ServerCapabilities,
        messages: Messages, style: NotificationStyle = .standard, weightUnit: WeightUnit = .kg, now: USec
    ) -> NotificationRequest {
        let plainBody = body(of: alert, messages: messages, weightUnit: weightUnit, now: now)
        let summary: String
        let actions: [String]
        let hints: NotificationRequest.Hints
        let timeout: Int32
        switch alert.kind {
        case .warning(let deadline):
            let left = deadline > now ? deadline - now : 0
            summary = messages.timeLeft(messages.duration(seconds: (left + 999_999) / 1_000_000))
            actions = []
            hints = .init(urgency: .low, category: category, soundName: nil, desktopEntry: desktopEntry)
            timeout = -1
        case .expired:
            summary = messages.restOver
            actions = [ActionKey.dismiss, messages.dismiss] + style.actions.flatMap { [$0.key, $0.label(messages)] }
            hints = .init(
                urgency: style.urgency, category: category, soundName: nil, suppressSound: true,
                desktopEntry: desktopEntry)
            // Critical stays until dismissed; a configured low or normal one goes when the server
            // lets ordinary notifications go.
            timeout = style.urgency == .critical ? 0 : -1
        case .workoutDone:
            summary = messages.workoutDone
            actions = [ActionKey.dismiss, messages.dismiss]
            hints = .init(
                urgency: .normal, category: workoutCategory, soundName: workoutSoundName, desktopEntry: desktopEntry)
            timeout = -1
        }
        return NotificationRequest(
            appName: appName, replacesID: replacesID, icon: icon, summary: summary,
            body: capabilities.bodyMarkup ? Markup.escaped(plainBody) : plainBody,
            actions: capabilities.actions ? actions : [], hints: hints, expireTimeoutMS: timeout)
    }

    /// The body as plain text: what the rest was for (the label, else the timer's id unless it is
    /// "default"), how a rest that may end on recovery ended, how long ago it ended when that is
    /// news, the next exercise, and the sets done of sets planned, joined by " · ". "Squat · Next:
    /// Bench press", "Squat · Recovered in 1:12 — ♥118 · Next: Bench press", "Squat · ended 3 min
    /// ago · Next: Bench press", "Squat · Next: Squat 4/5 · 3/15 sets". For a workout,
    /// its summary: "Push day · 15/15 sets · 52 min · 4250 kg · rest 21 min" (the volume in
    /// `weightUnit`).
    public static func body(of alert: Alert, messages: Messages, weightUnit: WeightUnit = .kg, now: USec) -> String {
        if case .workoutDone(let summary) = alert.kind {
            return body(of: summary, messages: messages, weightUnit: weightUnit)
        }
        var parts: [String] = []
        if !alert.label.isEmpty {
            parts.append(alert.label)
        } else if case .timer(let id) = alert.subject, id != .default {
            parts.append(id.rawValue)
        }
        if let recovery = alert.recovery {
            parts.append(
                recovery.reason == .recovered
                    ? messages.recoveredIn(
                        messages.clock(seconds: recovery.afterUSec / 1_000_000), recovery.heartRateBPM)
                    : messages.heartRateLost)
        }
        if case .expired(let deadline) = alert.kind,
            let late = lateNote(deadlineUSec: deadline, now: now, messages: messages)
        {
            parts.append(late)
        }
        let next = NextText.worded(alert.next, catalog: messages.catalog)
        if !next.isEmpty { parts.append(messages.next(next)) }
        if let progress = alert.progress {
            parts.append(messages.setsDone(Int(clamping: progress.done), Int(clamping: progress.total)))
        }
        return ([parts.joined(separator: " · ")] + [alert.record].compactMap { $0 }).joined(separator: "\n")
    }

    /// "Push day · 15/15 sets · 52 min · 4250 kg · rest 21 min"; the volume and the rest only
    /// when there were some.
    static func body(of summary: WorkoutSummary, messages: Messages, weightUnit: WeightUnit) -> String {
        var parts = [
            summary.name, messages.setsDone(summary.setsDone, summary.setsPlanned),
            messages.roughDuration(seconds: summary.durationUSec / 1_000_000),
        ]
        if summary.volumeKG > 0 { parts.append(messages.volume(kilograms: summary.volumeKG, in: weightUnit)) }
        if summary.totalRestUSec > 0 {
            parts.append(messages.restTaken(messages.roughDuration(seconds: summary.totalRestUSec / 1_000_000)))
        }
        return parts.joined(separator: " · ")
    }

    /// "ended 42 s ago", "ended 3 min ago" (whole minutes, rounded down) for a rest that ended at
    /// least `Alert.lateUSec` before `now`; nil for one announced on time.
    public static func lateNote(deadlineUSec: USec, now: USec, messages: Messages) -> String? {
        guard now > deadlineUSec, now - deadlineUSec >= Alert.lateUSec else { return nil }
        return messages.endedAgo(messages.roughDuration(seconds: (now - deadlineUSec) / 1_000_000))
    }
}
