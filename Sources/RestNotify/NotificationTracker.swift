import RestCore

/// Decides, per subject (each timer, and the workout), which notification should be on screen
/// and what it takes to get there: show, replace (replaces_id) or close. Holds the ids the
/// notification server gave out.
///
/// Pure: the caller feeds it committed timer events, workout endings and the server's answers
/// and signals, asks for `commands(now:)` after each, and carries them out. Every Notify it is
/// asked for is answered with `shown` or `failed`; until then no other call is made for that
/// subject, so that a replacement always knows the id it replaces. What is wanted is remembered, so a
/// notification that could not be shown is shown when a server appears (`serverChanged`).
public struct NotificationTracker: Sendable {
    /// One call to make to the notification server.
    public enum Command: Equatable, Sendable {
        /// Notify with this alert, replacing `replacing` (0: none). Answer with `shown` or `failed`.
        case show(ticket: Ticket, alert: Alert, replacing: UInt32)
        /// CloseNotification. Nothing needs to be reported back.
        case close(id: UInt32)
    }

    /// Identifies one Notify call, so that an answer from an earlier server is not taken for
    /// one from the current server.
    public struct Ticket: Hashable, Sendable {
        let serial: UInt64
        public let subject: Alert.Subject
    }

    /// What an action the user invoked asks of the timers: `action` on timer `timerID`.
    public struct Request: Equatable, Sendable {
        public let action: NotificationAction
        public let timerID: TimerID

        public init(_ action: NotificationAction, _ timerID: TimerID) {
            self.action = action
            self.timerID = timerID
        }
    }

    private struct Entry: Sendable {
        /// What should be on screen; nil: nothing.
        var wanted: Alert?
        /// What is on screen, as far as the current server told us, and its id there.
        var shown: (id: UInt32, alert: Alert)?
        /// The Notify call under way, and what it shows.
        var pending: (ticket: Ticket, alert: Alert)?
        /// An alert the current server failed to show: not tried again until the server changes.
        var failed: Alert?

        var isEmpty: Bool { wanted == nil && shown == nil && pending == nil && failed == nil }

        /// Nothing to call and nothing to change at `now`: a call is under way, or what is
        /// wanted is current and already shown (or already failed on this server).
        func isSettled(now: USec) -> Bool {
            if pending != nil { return true }
            guard let wanted, !wanted.isStale(now: now) else { return false }
            return shown?.alert == wanted || failed == wanted
        }
    }

    private var entries: [Alert.Subject: Entry] = [:]
    private var nextSerial: UInt64 = 0
    /// Subjects whose entry changed since `commands(now:)` last looked: with wanted alerts going
    /// stale, the only ones that can need a call. After 1,000 expiries at once, every answer asks
    /// for commands; scanning all entries each time made the burst quadratic.
    private var touched: Set<Alert.Subject> = []
    /// No entry left untouched has a wanted alert that goes stale before this instant (it may be
    /// earlier than needed, which only costs one pass over all entries).
    private var nextStaleUSec: USec = .max
    /// The record line of the set each timer's rest follows (`noteRecord`), said with its "Rest over".
    private var records: [TimerID: String] = [:]

    public init() {}

    /// The set whose rest runs on timer `id` beat a record (`line`), or beat none (nil): its
    /// "Rest over" says it. Called before the set's timer events are recorded.
    public mutating func noteRecord(_ line: String?, forRestOn id: TimerID) {
        records[id] = line
    }

    // MARK: Timer events

