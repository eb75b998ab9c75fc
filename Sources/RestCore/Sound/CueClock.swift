/// When the ticks before a rest's end are due: `count` cues, one second apart, the last one
/// second before the deadline, on the rest's own CLOCK_BOOTTIME deadline, so that a cue never
/// comes after the end. Pure: the daemon arms one timer at `nextWake` and asks `fire` what to do
/// when it goes off. The instants are worked out again from the book at every wake-up and every
/// change, so a rest paused, adjusted or cancelled in its last seconds plays no stale cue.
///
/// A rest that may end on recovery has no known end (no cues, only the alarm when it ends), and
/// neither has a rest without sound.
public struct CueClock: Sendable, Equatable {
    /// How many cues before each end (`[sound] cues`); 0 for none.
    public var count: Int
    /// The time between two cues, and between the last one and the end.
    public static let spacingUSec: USec = 1_000_000
    /// How long before a cue the sound is prepared (the engine set up), so the cue is on time.
    public static let prepareLeadUSec: USec = 500_000
    /// A cue later than this is dropped (a suspend, a loop held up): it would not say how much
    /// time is left.
    public static let staleAfterUSec: USec = 250_000

    /// Cues at or before this CLOCK_BOOTTIME instant were played or are past.
    private var cursor: USec
    /// The cue whose sound was prepared, when one was.
    private var preparedCue: USec?

    /// What the cue timer does when it goes off.
    public enum Action: Sendable, Equatable {
        /// Nothing due (the cue it was armed for went away).
        case nothing
        /// A cue is coming within `prepareLeadUSec`: set the sound up.
        case prepare
        /// Play a cue now.
        case play
    }

    /// A clock that plays no cue at or before `now` (boottime).
    public init(count: Int, now: USec) {
        self.count = count
        self.cursor = now
    }

    /// The CLOCK_BOOTTIME instants of `timer`'s cues, earliest first: none unless it runs with
    /// sound to a known end; only those after the run began.
    public func instants(of timer: RestTimer) -> [USec] {
        guard count > 0, timer.state == .running, timer.sound, timer.recovery == nil else { return [] }
        return (1...count).reversed().compactMap { step in
            let (lead, overflow) = USec(step).multipliedReportingOverflow(by: Self.spacingUSec)
            guard !overflow, lead < timer.deadlineBoottime else { return nil }
            let instant = timer.deadlineBoottime - lead
            return instant > timer.runStartBoottime ? instant : nil
        }
    }

    /// The earliest cue of any timer in `book` strictly after `after`.
    public func nextCue(in book: TimerBook, after: USec) -> USec? {
        guard count > 0 else { return nil }
        let span = USec(count).multipliedReportingOverflow(by: Self.spacingUSec).partialValue
        var best: USec?
        // The queue is in order of pre-alert or deadline, never later than the deadline: once an
        // entry's earliest possible cue is past the best found, so is every later entry's.
        for entry in book.runningQueue {
            if let best, entry.key.subtractingSaturated(span) >= best { break }
            guard let timer = book.timer(entry.id),
                let instant = instants(of: timer).first(where: { $0 > after })
            else { continue }
            best = min(best ?? instant, instant)
        }
        return best
    }

    /// The CLOCK_BOOTTIME instant the cue timer should go off next, at `now` after a change or
    /// a wake-up; nil when no cue is coming (no timer armed: an idle restd never wakes up). A
    /// cue whose moment passed less than `staleAfterUSec` ago is still due (the same instant as
    /// an expiry or a pre-alert, handled first).
    public mutating func nextWake(in book: TimerBook, now: USec) -> USec? {
        cursor = max(cursor, now.subtractingSaturated(Self.staleAfterUSec))
        guard let cue = nextCue(in: book, after: cursor) else {
            preparedCue = nil
            return nil
        }
        return preparedCue == cue ? cue : cue.subtractingSaturated(Self.prepareLeadUSec)
    }

    /// What to do when the cue timer goes off at `now`: play a cue whose moment has come (one
    /// sound for cues of several timers at once), prepare for one that is near, or nothing.
    public mutating func fire(in book: TimerBook, now: USec) -> Action {
        guard let cue = nextCue(in: book, after: cursor) else { return .nothing }
        if cue <= now {
            cursor = now
            preparedCue = nil
            return now - cue <= Self.staleAfterUSec ? .play : .nothing
        }
        guard cue.subtractingSaturated(Self.prepareLeadUSec) <= now else { return .nothing }
        preparedCue = cue
        return .prepare
    }
}
