import CPulse
import EventLoop
import Glibc

/// One connection to the session's sound server (PulseAudio, or PipeWire's pipewire-pulse) that
/// keeps event sounds in the server's sample cache and plays them from there, as GNOME's event
/// sounds are played (libcanberra): playing a cached sample is one message, so the server starts
/// it within milliseconds, and what plays is a stream with `media.role=event` and the sound's
/// `event.id`, which the user's volume and routing rules see.
///
/// Everything runs on restd's loop (`PulseMainloop`): no call waits for the server. A sound is
/// uploaded once per connection (decoded as the server takes it); a request to play it before it
/// is in the cache waits for the upload, unless its moment has passed by then. When the server
/// cannot be reached, or goes away, `onLost` says why once, and the next `connect()` tries again.
public final class SoundServerConnection {
    /// What the server is told about restd (the stream's `application.*` properties).
    public struct Application: Sendable {
        public var name: String
        public var id: String
        public var iconName: String

        public init(name: String, id: String, iconName: String) {
            self.name = name
            self.id = id
            self.iconName = iconName
        }
    }

    /// A sound kept in the server's cache.
    public struct Sound: Equatable, Sendable {
        /// Its name in the server's cache ("restd-alarm").
        public var sampleName: String
        public var path: String
        /// The sound-naming specification's name of the event ("alarm-clock-elapsed").
        public var eventID: String
        /// What the stream is called in volume controls ("Rest over").
        public var description: String

        public init(sampleName: String, path: String, eventID: String, description: String) {
            self.sampleName = sampleName
            self.path = path
            self.eventID = eventID
            self.description = description
        }
    }

    private let loop: EventLoop
    private let mainloop: PulseMainloop
    private let application: Application
    /// libpulse and libsndfile, loaded while a connection is open (or a failed one not yet freed).
    private var libraries: SoundLibraries?
    /// Only called while `libraries` is loaded: every call is made on a context, which needs it.
    private var pulse: SoundLibraries.Pulse { libraries!.pulse }
    private var context: OpaquePointer?
    /// Releases a context that failed, outside of its own callbacks.
    private var teardown: DeferSource!
    private var contextToFree: OpaquePointer?
    private var uploads: [String: SampleUpload] = [:]
    /// Requests to play a sound not yet in the cache: the name, the latest CLOCK_MONOTONIC µs at
    /// which it is still worth starting, and who hears of the started playback.
    private var waiting: [(name: String, latestUSec: UInt64, started: (UInt32?) -> Void)] = []

    /// Told once when the server cannot be reached or goes away, with a sentence saying why.
    public var onLost: (String) -> Void = { _ in }
    /// Told once the server answers (after each connect).
    public var onReady: () -> Void = {}
    /// Told when a sound cannot be uploaded (its file cannot be read, or the server refused it).
    public var onSoundFailed: (Sound, String) -> Void = { _, _ in }

    /// The server's address (`unix:/run/user/1000/pulse/native`); nil: the session's, as
    /// libpulse finds it (`$PULSE_SERVER`, client.conf, `$XDG_RUNTIME_DIR/pulse/native`).
    private let address: String?

    public init(loop: EventLoop, application: Application, address: String? = nil) throws(SystemError) {
        self.loop = loop
        self.application = application
        self.address = address
        mainloop = PulseMainloop(loop: loop)
        teardown = try loop.addDefer { [unowned self] in freeFailedContext() }
    }

    deinit {
        disconnect()
        freeFailedContext()
    }

    /// Whether a connection is open or being opened.
    public var isConnected: Bool { context != nil }

    /// Whether the server has answered on the open connection.
    public var isReady: Bool {
        guard let context else { return false }
        return pulse.contextGetState(context) == PA_CONTEXT_READY
    }

