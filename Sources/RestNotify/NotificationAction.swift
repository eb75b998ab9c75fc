/// A button of the "Rest over" notification. The raw value is both its name in `config.toml`
/// (`[notifications] actions`) and its action key in the Notify call, so that one word means
/// one thing everywhere.
public enum NotificationAction: String, CaseIterable, Sendable {
    /// Adjust +30 s: the expired timer runs again for 30 s.
    case add30s = "add_30s"
    /// Adjust +60 s: the expired timer runs again for a minute.
    case add1m = "add_1m"
    /// Restart with the duration of the last Start ("Again").
    case restart
    /// Cancel: the timer is removed.
    case cancel

    /// The key sent in Notify's actions and received back in ActionInvoked.
    public var key: String { rawValue }

    /// The action an ActionInvoked key names; nil for keys restd does not send (`default` included).
    public init?(key: String) {
        self.init(rawValue: key)
    }

    /// The button's label in `messages`' language.
    public func label(_ messages: Messages) -> String {
        switch self {
        case .add30s: messages.addThirtySeconds
        case .add1m: messages.addOneMinute
        case .restart: messages.again
        case .cancel: messages.cancel
        }
    }

    /// How much an `add_…` action lengthens the timer; nil for the others.
    public var deltaUSec: Int64? {
        switch self {
        case .add30s: 30_000_000
        case .add1m: 60_000_000
        case .restart, .cancel: nil
        }
    }
}

/// How "Rest over" is presented, as `config.toml`'s `[notifications]` says: its urgency and its
/// buttons. The pre-alert is not affected: it is always low-urgency and without buttons.
public struct NotificationStyle: Equatable, Sendable {
    /// The urgency hint of "Rest over". Critical by default, so that it stays until dismissed.
    public var urgency: NotificationRequest.Urgency
    /// The buttons, in order, after the `default` action (which dismisses); only sent to servers
    /// that advertise `actions`.
    public var actions: [NotificationAction]

    public init(urgency: NotificationRequest.Urgency = .critical, actions: [NotificationAction] = [.add30s, .restart]) {
        self.urgency = urgency
        self.actions = actions
    }

    /// Critical, with +30 s and Again.
    public static let standard = NotificationStyle()
}
