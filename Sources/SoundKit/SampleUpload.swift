import CPulse
import Glibc

/// A sound file going into the sound server's sample cache through an upload stream: the server
/// asks for bytes, and the file is decoded just as far as it asked.
final class SampleUpload {
    let sound: SoundServerConnection.Sound
    private let file: SoundFile
    private let libraries: SoundLibraries
    private var pulse: SoundLibraries.Pulse { libraries.pulse }
    private var stream: OpaquePointer?
    private var written = 0
    private(set) var isStarted = false
    private(set) var isCached = false
    private(set) var failed = false
    /// Told once the sound is in the cache (nil) or could not be put there (why).
    var onDone: (String?) -> Void = { _ in }

    init(sound: SoundServerConnection.Sound, file: SoundFile, libraries: SoundLibraries) {
        self.sound = sound
        self.file = file
        self.libraries = libraries
    }

    deinit { cancel() }

    var durationUSec: UInt64 { file.durationUSec }

    func start(on context: OpaquePointer) {
        guard !isStarted else { return }
        isStarted = true
        var spec = pa_sample_spec(
            format: Self.nativeS16, rate: UInt32(file.rate), channels: UInt8(file.channels))
        let properties = pulse.proplistNew()
        defer { pulse.proplistFree(properties) }
        SoundServerConnection.describe(sound, in: properties, with: pulse)
        // The server files an uploaded sound under its event.id: restd's own name, so that it
        // replaces no other program's sound; playing it gives the real event.id.
        pulse.proplistSets(properties, PA_PROP_EVENT_ID, sound.sampleName)
        guard let stream = pulse.streamNewWithProplist(context, sound.sampleName, &spec, nil, properties) else {
            finish("the sound server refused the sound's format")
            return
        }
        self.stream = stream
        let me = Unmanaged.passUnretained(self).toOpaque()
        pulse.streamSetStateCallback(stream, uploadStateChanged, me)
        pulse.streamSetWriteCallback(stream, uploadWanted, me)
        if pulse.streamConnectUpload(stream, file.byteCount) < 0 {
            finish("the sound server refused the upload")
        }
    }

    /// Stops the upload and forgets the stream (the server drops a sound not finished).
    func cancel() {
        guard let stream else { return }
        self.stream = nil
        pulse.streamSetStateCallback(stream, nil, nil)
        pulse.streamSetWriteCallback(stream, nil, nil)
        if pulse.streamGetState(stream) == PA_STREAM_CREATING || pulse.streamGetState(stream) == PA_STREAM_READY {
            pulse.streamDisconnect(stream)
        }
        pulse.streamUnref(stream)
    }

    fileprivate func stateChanged() {
        guard let stream else { return }
        switch pulse.streamGetState(stream) {
        case PA_STREAM_TERMINATED:
            // The server took the whole sound (after pa_stream_finish_upload).
            isCached = true
            cancel()
            onDone(nil)
        case PA_STREAM_FAILED:
            finish(
                "the sound server refused it (\(pulse.message(pulse.contextErrno(pulse.streamGetContext(stream)))))"
            )
        default:
            break
        }
    }

    /// Decodes and sends up to `wanted` bytes; finishes the upload once the whole sound is sent.
    fileprivate func write(_ wanted: Int) {
        guard let stream else { return }
        let total = file.byteCount
        let frameBytes = file.channels * 2
        let bytes = min(wanted, total - written) / frameBytes * frameBytes
        if bytes > 0 {
            let buffer = UnsafeMutablePointer<Int16>.allocate(capacity: bytes / 2)
            defer { buffer.deallocate() }
            let frames = bytes / frameBytes
            var read = 0
            while read < frames {
                let got = file.read(into: buffer + read * file.channels, maxFrames: frames - read)
                if got == 0 { break }
                read += got
            }
            // A file shorter than its header said ends in silence: the server expects every byte.
            (buffer + read * file.channels).initialize(repeating: 0, count: (frames - read) * file.channels)
            if pulse.streamWrite(stream, buffer, bytes, nil, 0, PA_SEEK_RELATIVE) < 0 {
                finish("the sound server did not take it")
                return
            }
            written += bytes
        }
        if written >= total {
            pulse.streamSetWriteCallback(stream, nil, nil)
            if pulse.streamFinishUpload(stream) < 0 { finish("the sound server did not take it") }
        }
    }

    private func finish(_ failure: String) {
        failed = true
        cancel()
        onDone(failure)
    }

    /// 16-bit samples in the machine's byte order, as libsndfile writes them.
    private static let nativeS16 = UInt16(1).littleEndian == 1 ? PA_SAMPLE_S16LE : PA_SAMPLE_S16BE
}

private func uploadStateChanged(_ stream: OpaquePointer?, _ userData: UnsafeMutableRawPointer?) {
    let upload = Unmanaged<SampleUpload>.fromOpaque(userData!).takeUnretainedValue()
    withExtendedLifetime(upload) { upload.stateChanged() }
}

private func uploadWanted(_ stream: OpaquePointer?, _ bytes: Int, _ userData: UnsafeMutableRawPointer?) {
    let upload = Unmanaged<SampleUpload>.fromOpaque(userData!).takeUnretainedValue()
    withExtendedLifetime(upload) { upload.write(bytes) }
}