    /// Opens a connection unless one is open. Never waits: the server's answer comes through the loop.
    public func connect() {
        guard context == nil else { return }
        if libraries == nil {
            do {
                libraries = try SoundLibraries()
            } catch {
                onLost("cannot play sounds: \(error.reason)")
                return
            }
        }
        let properties = pulse.proplistNew()
        defer { pulse.proplistFree(properties) }
        pulse.proplistSets(properties, PA_PROP_APPLICATION_NAME, application.name)
        pulse.proplistSets(properties, PA_PROP_APPLICATION_ID, application.id)
        pulse.proplistSets(properties, PA_PROP_APPLICATION_ICON_NAME, application.iconName)
        guard let context = pulse.contextNewWithProplist(mainloop.api, application.name, properties) else {
            unloadIfUnused()
            onLost("cannot talk to a sound server: libpulse could not create a context")
            return
        }
        self.context = context
        pulse.contextSetStateCallback(context, contextStateChanged, Unmanaged.passUnretained(self).toOpaque())
        // No autospawn: a desktop without a sound server gets no PulseAudio started by restd.
        if pulse.contextConnect(context, address, PA_CONTEXT_NOAUTOSPAWN, nil) < 0 {
            lose(reason(context))
        }
    }

    /// Closes the connection; sounds already started play to their end.
    public func disconnect() {
        guard let context else { return }
        self.context = nil
        for upload in uploads.values { upload.cancel() }
        uploads.removeAll()
        let dropped = waiting
        waiting.removeAll()
        pulse.contextSetStateCallback(context, nil, nil)
        pulse.contextDisconnect(context)
        pulse.contextUnref(context)
        unloadIfUnused()
        for request in dropped { request.started(nil) }
    }

    /// Unloads the libraries once no context needs them.
    private func unloadIfUnused() {
        if context == nil && contextToFree == nil { libraries = nil }
    }

    /// Puts `sound` into the server's cache on this connection (once), opening its file now:
    /// returns how long it lasts (µs), or throws why its file cannot be played.
    @discardableResult
    public func upload(_ sound: Sound) throws(SoundFileError) -> UInt64 {
        if let upload = uploads[sound.sampleName], upload.sound == sound { return upload.durationUSec }
        uploads[sound.sampleName]?.cancel()
        guard let libraries else { throw SoundFileError(path: sound.path, reason: "not connected") }
        let file = try SoundFile(path: sound.path, libraries: libraries)
        let upload = SampleUpload(sound: sound, file: file, libraries: libraries)
        uploads[sound.sampleName] = upload
        upload.onDone = { [unowned self, unowned upload] error in
            if let error { onSoundFailed(upload.sound, error) }
            playWaiting()
        }
        if isReady, let context { upload.start(on: context) }
        return upload.durationUSec
    }

    /// Plays the cached sound `sampleName` now, or once it is cached if that is before
    /// `latestUSec` (CLOCK_MONOTONIC). `started` gets the playback's index on the server (for
    /// `stop`), or nil when it did not start.
    public func play(_ sampleName: String, latestUSec: UInt64 = .max, started: @escaping (UInt32?) -> Void = { _ in }) {
        guard context != nil, uploads[sampleName] != nil else {
            started(nil)
            return
        }
        waiting.append((sampleName, latestUSec, started))
        playWaiting()
    }

    /// Stops a playback that `play` started.
    public func stop(_ index: UInt32) {
        guard let context, isReady else { return }
        if let operation = pulse.contextKillSinkInput(context, index, nil, nil) { pulse.operationUnref(operation) }
    }

    /// Plays what waits for a sound that is now in the cache, and drops what is too late.
    private func playWaiting() {
        guard let context, isReady else { return }
        let now = loop.now(CLOCK_MONOTONIC)
        var still: [(name: String, latestUSec: UInt64, started: (UInt32?) -> Void)] = []
        for request in waiting {
            guard let upload = uploads[request.name], !upload.failed else {
                request.started(nil)
                continue
            }
            guard upload.isCached else {
                still.append(request)
                continue
            }
            guard now <= request.latestUSec else {
                request.started(nil)
                continue
            }
            startPlayback(of: upload.sound, on: context, started: request.started)
        }
        waiting = still
    }