    /// Takes in a batch of committed events. `.expired` and `.warning` follow the `.changed` that
    /// brought their timer to that state in the same batch, as TimerBook plans them. Their alerts
    /// say `progress`, the live activity's at this moment.
    public mutating func record(_ events: [TimerEvent], progress: LiveProgress? = nil) {
        var latest: [TimerID: RestTimer] = [:]
        for event in events {
            let subject = Alert.Subject.timer(event.timerID)
            switch event {
            case .added(let timer):
                latest[timer.id] = timer
                want(nil, for: subject)
            case .changed(let old, let new):
                latest[new.id] = new
                touched.insert(subject)
                if Self.invalidates(from: old, to: new) {
                    entries[subject, default: Entry()].wanted = nil
                } else if var wanted = entries[subject]?.wanted {
                    // Still inside the pre-alert time, with a new deadline (a wall-clock step,
                    // a few seconds added): the pre-alert is brought up to date in place.
                    if case .warning = wanted.kind { wanted.kind = .warning(deadlineUSec: new.endsAtUSec) }
                    // What comes next moved (a workout's next or previous): the alert follows.
                    wanted.label = new.label
                    wanted.next = new.next
                    entries[subject]?.wanted = wanted
                }
            case .removed(let timer):
                latest[timer.id] = nil
                records[timer.id] = nil
                want(nil, for: subject)
            case .expired(let id, let deadline, _):
                guard let timer = latest[id], timer.notify else { continue }
                var alert = Alert(.expired(deadlineUSec: deadline), timer: timer, progress: progress)
                alert.record = records[id]
                want(alert, for: subject)
            case .warning(let id, _, let deadline):
                guard let timer = latest[id], timer.notify else { continue }
                want(Alert(.warning(deadlineUSec: deadline), timer: timer, progress: progress), for: subject)
            }
        }
    }

    /// Takes in a change of the workout in progress: its end (`ended`, with its summary) brings
    /// "Workout done"; a workout starting takes down the last one's. A workout abandoned after
    /// being left untouched ends quietly: hours later, the news would only puzzle.
    public mutating func recordWorkout(inProgress: Bool, ended summary: WorkoutSummary?) {
        if let summary, !summary.abandoned {
            want(Alert(workoutDone: summary), for: .workout)
        } else if inProgress, entries[.workout] != nil {
            want(nil, for: .workout)
        }
    }

    private mutating func want(_ alert: Alert?, for subject: Alert.Subject) {
        touched.insert(subject)
        entries[subject, default: Entry()].wanted = alert
    }

    /// Whether a change makes what is on screen for the timer wrong. The alert of an expiry or
    /// a pre-alert is set by its own event right after; any other change to a timer that notifies
    /// clears it unless the timer is still running inside its pre-alert time (a wall-clock step,
    /// a few seconds added), where "10 s left" still holds.
    private static func invalidates(from old: RestTimer, to new: RestTimer) -> Bool {
        guard new.notify else { return true }
        switch new.state {
        case .expired: return old.state != .expired
        case .paused: return true
        case .running: return old.state != .running || !new.warned
        }
    }

    // MARK: Reconciling

    /// The calls that bring the screen to what is wanted, as far as they can be made now.
    public mutating func commands(now: USec) -> [Command] {
        var commands: [Command] = []
        // Only touched entries, unless a wanted alert may have gone stale: then all of them.
        var candidates = touched
        touched = []
        if now >= nextStaleUSec {
            candidates.formUnion(entries.keys)
            nextStaleUSec = .max
        }
        // Settled entries would be passed over below; leaving them out before sorting keeps the
        // order and the outcome.
        let unsettled = candidates.filter { subject in
            guard let entry = entries[subject] else { return false }
            if entry.isSettled(now: now) {
                noteSettled(entry)
                return false
            }
            return true
        }
        for subject in unsettled.sorted() {
            guard var entry = entries[subject] else { continue }
            defer {
                // Whatever is left is settled now: a call is under way, or nothing is to be done.
                if entry.isEmpty { entries[subject] = nil } else { entries[subject] = entry; noteSettled(entry) }
            }
            // One call at a time per subject: the answer may carry the id the next call replaces.
            guard entry.pending == nil else { continue }
            if let wanted = entry.wanted, wanted.isStale(now: now) { entry.wanted = nil }
            if let wanted = entry.wanted {
                guard entry.shown?.alert != wanted, entry.failed != wanted else { continue }
                nextSerial += 1
                let ticket = Ticket(serial: nextSerial, subject: subject)
                entry.pending = (ticket, wanted)
                commands.append(.show(ticket: ticket, alert: wanted, replacing: entry.shown?.id ?? 0))
            } else {
                entry.failed = nil
                if let shown = entry.shown {
                    entry.shown = nil
                    commands.append(.close(id: shown.id))
                }
            }
        }
        return commands
    }

