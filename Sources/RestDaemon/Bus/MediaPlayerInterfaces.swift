import DBusKit
import RestProtocol

/// The two interfaces of the MPRIS D-Bus Interface Specification as restd serves them at
/// /org/mpris/MediaPlayer2. A standard, not restd's own contract: dbus/io.restd.Rest1.xml does
/// not list them; the README says what each member does with a rest.
extension BusInterfaces {
    static let mediaPlayerRoot = InterfaceDescription(
        name: MediaPlayerBus.rootInterface,
        methods: [Method("Raise"), Method("Quit")],
        properties: [
            Property("CanQuit", .boolean, annotations: [.emitsChangedSignal("const")]),
            Property("CanRaise", .boolean, annotations: [.emitsChangedSignal("const")]),
            Property("HasTrackList", .boolean, annotations: [.emitsChangedSignal("const")]),
            Property("Identity", .string, annotations: [.emitsChangedSignal("const")]),
            Property("DesktopEntry", .string, annotations: [.emitsChangedSignal("const")]),
            Property("SupportedUriSchemes", .array(.string), annotations: [.emitsChangedSignal("const")]),
            Property("SupportedMimeTypes", .array(.string), annotations: [.emitsChangedSignal("const")]),
        ])

    static let mediaPlayer = InterfaceDescription(
        name: MediaPlayerBus.playerInterface,
        methods: [
            Method("Next"),
            Method("Previous"),
            Method("Pause"),
            Method("PlayPause"),
            Method("Stop"),
            Method("Play"),
            Method("Seek", in: [Arg("Offset", .int64)]),
            Method("SetPosition", in: [Arg("TrackId", .objectPath), Arg("Position", .int64)]),
            Method("OpenUri", in: [Arg("Uri", .string)]),
        ],
        signals: [
            .init("Seeked", [Arg("Position", .int64)])
        ],
        properties: [
            Property(MediaPlayerProperty.playbackStatus, .string),
            Property(MediaPlayerProperty.rate, .double),
            Property(MediaPlayerProperty.metadata, .dictionary(key: .string, value: .variant)),
            Property(MediaPlayerProperty.volume, .double),
            // Computed when read: a widget extrapolates it from Rate and PlaybackStatus.
            Property(MediaPlayerProperty.position, .int64, annotations: [.emitsChangedSignal("false")]),
            Property(MediaPlayerProperty.minimumRate, .double),
            Property(MediaPlayerProperty.maximumRate, .double),
            Property(MediaPlayerProperty.canGoNext, .boolean),
            Property(MediaPlayerProperty.canGoPrevious, .boolean),
            Property(MediaPlayerProperty.canPlay, .boolean),
            Property(MediaPlayerProperty.canPause, .boolean),
            Property(MediaPlayerProperty.canSeek, .boolean),
            Property(MediaPlayerProperty.canControl, .boolean, annotations: [.emitsChangedSignal("const")]),
        ])
}
