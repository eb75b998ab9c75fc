import DBusKit
import Logging

/// Whether the desktop's Do Not Disturb is on, as the settings portal tells it
/// (`org.freedesktop.portal.Settings.Read` of `org.gnome.desktop.notifications` `show-banners`:
/// false while Do Not Disturb is on; GNOME's portal backend serves it, and so do others that
/// mirror GNOME's keys). Asked without waiting, ahead of the moment it matters; nil while it is
/// not known: no portal, no such key, or no answer yet.
final class DoNotDisturb {
    static let portal = "org.freedesktop.portal.Desktop"
    static let path = "/org/freedesktop/portal/desktop"
    static let interface = "org.freedesktop.portal.Settings"
    static let namespace = "org.gnome.desktop.notifications"
    static let key = "show-banners"
    /// The longest the portal may take: an answer later than the sound is of no use.
    static let timeoutMilliseconds: Int32 = 1_000

    private let connection: Connection
    private let logger: Logger
    /// On (true), off (false), or not known (nil), as of the last answer.
    private(set) var isOn: Bool?
    /// Whether a question is on its way.
    private(set) var isAsking = false
    /// Called once when the question on its way is answered (or times out), then forgotten.
    var onAnswer: (() -> Void)?

    init(connection: Connection, logger: Logger) {
        self.connection = connection
        self.logger = logger
    }

    /// Asks the portal again (one question at a time); the answer comes through the loop.
    func refresh() {
        guard !isAsking else { return }
        isAsking = true
        connection.call(
            destination: Self.portal, path: Self.path, interface: Self.interface, member: "Read",
            [.string(Self.namespace), .string(Self.key)], timeoutMilliseconds: Self.timeoutMilliseconds
        ) { [weak self] result in
            guard let self else { return }
            isAsking = false
            switch result {
            case .success(let reply):
                // Read wraps the value in a second variant (the portal's own documentation says so).
                var value = reply.arguments().first
                while case .variant(let inner)? = value { value = inner }
                if case .boolean(let showBanners)? = value {
                    isOn = !showBanners
                } else {
                    isOn = nil
                }
            case .failure(let error):
                if isOn != nil || !askedOnce { logger.debug("Do Not Disturb is not known: \(error.message)") }
                isOn = nil
            }
            askedOnce = true
            let answered = onAnswer
            onAnswer = nil
            answered?()
        }
    }

    private var askedOnce = false
}
