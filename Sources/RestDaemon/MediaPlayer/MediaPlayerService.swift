import DBusKit
import EventLoop
import Glibc
import Localization
import Logging
import RestCore
import RestProtocol

/// restd as an MPRIS media player (`[mpris]`): the followed timer as the one track that GNOME's
/// and KDE's media controls, their lock screens, KDE Connect, waybar and playerctl show.
///
/// It owns org.mpris.MediaPlayer2.restd only while the followed timer exists, so an idle desktop
/// shows no player; the name is asked for and given back without waiting, in order, on the
/// bus. Every button is a `TimerCommand` through `StateService.perform`, the one commit path.
/// Nothing ticks: Position is computed when read, and the live activity's heart rate and
/// progress reach Metadata through one throttled stream (at most once every 5 s, a timer armed
/// only while a trailing update is pending), because widgets redraw on every Metadata change.
final class MediaPlayerService {
    static let liveIntervalUSec: USec = 5_000_000

    private let server: ObjectServer
    private let service: StateService
    private let clock: TimeSource
    private let logger: Logger
    private var settings: RestdConfiguration.MediaPlayer
    /// False until restd owns its own name: nothing is asked of the bus before.
    private var isStarted = false
    /// Whether the object is exported and the name asked for.
    private var isServing = false
    /// The Player properties last announced (Position aside), to send only what changed.
    private var announced: [String: DBusValue] = [:]
    /// The live activity's current fields, summarised only when the player shows them (not per
    /// update while MPRIS is off).
    var liveFields: () -> [String: LiveValue] = { [:] }
    private var liveSummary: LiveSummary { LiveSummary(fields: liveFields()) }
    /// What of the live activity the widgets were last shown, throttled.
    private var liveStream = ThrottledStream<LiveSummary>(intervalUSec: MediaPlayerService.liveIntervalUSec)
    private var liveTimer: TimerSource!

    init(
        server: ObjectServer, service: StateService, loop: EventLoop, clock: TimeSource,
        settings: RestdConfiguration.MediaPlayer, logger: Logger
    ) throws(SystemError) {
        self.server = server
        self.service = service
        self.clock = clock
        self.settings = settings
        self.logger = logger
        liveTimer = try loop.addTimer(clock: CLOCK_BOOTTIME, at: 0, accuracyUSec: 100_000) { [unowned self] _ in
            act(liveStream.fire(liveSummary, now: self.clock.now().boottime))
        }
        liveTimer.isEnabled = false
    }

    /// The timer shown, while MPRIS is enabled and it exists.
    var followedTimer: RestTimer? { settings.enabled ? service.book.timer(settings.timer) : nil }

    /// Starts following (once restd owns io.restd.Rest1).
    func start() {
        isStarted = true
        update(seeked: false)
    }

    // MARK: What it follows

    /// A listener of committed timer events.
    func timersChanged(_ events: [TimerEvent]) {
        let seeked = events.contains { event in
            guard case .changed(let old, let new) = event, new.id == settings.timer else { return false }
            return MediaPlayerControl.seeked(from: old, to: new)
        }
        update(seeked: seeked)
    }

    /// `[mpris]` after a reload: on, off, or another timer.
    func setSettings(_ new: RestdConfiguration.MediaPlayer) {
        guard new != settings else { return }
        let followsAnother = new.timer != settings.timer
        settings = new
        if settings.enabled { act(liveStream.offer(liveSummary, now: clock.now().boottime)) }
        update(seeked: followsAnother)
    }

    /// The live activity's fields changed.
    func liveFieldsChanged() {
        guard settings.enabled else { return }
        act(liveStream.offer(liveSummary, now: clock.now().boottime))
    }

    private func act(_ action: ThrottledStream<LiveSummary>.Action) {
        switch action {
        case .publish: update(seeked: false)
        case .schedule(let due): liveTimer.schedule(at: due)
        case .none: break
        }
    }

    // MARK: Buttons

    /// Carries out what a widget asks, through the commit path; a request without effect (Pause
    /// on a paused rest) changes nothing and is not an error.
    func perform(_ request: MediaPlayerControl.Request) throws(DBusError) {
        let timer = try followed()
        let command: TimerCommand?
        do {
            command = try MediaPlayerControl.command(for: request, on: timer, now: clock.now())
        } catch {
            throw error.dbusError
        }
        if let command { try service.perform(.timer(command)) }
    }

    /// SetPosition, honoured for the current track only: a stale or made-up track id is refused.
    func setPosition(trackID: String, positionUSec: Int64) throws(DBusError) {
        let timer = try followed()
        let current = trackPath(timer)
        guard trackID == current else {
            throw DBusError(
                .invalidArgs,
                localized(
                    "track %1$s is not the current one (%2$s); read mpris:trackid from Metadata",
                    MessageText.quoted(trackID), current))
        }
        try perform(.setPosition(positionUSec))
    }

