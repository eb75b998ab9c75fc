/// The message bus as the D-Bus specification names it: the bus driver's name, path and
/// interfaces, and the one writer of match rules.
public enum MessageBus {
    public static let name = "org.freedesktop.DBus"
    public static let path = "/org/freedesktop/DBus"
    public static let interface = "org.freedesktop.DBus"
    /// Signals libdbus makes up locally (Disconnected) arrive on this interface.
    public static let localInterface = "org.freedesktop.DBus.Local"
    /// dbus-daemon's statistics (GetConnectionStats), where its configuration allows them.
    public static let statsInterface = "org.freedesktop.DBus.Debug.Stats"
    public static let propertiesInterface = "org.freedesktop.DBus.Properties"
    public static let objectManagerInterface = "org.freedesktop.DBus.ObjectManager"

    /// The rule for NameOwnerChanged from the bus driver: of one `name` (arg0) when given, and
    /// only for names that lost their owner (arg2 empty) when `leavingOnly`.
    public static func nameOwnerChangedRule(name: String? = nil, leavingOnly: Bool = false) -> String {
        var rule = signalRule(
            sender: self.name, path: path, interface: interface, member: "NameOwnerChanged", arg0: name)
        if leavingOnly { rule += ",arg2=''" }
        return rule
    }

    /// The rule for the signals `sender` sends, narrowed by whatever else is given: the object
    /// `path`, `interface`, `member`, the first argument (`arg0`, or `arg0Path`: an object path
    /// equal to it or a parent or child of it).
    public static func signalRule(
        sender: String, path: String? = nil, interface: String? = nil, member: String? = nil, arg0: String? = nil,
        arg0Path: String? = nil
    ) -> String {
        var rule = "type='signal',sender='\(sender)'"
        for (key, value) in [("path", path), ("interface", interface), ("member", member), ("arg0", arg0)] {
            if let value { rule += ",\(key)='\(value)'" }
        }
        if let arg0Path { rule += ",arg0path='\(arg0Path)'" }
        return rule
    }
}

extension Message {
    /// NameOwnerChanged from the bus driver, as (name, old owner, new owner); nil for anything else.
    public var nameOwnerChange: (name: String, oldOwner: String, newOwner: String)? {
        guard sender == MessageBus.name, isSignal(MessageBus.interface, "NameOwnerChanged") else { return nil }
        let arguments = arguments()
        guard arguments.count == 3, let name = arguments[0].string, let old = arguments[1].string,
            let new = arguments[2].string
        else { return nil }
        return (name, old, new)
    }

    /// Disconnected, which libdbus delivers when the connection to the bus is lost.
    public var isDisconnected: Bool { isSignal(MessageBus.localInterface, "Disconnected") }
}
