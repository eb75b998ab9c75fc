import DBusKit
import RestCore
import RestProtocol

/// /org/mpris/MediaPlayer2: the MPRIS root and Player interfaces, thin handlers over
/// `MediaPlayerService`.
enum MediaPlayerObject {
    static func make(player: MediaPlayerService) -> [ExportedInterface] {
        [
            root(),
            ExportedInterface(
                BusInterfaces.mediaPlayer,
                call: { call throws(DBusError) in
                    let args = call.arguments
                    switch call.member {
                    case "Play": try player.perform(.play)
                    case "Pause": try player.perform(.pause)
                    case "PlayPause": try player.perform(.playPause)
                    case "Next": try player.perform(.next)
                    case "Stop": try player.perform(.stop)
                    case "Previous": break  // CanGoPrevious is false: no effect, as the specification says
                    case "Seek": try player.perform(.seek(offsetUSec: args[0].int64 ?? 0))
                    case "SetPosition":
                        try player.setPosition(trackID: args[0].string ?? "", positionUSec: args[1].int64 ?? 0)
                    case "OpenUri":
                        throw DBusError(.notSupported, "a rest timer opens no media (SupportedUriSchemes is empty)")
                    default: throw DBusError(.unknownMethod, "no method \(call.member)")
                    }
                    return []
                }, property: { name in player.playerProperty(name) }),
        ]
    }

    /// Raise and Quit have no effect: CanRaise and CanQuit are false (restd has no window, and
    /// quitting is systemd's business).
    static func root() -> ExportedInterface {
        ExportedInterface(
            BusInterfaces.mediaPlayerRoot,
            call: { call throws(DBusError) in
                guard call.member == "Raise" || call.member == "Quit" else {
                    throw DBusError(.unknownMethod, "no method \(call.member)")
                }
                return []
            },
            property: { name in
                switch name {
                case "CanQuit", "CanRaise", "HasTrackList": .boolean(false)
                case "Identity": .string(MediaPlayerBus.identity)
                case "DesktopEntry": .string(MediaPlayerBus.desktopEntry)
                case "SupportedUriSchemes", "SupportedMimeTypes": .strings([])
                default: nil
                }
            })
    }
}
