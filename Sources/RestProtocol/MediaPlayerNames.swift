/// The names of the MPRIS D-Bus Interface Specification (org.mpris.MediaPlayer2) that restd
/// serves when `[mpris] enabled = true`: a standard interface, not restd's own, written here once
/// for the daemon and its tests.
public enum MediaPlayerBus {
    /// The name restd owns while the timer it follows exists.
    public static let name = "org.mpris.MediaPlayer2.restd"
    /// The one object of the specification.
    public static let path = "/org/mpris/MediaPlayer2"
    public static let rootInterface = "org.mpris.MediaPlayer2"
    public static let playerInterface = "org.mpris.MediaPlayer2.Player"

    /// What a media widget shows as the player's name.
    public static let identity = "Rest timer"
    /// The desktop file (without `.desktop`) the widget takes the icon from.
    public static let desktopEntry = "restd"
}

/// Method and signal names of org.mpris.MediaPlayer2 and org.mpris.MediaPlayer2.Player.
public enum MediaPlayerMember {
    public static let raise = "Raise"
    public static let quit = "Quit"
    public static let next = "Next"
    public static let previous = "Previous"
    public static let pause = "Pause"
    public static let playPause = "PlayPause"
    public static let stop = "Stop"
    public static let play = "Play"
    public static let seek = "Seek"
    public static let setPosition = "SetPosition"
    public static let openUri = "OpenUri"
    public static let seeked = "Seeked"
}

/// Property names of org.mpris.MediaPlayer2.Player.
public enum MediaPlayerProperty {
    public static let playbackStatus = "PlaybackStatus"
    public static let metadata = "Metadata"
    public static let position = "Position"
    public static let rate = "Rate"
    public static let canPlay = "CanPlay"
    public static let canPause = "CanPause"
    public static let canSeek = "CanSeek"
    public static let canGoNext = "CanGoNext"
    public static let canGoPrevious = "CanGoPrevious"
    public static let canControl = "CanControl"
    public static let volume = "Volume"
    public static let minimumRate = "MinimumRate"
    public static let maximumRate = "MaximumRate"
}

/// Keys of the Metadata property (the MPRIS metadata guidelines, xesam and mpris namespaces).
public enum MediaPlayerMetadataKey {
    /// o: the followed timer's object path.
    public static let trackID = "mpris:trackid"
    /// x: the rest's length in µs.
    public static let length = "mpris:length"
    /// s: the timer's label, or "Rest".
    public static let title = "xesam:title"
    /// as: ["Next: Bench press"] when the timer has a next.
    public static let artist = "xesam:artist"
    /// s: the live activity's workout.
    public static let album = "xesam:album"
    /// as: the live activity's heart rate and progress, at most once every 5 s.
    public static let comment = "xesam:comment"
    /// s: why the rest ended, or will (the Timer's EndReason: `recovered`, `planned`, `user`,
    /// `sensor_lost`); absent while that is not known. restd's own key, as MPRIS allows.
    public static let endReason = "restd:endReason"
}
