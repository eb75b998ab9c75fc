import EventLoop
import Glibc
import Localization
import Logging
import RestProtocol
import SoundKit

/// restd's own sounds: the cue ticks before a rest ends and the alarm that rings at its end,
/// played through the session's sound server (`SoundServerConnection`), or `[sound] command` at
/// each ring of the alarm when one is set.
///
/// Nothing is held while no sound is due, so that an idle restd stays one thread with no wake-up:
/// `prepare()` connects and puts the sounds into the server's cache a little before they are
/// needed; the connection is released `lingerUSec` (5 s) after the last cue, or after the alarm stops.
/// No call waits for the server. A missing server, one that goes away, or a sound file that
/// cannot be played is said once in the log (`SoundServer` on the Manager says whether a server
/// answered); the rest ends on time regardless.
final class SoundService {
    /// How long the connection stays open after its last use: long enough for the next cue,
    /// short enough that restd is soon idle again.
    static let standardLingerUSec: UInt64 = 5_000_000
    /// The pause between two rings of the alarm sound.
    static let ringGapUSec: UInt64 = 250_000
    /// The shortest period of the alarm: a very short sound, or a command that fails at once,
    /// is not restarted faster than this.
    static let shortestRingUSec: UInt64 = 1_000_000
    /// A cue that cannot start within this of its moment is dropped: late, it would mislead.
    static let cueLatenessUSec: UInt64 = 100_000

    static let application = SoundServerConnection.Application(
        name: "restd", id: RestBus.name, iconName: "alarm-symbolic")

    private let loop: EventLoop
    private let logger: Logger
    private let theme: SoundTheme
    private let server: SoundServerConnection
    /// `[sound] command`; the notifier also runs it where "Rest over" has no sound of its own.
    let command: SoundCommand
    private var releaseTimer: TimerSource!
    private var ringTimer: TimerSource!

    /// `[sound]`; a reload applies to the next cue or ring.
    var settings: RestdConfiguration.Sound {
        didSet {
            command.argv = settings.command
            if settings.sounds != oldValue.sounds { soundsChanged() }
        }
    }

    /// Whether a sound server answered the last time restd connected; `.unknown` before the first.
    private(set) var serverState = SoundServerState.unknown {
        didSet { if serverState != oldValue { onServerStateChanged(serverState) } }
    }
    /// Told of every change of `serverState` (the Manager's SoundServer).
    var onServerStateChanged: (SoundServerState) -> Void = { _ in }
    /// Whether the next `takeServerWarning` says yes: armed each time the server goes missing.
    private var serverWarningDue = false

    /// Whether the alarm is ringing (between `startAlarm` and `stopAlarm`).
    private(set) var isRinging = false
    /// Rings once only: `startAlarm(once: true)`.
    private var ringsOnce = false
    /// The alarm sound's playback on the server, to stop it.
    private var playback: UInt32?
    /// The alarm sound's length (µs), once its file was opened.
    private var alarmDurationUSec: UInt64?
    private var serverFailures: RepeatedFailure
    private var fileFailures: [String: String] = [:]

    private let lingerUSec: UInt64
    /// The desktop's Do Not Disturb, asked by `prepare()`; nil: not known (no portal).
    private let doNotDisturb: DoNotDisturb?

    /// Whether the desktop's Do Not Disturb is on, as of the last `prepare()`; nil when it cannot
    /// be known (then the alarm rings). Whether it silences the alarm is `settings.inDoNotDisturb`.
    var isDoNotDisturb: Bool? { doNotDisturb?.isOn }

    /// Whether Do Not Disturb keeps restd quiet now: it is on, and `[sound] in_do_not_disturb`
    /// is false. Cues and rings are skipped then, the alarm still rings on the bus.
    var isKeptQuiet: Bool { !settings.inDoNotDisturb && isDoNotDisturb == true }