    private func startPlayback(of sound: Sound, on context: OpaquePointer, started: @escaping (UInt32?) -> Void) {
        let properties = pulse.proplistNew()
        defer { pulse.proplistFree(properties) }
        Self.describe(sound, in: properties, with: pulse)
        let box = Unmanaged.passRetained(PlayStarted(started)).toOpaque()
        // PA_VOLUME_INVALID: the server applies the user's volume for event sounds.
        let operation = pulse.contextPlaySampleWithProplist(
            context, sound.sampleName, nil, UInt32.max, properties, playbackStarted, box)
        if let operation {
            pulse.operationUnref(operation)
        } else {
            Unmanaged<PlayStarted>.fromOpaque(box).release()
            started(nil)
        }
    }

    static func describe(_ sound: Sound, in properties: OpaquePointer?, with pulse: SoundLibraries.Pulse) {
        pulse.proplistSets(properties, PA_PROP_MEDIA_ROLE, "event")
        pulse.proplistSets(properties, PA_PROP_EVENT_ID, sound.eventID)
        pulse.proplistSets(properties, PA_PROP_MEDIA_NAME, sound.description)
        pulse.proplistSets(properties, PA_PROP_EVENT_DESCRIPTION, sound.description)
        pulse.proplistSets(properties, PA_PROP_MEDIA_FILENAME, sound.path)
    }

    fileprivate func stateChanged() {
        guard let context else { return }
        switch pulse.contextGetState(context) {
        case PA_CONTEXT_READY:
            for upload in uploads.values where !upload.isStarted { upload.start(on: context) }
            onReady()
        case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED:
            lose(reason(context))
        default:
            break
        }
    }

    private func reason(_ context: OpaquePointer) -> String {
        let error = pulse.contextErrno(context)
        let text = pulse.message(error)
        return error == Int32(PA_ERR_CONNECTIONREFUSED.rawValue) || error == Int32(PA_ERR_INVALIDSERVER.rawValue)
            ? "no sound server is running (\(text))" : "the sound server went away (\(text))"
    }

    /// The connection failed: forget it now, free it outside libpulse's callback.
    private func lose(_ why: String) {
        guard let context else { return }
        self.context = nil
        for upload in uploads.values { upload.cancel() }
        uploads.removeAll()
        let dropped = waiting
        waiting.removeAll()
        pulse.contextSetStateCallback(context, nil, nil)
        if let older = contextToFree {
            pulse.contextDisconnect(older)
            pulse.contextUnref(older)
        }
        // Freed in the next iteration, outside libpulse's callback; the libraries stay until then.
        contextToFree = context
        teardown.enableOnce()
        for request in dropped { request.started(nil) }
        onLost(why)
    }

    private func freeFailedContext() {
        guard let context = contextToFree else { return }
        contextToFree = nil
        pulse.contextDisconnect(context)
        pulse.contextUnref(context)
        unloadIfUnused()
    }
}

/// Carries a play request's callback through libpulse.
private final class PlayStarted {
    let started: (UInt32?) -> Void
    init(_ started: @escaping (UInt32?) -> Void) { self.started = started }
}

private func playbackStarted(_ context: OpaquePointer?, _ index: UInt32, _ userData: UnsafeMutableRawPointer?) {
    let box = Unmanaged<PlayStarted>.fromOpaque(userData!).takeRetainedValue()
    box.started(index == UInt32.max ? nil : index)
}

private func contextStateChanged(_ context: OpaquePointer?, _ userData: UnsafeMutableRawPointer?) {
    let connection = Unmanaged<SoundServerConnection>.fromOpaque(userData!).takeUnretainedValue()
    withExtendedLifetime(connection) { connection.stateChanged() }
}
