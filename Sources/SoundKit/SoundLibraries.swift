import CPulse
import CSndfile
import Glibc

/// libpulse and libsndfile, loaded (`dlopen`) when the first sound is due: linked into restd, they
/// and the twenty libraries they pull in (X11's, the codecs') would be loaded at every start of a
/// daemon that is idle nearly all the time (docs/PERFORMANCE.md). `dlclose` after use cannot
/// unmap them where libpulse is linked `-z nodelete` (Debian's is; it keeps libsndfile, which it
/// links, too): their pages stay mapped, but nothing of them runs once the connection is closed. Every call into
/// either library goes through the function pointers here, so nothing of them is linked (the
/// module maps name no library, and a call that slipped past this type fails to link).
///
/// One object per period of use: the connection and each sound file keep it, and the libraries
/// are closed when the last of them lets go.
final class SoundLibraries {
    private let pulseHandle: UnsafeMutableRawPointer
    private let sndfileHandle: UnsafeMutableRawPointer
    let pulse: Pulse
    let sndfile: Sndfile

    /// The libraries' sonames (their runtime packages: libpulse0, libsndfile1).
    static let pulseName = "libpulse.so.0"
    static let sndfileName = "libsndfile.so.1"

    /// Loads both, or says in a sentence why not.
    init() throws(SoundLibraryError) {
        pulseHandle = try Self.open(Self.pulseName)
        do {
            sndfileHandle = try Self.open(Self.sndfileName)
            pulse = try Pulse(pulseHandle)
            sndfile = try Sndfile(sndfileHandle)
        } catch {
            dlclose(pulseHandle)
            throw error
        }
    }

    deinit {
        dlclose(sndfileHandle)
        dlclose(pulseHandle)
    }

