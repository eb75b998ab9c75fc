import Localization

/// What restctl says when no sound server plays restd's cues and alarm: `start` (with sound) and
/// `set` once each time the server goes missing (restd keeps count, so that every client and
/// every run of restctl shares the "once").
public enum SoundServerNote {
    /// The sentence (without "restctl: ").
    public static var sentence: String {
        localized(
            "no sound server (PipeWire or PulseAudio) answered: the cues and the alarm will not be heard; start your desktop's and restd uses it for the next sound"
        )
    }

    /// The note for `start` and `set`, when restd says this caller is the first to hear of a
    /// missing server; nil otherwise, and when restd cannot tell (one too old to know).
    public static func take(from client: RestdClient) -> String? {
        (try? client.takeSoundServerWarning()) == true ? sentence : nil
    }
}
