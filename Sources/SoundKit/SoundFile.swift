import CSndfile
import Glibc

/// A sound file opened with libsndfile (Ogg Vorbis, FLAC, WAV), decoded to 16-bit samples as it
/// is read: a file is decoded in the pieces the sound server asks for, never all at once on the loop.
final class SoundFile {
    let path: String
    private let libraries: SoundLibraries
    private var sndfile: SoundLibraries.Sndfile { libraries.sndfile }
    private var handle: OpaquePointer?
    let channels: Int
    let rate: Int
    /// Frames the file says it holds.
    let frames: Int

    /// Opens `path`, or says in a sentence why it cannot be played.
    init(path: String, libraries: SoundLibraries) throws(SoundFileError) {
        self.path = path
        self.libraries = libraries
        let sndfile = libraries.sndfile
        var info = SF_INFO()
        guard let handle = sndfile.open(path, Int32(SFM_READ), &info) else {
            let reason = sndfile.strerror(nil).map { String(cString: $0) } ?? "unreadable"
            throw SoundFileError(
                path: path, reason: access(path, R_OK) == 0 ? reason : String(cString: strerror(errno)))
        }
        guard info.channels >= 1, info.channels <= 8, info.samplerate >= 1_000, info.samplerate <= 384_000,
            info.frames > 0, info.frames <= Int64(info.samplerate) * 60
        else {
            sndfile.close(handle)
            throw SoundFileError(path: path, reason: "not a sound of 1 to 8 channels, at most a minute long")
        }
        self.handle = handle
        channels = Int(info.channels)
        rate = Int(info.samplerate)
        frames = Int(info.frames)
    }

    deinit {
        if let handle { sndfile.close(handle) }
    }

    /// How long the sound lasts, in µs.
    var durationUSec: UInt64 { UInt64(frames) * 1_000_000 / UInt64(rate) }

    /// Bytes of the whole sound as 16-bit samples.
    var byteCount: Int { frames * channels * 2 }

    /// Decodes up to `maxFrames` frames into `buffer` (interleaved 16-bit samples); fewer at the
    /// end, 0 once the file is exhausted (or unreadable).
    func read(into buffer: UnsafeMutablePointer<Int16>, maxFrames: Int) -> Int {
        guard let handle else { return 0 }
        return max(0, Int(sndfile.readfShort(handle, buffer, sf_count_t(maxFrames))))
    }
}

/// Why a sound file cannot be played: one sentence naming the file.
public struct SoundFileError: Error, Equatable, CustomStringConvertible {
    public let path: String
    public let reason: String

    public var description: String { "cannot play the sound file \(path): \(reason)" }
}