    /// `serverAddress` nil: the session's sound server.
    init(
        loop: EventLoop, settings: RestdConfiguration.Sound, theme: SoundTheme, logger: Logger,
        serverAddress: String? = nil, lingerUSec: UInt64 = standardLingerUSec, doNotDisturb: DoNotDisturb? = nil
    ) throws {
        self.doNotDisturb = doNotDisturb
        self.loop = loop
        self.settings = settings
        self.theme = theme
        self.logger = logger
        self.lingerUSec = lingerUSec
        serverFailures = RepeatedFailure(logger: logger, recovered: "the sound server answers again")
        server = try SoundServerConnection(loop: loop, application: Self.application, address: serverAddress)
        command = SoundCommand(loop: loop, argv: settings.command, logger: logger)
        releaseTimer = try loop.addTimer(clock: CLOCK_MONOTONIC, at: 0, accuracyUSec: 100_000) { [unowned self] _ in
            releaseIfUnused()
        }
        releaseTimer.isEnabled = false
        ringTimer = try loop.addTimer(clock: CLOCK_MONOTONIC, at: 0, accuracyUSec: 1) { [unowned self] _ in ring() }
        ringTimer.isEnabled = false
        server.onReady = { [unowned self] in
            serverState = .available
            serverFailures.succeeded()
        }
        server.onLost = { [unowned self] reason in serverLost(reason) }
        server.onSoundFailed = { [unowned self] sound, reason in
            noteFileProblem(sound.path, localized("cannot play the sound %1$s: %2$s", sound.path, reason))
        }
        command.onFinished = { [unowned self] in commandFinished() }
    }

    // MARK: What the timers call

    /// Connects to the sound server and puts the cue and alarm sounds into its cache, ahead of a
    /// cue or an expiry (a second or two before is plenty). Keeps the connection for `lingerUSec`.
    func prepare() {
        guard settings.enabled else { return }
        doNotDisturb?.refresh()
        defer { keepConnection() }
        guard !server.isConnected else { return }
        server.connect()
        guard server.isConnected else { return }
        for sound in [cueSound, alarmSound].compactMap({ $0 }) {
            do {
                let duration = try server.upload(sound)
                if sound.sampleName == Self.alarmSampleName { alarmDurationUSec = duration }
                fileFailures[sound.path] = nil
            } catch {
                noteFileProblem(sound.path, error.description)
            }
        }
    }

    /// Plays one cue now (restd's cue sound, never the command).
    func playCue() {
        guard settings.enabled, let cue = cueSound else { return }
        prepare()
        guard !isKeptQuiet else { return }
        server.play(cue.sampleName, latestUSec: loop.now(CLOCK_MONOTONIC) + Self.cueLatenessUSec)
    }

    /// Rings the alarm: the command at each ring when one is set, else restd's alarm sound,
    /// again and again with a short pause, until `stopAlarm()`; `once`, a single ring.
    func startAlarm(once: Bool = false) {
        guard settings.enabled, !isRinging else { return }
        isRinging = true
        ringsOnce = once
        releaseTimer.isEnabled = false
        ring()
    }

    /// Stops the alarm at once: the sound playing is cut, the command is ended.
    func stopAlarm() {
        guard isRinging else { return }
        isRinging = false
        ringTimer.isEnabled = false
        if let playback { server.stop(playback) }
        playback = nil
        command.stop()
        keepConnection()
    }

    /// Whether the caller is the first to hear that no sound server answered.
    func takeServerWarning() -> Bool {
        guard serverState == .missing, serverWarningDue else { return false }
        serverWarningDue = false
        return true
    }

    // MARK: The alarm's rings

    private func ring() {
        guard isRinging else { return }
        // The server is for restd's own sound, not for a command; Do Not Disturb is asked for both.
        if settings.command == nil { prepare() } else { doNotDisturb?.refresh() }
        // Whether Do Not Disturb keeps this ring quiet is being asked (within a second): the
        // ring follows the answer, so that an alarm without cues before it is not heard first.
        if !settings.inDoNotDisturb, let doNotDisturb, doNotDisturb.isAsking {
            doNotDisturb.onAnswer = { [unowned self] in playRing() }
            return
        }
        playRing()
    }

