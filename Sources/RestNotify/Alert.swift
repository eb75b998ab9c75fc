import RestCore

/// What restd wants on screen for one timer: its pre-alert, or the news that its rest is over.
public struct Alert: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// "10 s left": the rest ends at `deadlineUSec` (CLOCK_REALTIME µs).
        case warning(deadlineUSec: USec)
        /// "Rest over": the rest ended at `deadlineUSec` (CLOCK_REALTIME µs).
        case expired(deadlineUSec: USec)
    }

    public var kind: Kind
    public var timerID: TimerID
    public var label: String
    public var next: String

    public init(_ kind: Kind, timer: RestTimer) {
        self.init(kind, timerID: timer.id, label: timer.label, next: timer.next)
    }

    public init(_ kind: Kind, timerID: TimerID, label: String = "", next: String = "") {
        self.kind = kind
        self.timerID = timerID
        self.label = label
        self.next = next
    }

    /// A rest that ended longer ago than this is not announced at all (it is also when the
    /// expired timer is removed).
    public static let tooLateUSec: USec = 3_600_000_000
    /// A rest announced at least this long after it ended says so ("ended 3 min ago"): after a
    /// suspend, a restart of restd, or a notification server that appeared late.
    public static let lateUSec: USec = 5_000_000

    /// Whether showing this alert at `now` would be pointless: the pre-alert of a rest that has
    /// ended, or the end of a rest more than an hour ago.
    public func isStale(now: USec) -> Bool {
        now >= staleAtUSec
    }

    /// The first instant at which the alert is stale.
    public var staleAtUSec: USec {
        switch kind {
        case .warning(let deadline): deadline
        case .expired(let deadline):
            deadline > USec.max - Self.tooLateUSec - 1 ? USec.max : deadline + Self.tooLateUSec + 1
        }
    }
}
