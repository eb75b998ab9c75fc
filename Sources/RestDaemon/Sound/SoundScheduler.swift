import EventLoop
import Glibc
import RestCore

/// When restd's sounds play, from the timer book after each change: the cues before a rest's
/// end on one CLOCK_BOOTTIME timer (`CueClock` says when and what, the loop only arms it), and
/// the alarm while any timer rings (`RestTimer.ringing`, state in the book: started and
/// stopped here as it changes, whatever changed it).
///
/// Idle, nothing is armed: the cue timer runs only while a rest with sound is counting down.
final class SoundScheduler {
    private let player: SoundPlayer
    private let book: () -> TimerBook
    private var cues: CueClock
    /// Fires at the next cue or its preparation (CLOCK_BOOTTIME, as the rest's deadline;
    /// 1 µs accuracy: sd-event's default would let a cue come up to 250 ms late).
    private var cueTimer: TimerSource!
    private let loop: EventLoop
    /// Whether the alarm rings now (some timer's `ringing`).
    private(set) var isRinging = false
    /// Whether sounds play at all (`[sound] enabled`); with false nothing is armed or played.
    var enabled: Bool {
        didSet { if enabled != oldValue { timersChanged([]) } }
    }

    /// `cueCount` cues before each end; `book` reads the book as it is after each change.
    init(
        loop: EventLoop, player: SoundPlayer, cueCount: Int, enabled: Bool, book: @escaping () -> TimerBook
    ) throws(SystemError) {
        self.loop = loop
        self.player = player
        self.book = book
        self.enabled = enabled
        cues = CueClock(count: cueCount, now: loop.now(CLOCK_BOOTTIME))
        cueTimer = try loop.addTimer(clock: CLOCK_BOOTTIME, at: 0, accuracyUSec: 1) { [unowned self] _ in
            self.cueTimerFired()
        }
        cueTimer.isEnabled = false
    }

    /// How many cues before each end (`[sound] cues`); a reload applies at once.
    var cueCount: Int {
        get { cues.count }
        set {
            cues.count = newValue
            rearm()
        }
    }

    /// A listener of committed timer events (after the book applied them): the alarm follows
    /// the ringing timers, a rest ended without ringing (`ring_for` 0) rings once, and the cue
    /// timer is re-armed for the book as it is now, so no stale cue plays.
    func timersChanged(_ events: [TimerEvent]) {
        let book = book()
        let ringing = enabled && !book.ringingTimers.isEmpty
        if ringing != isRinging {
            isRinging = ringing
            if ringing { player.startAlarm(once: false) } else { player.stopAlarm() }
        }
        if enabled, !ringing, events.contains(where: { Self.ringsOnce($0, in: book) }) {
            player.startAlarm(once: true)
        }
        rearm()
    }

    /// An expiry that calls for one ring: a rest with sound that ran out just now (not one
    /// found over at start-up) and does not ring on (`ring_for` 0).
    private static func ringsOnce(_ event: TimerEvent, in book: TimerBook) -> Bool {
        guard case .expired(let id, let deadline, let fired) = event, let timer = book.timer(id) else { return false }
        return timer.sound && !timer.ringing && timer.endReason != .user
            && fired.subtractingSaturated(deadline) <= CueClock.spacingUSec
    }

    private func rearm() {
        guard enabled, let wake = cues.nextWake(in: book(), now: loop.now(CLOCK_BOOTTIME)) else {
            cueTimer.isEnabled = false
            return
        }
        cueTimer.schedule(at: wake)
    }

    private func cueTimerFired() {
        switch cues.fire(in: book(), now: loop.now(CLOCK_BOOTTIME)) {
        case .prepare: player.prepare()
        case .play: player.playCue()
        case .nothing: break
        }
        rearm()
    }
}