    private func followed() throws(DBusError) -> RestTimer {
        guard let timer = followedTimer else {
            throw DBusError(
                name: RestErrorName.noSuchTimer,
                message: localized("there is no timer %1$s to control", MessageText.quoted(settings.timer.rawValue)))
        }
        return timer
    }

    // MARK: Properties

    /// The followed timer as the Player properties show it; nil while there is none.
    var track: MediaPlayerObject.Track? { followedTimer.map { MediaPlayerObject.Track(timer: $0, player: self) } }

    /// Where in the rest `timer` is now: Position, computed when read.
    func positionUSec(of timer: RestTimer) -> USec { MediaPlayerControl.positionUSec(of: timer, now: clock.now()) }

    func metadata(of timer: RestTimer) -> [String: DBusValue] {
        var metadata: [String: DBusValue] = [
            MediaPlayerMetadataKey.trackID: .objectPath(trackPath(timer)),
            MediaPlayerMetadataKey.length: .int64(Int64(clamping: timer.durationUSec)),
            // TRANSLATORS: the media player's title of a rest without a label (GNOME's and Plasma's media controls).
            MediaPlayerMetadataKey.title: .string(timer.label.isEmpty ? localized("Rest") : timer.label),
        ]
        let next = NextText.worded(timer.next, catalog: .installed)
        if !next.isEmpty { metadata[MediaPlayerMetadataKey.artist] = .strings([localized("Next: %1$s", next)]) }
        let shown = liveStream.lastPublished ?? liveSummary
        if let album = shown.album { metadata[MediaPlayerMetadataKey.album] = .string(album) }
        if let comment = shown.comment { metadata[MediaPlayerMetadataKey.comment] = .strings([comment]) }
        if let reason = timer.endReason { metadata[MediaPlayerMetadataKey.endReason] = .string(reason.rawValue) }
        return metadata
    }

    private func trackPath(_ timer: RestTimer) -> String { RestBus.timerPath(id: timer.id.rawValue) }

    // MARK: Serving

    /// Serves or stops serving as the followed timer comes and goes, and announces what changed.
    private func update(seeked: Bool) {
        guard isStarted else { return }
        guard let track else {
            if isServing { stopServing() }
            return
        }
        guard isServing else {
            // A player is born with the live activity as it is now, not as last throttled (a new
            // stream has published nothing: `metadata` then shows the current summary), and the
            // next change (the set that started its rest) reaches it at once too.
            liveStream = ThrottledStream(intervalUSec: Self.liveIntervalUSec)
            liveTimer.isEnabled = false
            return startServing(MediaPlayerObject.playerProperties.announced(of: track))
        }
        let values = MediaPlayerObject.playerProperties.announced(of: track)
        let changed = values.filter { announced[$0.key] != $0.value }
        announced = values
        if !changed.isEmpty { MediaPlayerObject.emitChanged(changed, on: server) }
        if seeked {
            MediaPlayerObject.emitSeeked(positionUSec: positionUSec(of: track.timer), on: server)
        }
    }

    private func startServing(_ values: [String: DBusValue]) {
        isServing = true
        announced = values
        // Exported before the name is asked for: a widget that sees the name appear finds the object.
        server.export(path: MediaPlayerBus.path, interfaces: MediaPlayerObject.make(player: self))
        // Queued, not refused, when taken: a restd killed a moment ago may still hold it until
        // the bus notices, and the name passes to the queue then. ReleaseName leaves the queue.
        server.connection.requestNameAsync(MediaPlayerBus.name, doNotQueue: false) { [logger] result in
            switch result {
            case .success(.primaryOwner), .success(.alreadyOwner):
                logger.debug("owning \(MediaPlayerBus.name)")
            case .success:
                logger.warning(
                    .init(
                        stringLiteral: localized(
                            "%1$s is owned by another program; restd waits for it to be released", MediaPlayerBus.name))
                )
            case .failure(let error):
                logger.warning(
                    .init(stringLiteral: localized("cannot own %1$s: %2$s", MediaPlayerBus.name, error.message)))
            }
        }
    }

    private func stopServing() {
        isServing = false
        announced = [:]
        server.connection.releaseNameAsync(MediaPlayerBus.name) { [logger] result in
            if case .failure(let error) = result {
                logger.warning(
                    .init(stringLiteral: localized("cannot release %1$s: %2$s", MediaPlayerBus.name, error.message)))
            }
        }
        server.unexport(path: MediaPlayerBus.path)
    }
}
