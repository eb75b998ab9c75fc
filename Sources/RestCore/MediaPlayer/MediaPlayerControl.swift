import Localization

/// A rest timer seen as an MPRIS media player's one track: what a media widget shows (status,
/// position) and what its buttons do, as timer commands. Pure: the time is passed in.
///
/// The track's length is the current run's duration (`durationUSec`, adjustments included) and
/// its position the time elapsed, so that length − position is always the time left. Adding or
/// removing time changes the length and leaves the position where it is; that is a "seek" for the
/// widget (it must re-read the position), and `seeked(from:to:)` says when one is due.
public enum MediaPlayerControl {
    /// What a media widget asks, decoded from its method call.
    public enum Request: Equatable, Sendable {
        case play, pause, playPause, next, stop
        /// Move the position by this much (µs): forward takes time off the rest, back adds it.
        case seek(offsetUSec: Int64)
        /// Move the position to this point of the track (µs), as the time left = length − position.
        case setPosition(Int64)
    }

    /// The longest seek accepted either way: a rest is at most 24 h long.
    public static let maxSeekUSec: USec = 86_400_000_000

    /// The command that carries out `request` on `timer` at `now`; nil when it has no effect
    /// (Pause on a paused rest, Seek on one that is over: the MPRIS specification's "no effect").
    /// An out-of-range position or offset is refused. On a ringing rest every button but Next
    /// and Stop only silences it, as a status bar's click does: the media key stops the alarm.
    public static func command(
        for request: Request, on timer: RestTimer, now: Instant
    ) throws(TimerError) -> TimerCommand? {
        let id = timer.id
        if timer.ringing, request != .next, request != .stop { return .silence(id) }
        switch (request, timer.state) {
        case (.play, .running), (.pause, .paused), (.pause, .expired):
            return nil
        case (.play, .paused), (.playPause, .paused):
            return .resume(id)
        case (.pause, .running), (.playPause, .running):
            return .pause(id)
        case (.play, .expired), (.playPause, .expired), (.next, .expired):
            // A stopped player starts again from the beginning: the rest runs again.
            return .restart(id)
        case (.next, _):
            return .skip(id)
        case (.stop, _):
            return .cancel(id)
        case (.seek(let offset), let state):
            guard offset.magnitude <= maxSeekUSec else {
                throw .invalidArgs(
                    localized(
                        "seek offset %1$s is out of range: give at most %2$s either way",
                        DurationText.describe(signed: offset), DurationText.describe(maxSeekUSec)))
            }
            guard state != .expired, offset != 0 else { return nil }
            // Past the end is the next track, as the specification says: the rest ends now.
            if offset > 0, USec(offset) >= timeLeft(timer, now: now) { return .skip(id) }
            return .adjust(id, deltaUSec: -offset)
        case (.setPosition(let signedPosition), let state):
            guard let position = USec(exactly: signedPosition) else {
                throw .invalidArgs(
                    localized(
                        "position %1$s is negative; give 0 (the start of the rest) or more",
                        DurationText.describe(signed: signedPosition)))
            }
            guard position <= timer.durationUSec else {
                throw .invalidArgs(
                    localized(
                        "position %1$s is past the end of the rest (%2$s long)", DurationText.describe(position),
                        DurationText.describe(timer.durationUSec)))
            }
            guard state != .expired else { return nil }
            let elapsed = positionUSec(of: timer, now: now)
            guard position != elapsed else { return nil }
            if position == timer.durationUSec { return .skip(id) }
            // The time left becomes length − position: adjust by the difference.
            let delta = Int64(clamping: elapsed) - Int64(clamping: position)
            return .adjust(id, deltaUSec: delta)
        }
    }

    /// The position of the track: the time elapsed of the current run (its length once over).
    public static func positionUSec(of timer: RestTimer, now: Instant) -> USec {
        timer.durationUSec.subtractingSaturated(timeLeft(timer, now: now))
    }

    /// Whether a change moved the position other than by playing: time added or removed, a run
    /// started again. A widget that extrapolates the position must be told (the Seeked signal).
    public static func seeked(from old: RestTimer, to new: RestTimer) -> Bool {
        guard new.state != .expired else { return false }
        return old.state == .expired || old.durationUSec != new.durationUSec || old.startedAtUSec != new.startedAtUSec
    }

    private static func timeLeft(_ timer: RestTimer, now: Instant) -> USec {
        switch timer.state {
        case .running: min(timer.durationUSec, timer.deadlineBoottime.subtractingSaturated(now.boottime))
        case .paused: min(timer.durationUSec, timer.remainingUSec)
        case .expired: 0
        }
    }
}

/// MPRIS's PlaybackStatus of a timer.
public enum PlaybackStatus: String, Sendable {
    case playing = "Playing"
    case paused = "Paused"
    case stopped = "Stopped"

    public init(_ state: TimerState) {
        switch state {
        case .running: self = .playing
        case .paused: self = .paused
        case .expired: self = .stopped
        }
    }
}
