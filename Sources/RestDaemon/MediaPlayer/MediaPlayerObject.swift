import DBusKit
import RestCore
import RestProtocol

/// /org/mpris/MediaPlayer2: the two interfaces of the MPRIS D-Bus Interface Specification, thin
/// handlers over `MediaPlayerService`. A standard, not restd's own contract:
/// dbus/io.restd.Rest1.xml does not list them; the README says what each member does with a rest.
enum MediaPlayerObject {
    static func make(player: MediaPlayerService) -> [ExportedInterface] {
        [
            ExportedInterface(rootInterface, methods: rootMethods, context: (), property: rootProperty),
            ExportedInterface(
                playerInterface, methods: playerMethods, context: player,
                property: { name in player.playerProperty(name) }),
        ]
    }

    // MARK: org.mpris.MediaPlayer2.Player

    static let playerMethods: [BusMethod<MediaPlayerService>] = [
        BusMethod(MediaPlayerMember.next) { player, _ throws(DBusError) in try perform(player, .next) },
        // CanGoPrevious is false: no effect, as the specification says.
        BusMethod(MediaPlayerMember.previous) { _, _ throws(DBusError) in [] },
        BusMethod(MediaPlayerMember.pause) { player, _ throws(DBusError) in try perform(player, .pause) },
        BusMethod(MediaPlayerMember.playPause) { player, _ throws(DBusError) in try perform(player, .playPause) },
        BusMethod(MediaPlayerMember.stop) { player, _ throws(DBusError) in try perform(player, .stop) },
        BusMethod(MediaPlayerMember.play) { player, _ throws(DBusError) in try perform(player, .play) },
        BusMethod(MediaPlayerMember.seek, in: [.init("Offset", .int64)]) { player, call throws(DBusError) in
            try perform(player, .seek(offsetUSec: call.arguments[0].int64 ?? 0))
        },
        BusMethod(MediaPlayerMember.setPosition, in: [.init("TrackId", .objectPath), .init("Position", .int64)]) {
            player, call throws(DBusError) in
            try player.setPosition(
                trackID: call.arguments[0].string ?? "", positionUSec: call.arguments[1].int64 ?? 0)
            return []
        },
        BusMethod(MediaPlayerMember.openUri, in: [.init("Uri", .string)]) { _, _ throws(DBusError) in
            throw DBusError(.notSupported, "a rest timer opens no media (SupportedUriSchemes is empty)")
        },
    ]

    static let playerInterface = InterfaceDescription(
        name: MediaPlayerBus.playerInterface, methods: playerMethods.map(\.description),
        signals: [.init(MediaPlayerMember.seeked, [.init("Position", .int64)])],
        properties: [
            .init(MediaPlayerProperty.playbackStatus, .string),
            .init(MediaPlayerProperty.rate, .double),
            .init(MediaPlayerProperty.metadata, .dictionary(key: .string, value: .variant)),
            .init(MediaPlayerProperty.volume, .double),
            // Computed when read: a widget extrapolates it from Rate and PlaybackStatus.
            .init(MediaPlayerProperty.position, .int64, annotations: [.emitsChangedSignal("false")]),
            .init(MediaPlayerProperty.minimumRate, .double),
            .init(MediaPlayerProperty.maximumRate, .double),
            .init(MediaPlayerProperty.canGoNext, .boolean),
            .init(MediaPlayerProperty.canGoPrevious, .boolean),
            .init(MediaPlayerProperty.canPlay, .boolean),
            .init(MediaPlayerProperty.canPause, .boolean),
            .init(MediaPlayerProperty.canSeek, .boolean),
            .init(MediaPlayerProperty.canControl, .boolean, annotations: [.emitsChangedSignal("const")]),
        ])

    private static func perform(
        _ player: MediaPlayerService, _ command: MediaPlayerControl.Request
    ) throws(DBusError)
        -> MethodReply
    {
        try player.perform(command)
        return []
    }

    // MARK: org.mpris.MediaPlayer2

    /// Raise and Quit have no effect: CanRaise and CanQuit are false (restd has no window, and
    /// quitting is systemd's business).
    static let rootMethods: [BusMethod<Void>] = [
        BusMethod(MediaPlayerMember.raise) { _, _ throws(DBusError) in [] },
        BusMethod(MediaPlayerMember.quit) { _, _ throws(DBusError) in [] },
    ]

    static let rootInterface = InterfaceDescription(
        name: MediaPlayerBus.rootInterface, methods: rootMethods.map(\.description),
        properties: ["CanQuit", "CanRaise", "HasTrackList"].map { .init($0, .boolean, annotations: [.const]) }
            + [
                .init("Identity", .string, annotations: [.const]),
                .init("DesktopEntry", .string, annotations: [.const]),
            ]
            + ["SupportedUriSchemes", "SupportedMimeTypes"].map { .init($0, .array(.string), annotations: [.const]) })

    static func rootProperty(_ name: String) -> DBusValue? {
        switch name {
        case "CanQuit", "CanRaise", "HasTrackList": .boolean(false)
        case "Identity": .string(MediaPlayerBus.identity)
        case "DesktopEntry": .string(MediaPlayerBus.desktopEntry)
        case "SupportedUriSchemes", "SupportedMimeTypes": .strings([])
        default: nil
        }
    }
}

extension InterfaceDescription.Annotation {
    /// The property never changes while the object exists.
    fileprivate static let const = emitsChangedSignal("const")
}
