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
        return pa_context_get_state(context) == PA_CONTEXT_READY
    }

    /// Opens a connection unless one is open. Never waits: the server's answer comes through the loop.
    public func connect() {
        guard context == nil else { return }
        let properties = pa_proplist_new()
        defer { pa_proplist_free(properties) }
        pa_proplist_sets(properties, PA_PROP_APPLICATION_NAME, application.name)
        pa_proplist_sets(properties, PA_PROP_APPLICATION_ID, application.id)
        pa_proplist_sets(properties, PA_PROP_APPLICATION_ICON_NAME, application.iconName)
        guard let context = pa_context_new_with_proplist(mainloop.api, application.name, properties) else {
            onLost("cannot talk to a sound server: libpulse could not create a context")
            return
        }
        self.context = context
        pa_context_set_state_callback(context, contextStateChanged, Unmanaged.passUnretained(self).toOpaque())
        // No autospawn: a desktop without a sound server gets no PulseAudio started by restd.
        if pa_context_connect(context, address, PA_CONTEXT_NOAUTOSPAWN, nil) < 0 {
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
        pa_context_set_state_callback(context, nil, nil)
        pa_context_disconnect(context)
        pa_context_unref(context)
        for request in dropped { request.started(nil) }
    }

    /// Puts `sound` into the server's cache on this connection (once), opening its file now:
    /// returns how long it lasts (µs), or throws why its file cannot be played.
    @discardableResult
    public func upload(_ sound: Sound) throws(SoundFileError) -> UInt64 {
        if let upload = uploads[sound.sampleName], upload.sound == sound { return upload.durationUSec }
        uploads[sound.sampleName]?.cancel()
        let file = try SoundFile(path: sound.path)
        let upload = SampleUpload(sound: sound, file: file)
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
        if let operation = pa_context_kill_sink_input(context, index, nil, nil) { pa_operation_unref(operation) }
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
        let properties = pa_proplist_new()
        defer { pa_proplist_free(properties) }
        Self.describe(sound, in: properties)
        let box = Unmanaged.passRetained(PlayStarted(started)).toOpaque()
        // PA_VOLUME_INVALID: the server applies the user's volume for event sounds.
        let operation = pa_context_play_sample_with_proplist(
            context, sound.sampleName, nil, UInt32.max, properties, playbackStarted, box)
        if let operation {
            pa_operation_unref(operation)
        } else {
            Unmanaged<PlayStarted>.fromOpaque(box).release()
            started(nil)
        }
    }

    static func describe(_ sound: Sound, in properties: OpaquePointer?) {
        pa_proplist_sets(properties, PA_PROP_MEDIA_ROLE, "event")
        pa_proplist_sets(properties, PA_PROP_EVENT_ID, sound.eventID)
        pa_proplist_sets(properties, PA_PROP_MEDIA_NAME, sound.description)
        pa_proplist_sets(properties, PA_PROP_EVENT_DESCRIPTION, sound.description)
        pa_proplist_sets(properties, PA_PROP_MEDIA_FILENAME, sound.path)
    }

    fileprivate func stateChanged() {
        guard let context else { return }
        switch pa_context_get_state(context) {
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
        let error = pa_context_errno(context)
        let text = String(cString: pa_strerror(error))
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
        pa_context_set_state_callback(context, nil, nil)
        freeFailedContext()
        contextToFree = context
        teardown.enableOnce()
        for request in dropped { request.started(nil) }
        onLost(why)
    }

    private func freeFailedContext() {
        guard let context = contextToFree else { return }
        contextToFree = nil
        pa_context_disconnect(context)
        pa_context_unref(context)
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