    private static func open(_ name: String) throws(SoundLibraryError) -> UnsafeMutableRawPointer {
        guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
            throw SoundLibraryError(reason: String(cString: dlerror()))
        }
        return handle
    }

    static func symbol<T>(_ handle: UnsafeMutableRawPointer, _ name: String, as: T.Type) throws(SoundLibraryError) -> T
    {
        guard let address = dlsym(handle, name) else {
            throw SoundLibraryError(reason: "\(name) is missing from the library")
        }
        return unsafeBitCast(address, to: T.self)
    }

    // MARK: libpulse's functions that restd calls

    struct Pulse {
        let proplistNew: @convention(c) () -> OpaquePointer?
        let proplistFree: @convention(c) (OpaquePointer?) -> Void
        let proplistSets: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32
        let contextNewWithProplist:
            @convention(c) (UnsafeMutablePointer<pa_mainloop_api>?, UnsafePointer<CChar>?, OpaquePointer?) ->
                OpaquePointer?
        let contextSetStateCallback:
            @convention(c) (OpaquePointer?, pa_context_notify_cb_t?, UnsafeMutableRawPointer?) -> Void
        let contextConnect:
            @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, pa_context_flags_t, UnsafePointer<pa_spawn_api>?) ->
                Int32
        let contextDisconnect: @convention(c) (OpaquePointer?) -> Void
        let contextUnref: @convention(c) (OpaquePointer?) -> Void
        let contextGetState: @convention(c) (OpaquePointer?) -> pa_context_state_t
        let contextErrno: @convention(c) (OpaquePointer?) -> Int32
        let strerror: @convention(c) (Int32) -> UnsafePointer<CChar>?
        let contextPlaySampleWithProplist:
            @convention(c) (
                OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, pa_volume_t, OpaquePointer?,
                pa_context_play_sample_cb_t?, UnsafeMutableRawPointer?
            ) -> OpaquePointer?
        let contextKillSinkInput:
            @convention(c) (OpaquePointer?, UInt32, pa_context_success_cb_t?, UnsafeMutableRawPointer?) ->
                OpaquePointer?
        let operationUnref: @convention(c) (OpaquePointer?) -> Void
        let streamNewWithProplist:
            @convention(c) (
                OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<pa_sample_spec>?, UnsafePointer<pa_channel_map>?,
                OpaquePointer?
            ) -> OpaquePointer?
        let streamSetStateCallback:
            @convention(c) (OpaquePointer?, pa_stream_notify_cb_t?, UnsafeMutableRawPointer?) -> Void
        let streamSetWriteCallback:
            @convention(c) (OpaquePointer?, pa_stream_request_cb_t?, UnsafeMutableRawPointer?) -> Void
        let streamConnectUpload: @convention(c) (OpaquePointer?, Int) -> Int32
        let streamGetState: @convention(c) (OpaquePointer?) -> pa_stream_state_t
        let streamDisconnect: @convention(c) (OpaquePointer?) -> Int32
        let streamUnref: @convention(c) (OpaquePointer?) -> Void
        let streamGetContext: @convention(c) (OpaquePointer?) -> OpaquePointer?
        let streamWrite:
            @convention(c) (OpaquePointer?, UnsafeRawPointer?, Int, pa_free_cb_t?, Int64, pa_seek_mode_t) -> Int32
        let streamFinishUpload: @convention(c) (OpaquePointer?) -> Int32

        init(_ handle: UnsafeMutableRawPointer) throws(SoundLibraryError) {
            func load<T>(_ name: String) throws(SoundLibraryError) -> T {
                try SoundLibraries.symbol(handle, name, as: T.self)
            }
            proplistNew = try load("pa_proplist_new")
            proplistFree = try load("pa_proplist_free")
            proplistSets = try load("pa_proplist_sets")
            contextNewWithProplist = try load("pa_context_new_with_proplist")
            contextSetStateCallback = try load("pa_context_set_state_callback")
            contextConnect = try load("pa_context_connect")
            contextDisconnect = try load("pa_context_disconnect")
            contextUnref = try load("pa_context_unref")
            contextGetState = try load("pa_context_get_state")
            contextErrno = try load("pa_context_errno")
            strerror = try load("pa_strerror")
            contextPlaySampleWithProplist = try load("pa_context_play_sample_with_proplist")
            contextKillSinkInput = try load("pa_context_kill_sink_input")
            operationUnref = try load("pa_operation_unref")
            streamNewWithProplist = try load("pa_stream_new_with_proplist")
            streamSetStateCallback = try load("pa_stream_set_state_callback")
            streamSetWriteCallback = try load("pa_stream_set_write_callback")
            streamConnectUpload = try load("pa_stream_connect_upload")
            streamGetState = try load("pa_stream_get_state")
            streamDisconnect = try load("pa_stream_disconnect")
            streamUnref = try load("pa_stream_unref")
            streamGetContext = try load("pa_stream_get_context")
            streamWrite = try load("pa_stream_write")
            streamFinishUpload = try load("pa_stream_finish_upload")
        }

        /// libpulse's sentence for an error code.
        func message(_ code: Int32) -> String { strerror(code).map { String(cString: $0) } ?? "error \(code)" }
    }

    // MARK: libsndfile's

    struct Sndfile {
        let open: @convention(c) (UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<SF_INFO>?) -> OpaquePointer?
        let close: @convention(c) (OpaquePointer?) -> Int32
        let strerror: @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
        let readfShort: @convention(c) (OpaquePointer?, UnsafeMutablePointer<Int16>?, sf_count_t) -> sf_count_t

        init(_ handle: UnsafeMutableRawPointer) throws(SoundLibraryError) {
            func load<T>(_ name: String) throws(SoundLibraryError) -> T {
                try SoundLibraries.symbol(handle, name, as: T.self)
            }
            open = try load("sf_open")
            close = try load("sf_close")
            strerror = try load("sf_strerror")
            readfShort = try load("sf_readf_short")
        }
    }
}

/// Why restd cannot use the sound libraries: one sentence.
struct SoundLibraryError: Error {
    let reason: String
}
