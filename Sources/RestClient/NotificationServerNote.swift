import Localization
import RestProtocol

/// What restctl says when no notification server can show "Rest over": `status` every time,
/// `start` and `set` once each time the server goes missing (restd keeps count, so that every
/// client and every run of restctl shares the "once").
public enum NotificationServerNote {
    /// The sentence (without "restctl: ").
    public static var sentence: String {
        localized(
            "no notification server is running on the session bus, and none could be started: \"Rest over\" will not be shown; start one (dunst, mako, your desktop's) and restd uses it at once"
        )
    }

    /// The note for `status` when `server` says notifications go unseen, nil otherwise.
    public static func note(for server: NotificationServerState?) -> String? {
        server == .missing ? sentence : nil
    }

    /// The note for `start` and `set`, when restd says this caller is the first to hear of a
    /// missing server; nil otherwise, and when restd cannot tell (one too old to know).
    public static func take(from client: RestdClient) -> String? {
        (try? client.takeNotificationServerWarning()) == true ? sentence : nil
    }
}
