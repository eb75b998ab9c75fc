import DBusKit
import Localization
import RestCore
import RestProtocol

/// /org/mpris/MediaPlayer2: the two interfaces of the MPRIS D-Bus Interface Specification, thin
/// handlers over `MediaPlayerService`. A standard, not restd's own contract:
/// dbus/io.restd.Rest1.xml does not list them; the README says what each member does with a rest.
enum MediaPlayerObject {
    static func make(player: MediaPlayerService) -> [ExportedInterface] {
        [
            ExportedInterface(rootInterface, methods: rootMethods, context: (), properties: rootProperties) { () },
            ExportedInterface(playerInterface, methods: playerMethods, context: player, properties: playerProperties) {
                player.track
            },
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
            throw DBusError(.notSupported, localized("a rest timer opens no media (SupportedUriSchemes is empty)"))
        },
    ]

    static let playerInterface = InterfaceDescription(
        name: MediaPlayerBus.playerInterface, methods: playerMethods.map(\.description),
        signals: [.init(MediaPlayerMember.seeked, [.init("Position", .int64)])],
        properties: playerProperties.descriptions)

    /// What the Player properties show: the followed timer, with what the player adds to it.
    struct Track {
        let timer: RestTimer
        unowned let player: MediaPlayerService

        var notOver: Bool { timer.state != .expired }
    }

    static let playerProperties: PropertyTable<Track> = [
        BusProperty(MediaPlayerProperty.playbackStatus, .string) { .string(PlaybackStatus($0.timer.state).rawValue) },
        BusProperty(MediaPlayerProperty.rate, .double) { _ in .double(1) },
        BusProperty(MediaPlayerProperty.metadata, .dictionary(key: .string, value: .variant)) {
            .vardict($0.player.metadata(of: $0.timer))
        },
        BusProperty(MediaPlayerProperty.volume, .double) { _ in .double(1) },
        // Computed when read: a widget extrapolates it from Rate and PlaybackStatus.
        BusProperty(MediaPlayerProperty.position, .int64, annotations: [.emitsChangedSignal("false")]) {
            .int64(Int64(clamping: $0.player.positionUSec(of: $0.timer)))
        },
        BusProperty(MediaPlayerProperty.minimumRate, .double) { _ in .double(1) },
        BusProperty(MediaPlayerProperty.maximumRate, .double) { _ in .double(1) },
        BusProperty(MediaPlayerProperty.canGoNext, .boolean) { _ in .boolean(true) },
        BusProperty(MediaPlayerProperty.canGoPrevious, .boolean) { _ in .boolean(false) },
        BusProperty(MediaPlayerProperty.canPlay, .boolean) { _ in .boolean(true) },
        BusProperty(MediaPlayerProperty.canPause, .boolean) { .boolean($0.notOver) },
        BusProperty(MediaPlayerProperty.canSeek, .boolean) { .boolean($0.notOver) },
        BusProperty(MediaPlayerProperty.canControl, .boolean, annotations: [.const]) { _ in .boolean(true) },
    ]

    // MARK: Player signals

    /// PropertiesChanged of org.mpris.MediaPlayer2.Player: the values that changed (never Position).
    static func emitChanged(_ changed: [String: DBusValue], on server: ObjectServer) {
        server.emitPropertiesChanged(
            path: MediaPlayerBus.path, interface: MediaPlayerBus.playerInterface, changed: changed)
    }

    /// Seeked: the position moved other than by playing (time added or removed, a run restarted).
    static func emitSeeked(positionUSec: USec, on server: ObjectServer) {
        server.emitSignal(
            path: MediaPlayerBus.path, interface: MediaPlayerBus.playerInterface, name: MediaPlayerMember.seeked,
            arguments: [.int64(Int64(clamping: positionUSec))])
    }

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
        properties: rootProperties.descriptions)

    static let rootProperties: PropertyTable<Void> = [
        BusProperty("CanQuit", .boolean, annotations: [.const]) { _ in .boolean(false) },
        BusProperty("CanRaise", .boolean, annotations: [.const]) { _ in .boolean(false) },
        BusProperty("HasTrackList", .boolean, annotations: [.const]) { _ in .boolean(false) },
        BusProperty("Identity", .string, annotations: [.const]) { _ in .string(MediaPlayerBus.identity) },
        BusProperty("DesktopEntry", .string, annotations: [.const]) { _ in .string(MediaPlayerBus.desktopEntry) },
        BusProperty("SupportedUriSchemes", .array(.string), annotations: [.const]) { _ in .strings([]) },
        BusProperty("SupportedMimeTypes", .array(.string), annotations: [.const]) { _ in .strings([]) },
    ]
}

extension InterfaceDescription.Annotation {
    /// The property never changes while the object exists.
    fileprivate static let const = emitsChangedSignal("const")
}