    /// One ring, the next one scheduled; Do Not Disturb skips its sound, not the next ring.
    private func playRing() {
        guard isRinging else { return }
        let now = loop.now(CLOCK_MONOTONIC)
        if isKeptQuiet {
            if ringsOnce {
                isRinging = false
            } else {
                ringTimer.schedule(at: now + max(Self.shortestRingUSec, (alarmDurationUSec ?? 0) + Self.ringGapUSec))
            }
            return
        }
        if settings.command != nil {
            if !command.isRunning { command.play() }
            // The next ring starts when the command ends (`commandFinished`).
            if ringsOnce { isRinging = false }
            return
        }
        guard let alarm = alarmSound else {
            isRinging = false
            return
        }
        if let playback { server.stop(playback) }
        playback = nil
        server.play(alarm.sampleName) { [weak self] index in
            guard let self else { return }
            if isRinging { playback = index } else if let index { server.stop(index) }
        }
        if ringsOnce {
            isRinging = false
            keepConnection()
            return
        }
        // Without the server (or the file), the next ring tries again.
        let period = max(Self.shortestRingUSec, (alarmDurationUSec ?? 0) + Self.ringGapUSec)
        ringTimer.schedule(at: now + period)
    }

    private func commandFinished() {
        guard isRinging, settings.command != nil else { return }
        // A command that ends at once is not restarted faster than `shortestRingUSec`.
        ringTimer.schedule(at: loop.now(CLOCK_MONOTONIC) + Self.ringGapUSec)
    }

    // MARK: The connection

    /// Keeps the connection until `lingerUSec` from now; with none open, nothing is left to release
    /// and no wake-up is armed for it.
    private func keepConnection() {
        guard server.isConnected else {
            releaseTimer.isEnabled = false
            return
        }
        releaseTimer.schedule(at: loop.now(CLOCK_MONOTONIC) + lingerUSec)
    }

    /// Whether a connection to the sound server is open.
    var isConnected: Bool { server.isConnected }

    private func releaseIfUnused() {
        guard !isRinging else { return }
        server.disconnect()
        logger.debug("sound server connection released")
    }

    private func serverLost(_ reason: String) {
        if serverState == .available || serverState == .unknown { serverWarningDue = true }
        serverState = .missing
        playback = nil
        // The connection is gone: nothing to release.
        releaseTimer.isEnabled = false
        serverFailures.failed(
            warning:
                .init(
                    stringLiteral: localized(
                        "%1$s: rests end without restd's sounds; further failures are logged only with --verbose",
                        reason)),
            again: "no sound again: \(reason)")
    }

    private func noteFileProblem(_ path: String, _ problem: String) {
        guard fileFailures[path] != problem else { return }
        fileFailures[path] = problem
        logger.warning("\(problem)")
    }

    /// New sound files: uploaded again on the next connection.
    private func soundsChanged() {
        guard !isRinging else { return }
        server.disconnect()
        fileFailures.removeAll()
    }

    // MARK: The sounds

    static let cueSampleName = "restd-cue"
    static let alarmSampleName = "restd-alarm"
    static let cueEvent = "bell"
    static let alarmEvent = "alarm-clock-elapsed"

    private var cueSound: SoundServerConnection.Sound? {
        sound(
            sampleName: Self.cueSampleName, file: settings.cueFile, event: Self.cueEvent,
            description: localized("Rest almost over"))
    }

    private var alarmSound: SoundServerConnection.Sound? {
        sound(
            sampleName: Self.alarmSampleName, file: settings.alarmFile, event: Self.alarmEvent,
            description: localized("Rest over"))
    }

    /// `file` when set, else what the theme plays for `event`; nil (said once) when there is none.
    private func sound(
        sampleName: String, file: String?, event: String, description: String
    ) -> SoundServerConnection.Sound? {
        let path: String
        if let file {
            path = file
        } else {
            switch theme.lookup(event, themeName: settings.theme ?? SoundTheme.fallbackTheme) {
            case .file(let found): path = found
            case .disabled: return nil
            case .notFound:
                let key = event == Self.cueEvent ? "cue_file" : "alarm_file"
                noteFileProblem(
                    event,
                    localized(
                        "no sound theme has the sound '%1$s': install sound-theme-freedesktop, or set [sound] %2$s",
                        event, key))
                return nil
            }
        }
        return SoundServerConnection.Sound(sampleName: sampleName, path: path, eventID: event, description: description)
    }
}
