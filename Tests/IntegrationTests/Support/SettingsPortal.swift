import ProcessHarness

/// The desktop's settings portal as restd asks it for Do Not Disturb: python-dbusmock standing in
/// for xdg-desktop-portal, whose `org.freedesktop.portal.Settings.Read` answers GNOME's
/// `org.gnome.desktop.notifications` `show-banners` (false while Do Not Disturb is on), wrapped
/// in two variants as the portal does. Killed when the object goes away.
final class SettingsPortal {
    static let name = "org.freedesktop.portal.Desktop"
    static let path = "/org/freedesktop/portal/desktop"
    static let interface = "org.freedesktop.portal.Settings"

    let bus: any BusEndpoint
    private let child: ChildProcess

    /// Starts the portal on `bus`, answering `doNotDisturb`, once it answers.
    init(bus: any BusEndpoint, doNotDisturb: Bool) throws {
        self.bus = bus
        child = try ChildProcess(
            executable: NotificationServer.python,
            arguments: ["-m", "dbusmock", Self.name, Self.path, Self.interface],
            environment: ChildEnvironment.make(["DBUS_SESSION_BUS_ADDRESS": bus.address]))
        var last: CommandResult?
        // The mock takes its name a moment after it starts: its first AddMethod is retried.
        try waitUntil("the settings portal to answer", details: { last.map { "\($0)" } ?? "" }) {
            last = self.answer(doNotDisturb: doNotDisturb)
            return last!.succeeded
        }
    }

    /// Makes Read answer `doNotDisturb` from now on.
    func set(doNotDisturb: Bool) throws {
        let result = answer(doNotDisturb: doNotDisturb)
        guard result.succeeded else { throw HarnessError.failed("the settings portal: \(result)") }
    }

    private func answer(doNotDisturb: Bool) -> CommandResult {
        gdbus(
            bus, "call", "--dest", Self.name, "--object-path", Self.path,
            "--method", "org.freedesktop.DBus.Mock.AddMethod", Self.interface, "Read", "ss", "v",
            "ret = dbus.Boolean(\(doNotDisturb ? "False" : "True"), variant_level=2)")
    }

    deinit { child.killAndReap() }
}