    /// Keeps `nextStaleUSec` no later than when a settled entry's wanted alert goes stale. An
    /// entry with a call under way is looked at again when its answer comes.
    private mutating func noteSettled(_ entry: Entry) {
        guard entry.pending == nil, let wanted = entry.wanted else { return }
        nextStaleUSec = min(nextStaleUSec, wanted.staleAtUSec)
    }

    // MARK: The server's answers and signals

    /// The server showed the alert of `ticket` under `id`.
    public mutating func shown(_ ticket: Ticket, id: UInt32) {
        guard var entry = entries[ticket.subject], let pending = entry.pending, pending.ticket == ticket else { return }
        entry.pending = nil
        entry.failed = nil
        entry.shown = (id, pending.alert)
        entries[ticket.subject] = entry
        touched.insert(ticket.subject)
    }

    /// The Notify call of `ticket` failed; its alert is not tried again on this server.
    public mutating func failed(_ ticket: Ticket) {
        guard var entry = entries[ticket.subject], let pending = entry.pending, pending.ticket == ticket else { return }
        entry.pending = nil
        entry.failed = pending.alert
        entries[ticket.subject] = entry
        touched.insert(ticket.subject)
    }

    /// NotificationClosed: the user dismissed it, it expired, or the server closed it. Nothing
    /// for its subject is shown again until the subject's next alert. Ids restd did not create
    /// are ignored. Returns the timer whose "Rest over" it was, nil for anything else.
    @discardableResult
    public mutating func closed(id: UInt32) -> TimerID? {
        guard let (subject, entry) = entries.first(where: { $0.value.shown?.id == id }) else { return nil }
        var updated = entry
        updated.shown = nil
        // A replacement under way for this id (the pre-alert turning into "Rest over") still shows.
        if updated.pending == nil { updated.wanted = nil }
        entries[subject] = updated.isEmpty ? nil : updated
        touched.insert(subject)
        guard case .timer(let timerID) = subject, let shown = entry.shown, Self.isExpiry(shown.alert) else {
            return nil
        }
        return timerID
    }

    /// ActionInvoked: what the action asks of the timers, nil for ids restd did not create and
    /// for keys it does not know. The default action dismisses the notification. Any button key
    /// is honoured on "Rest over", not only those of the current style: a reload may have
    /// changed the buttons after this notification offered its own.
    public mutating func invoked(id: UInt32, action key: String) -> Request? {
        guard let (subject, entry) = entries.first(where: { $0.value.shown?.id == id }),
            let shown = entry.shown
        else { return nil }
        if key == ActionKey.dismiss {
            entries[subject]?.wanted = nil
            touched.insert(subject)
            return nil
        }
        guard let action = NotificationAction(key: key), case .timer(let timerID) = subject,
            Self.isExpiry(shown.alert)
        else { return nil }
        return Request(action, timerID)
    }

    /// Another server (or none) owns the name now: the ids of the old one mean nothing, answers
    /// still to come from it are ignored, and whatever is wanted is tried again.
    public mutating func serverChanged() {
        touched.formUnion(entries.keys)
        for subject in Array(entries.keys) {
            guard var entry = entries[subject] else { continue }
            entry.shown = nil
            entry.pending = nil
            entry.failed = nil
            entries[subject] = entry.isEmpty ? nil : entry
        }
    }

    /// A server appeared where there was none: what could not be shown is tried again. Calls
    /// under way stay valid (D-Bus activation delivers them to the server that appeared), and
    /// nothing was on screen to forget.
    public mutating func retryFailed() {
        touched.formUnion(entries.keys)
        for subject in Array(entries.keys) {
            guard var entry = entries[subject] else { continue }
            entry.failed = nil
            entries[subject] = entry.isEmpty ? nil : entry
        }
    }

    // MARK: Reading

    /// Whether `id` is a notification restd created on the current server.
    public func owns(id: UInt32) -> Bool {
        entries.values.contains { $0.shown?.id == id }
    }

    /// The alert wanted on screen for a subject.
    public func wanted(_ subject: Alert.Subject) -> Alert? {
        entries[subject]?.wanted
    }

    /// The server's id of what is on screen for a subject.
    public func shownID(_ subject: Alert.Subject) -> UInt32? {
        entries[subject]?.shown?.id
    }

    private static func isExpiry(_ alert: Alert) -> Bool {
        if case .expired = alert.kind { true } else { false }
    }
}
