import ProcessHarness

/// A private bus that starts restd itself, through D-Bus activation (the installed activation
/// file with the built restd in it), on a state directory and a configuration home that live as
/// long as this object.
final class ActivatingBus {
    let bus: TestBus
    let state: TempDirectory
    let config: ConfigHome

    /// - state: another restd's state directory; a new one when nil.
    /// - config: restd/config.toml, or nothing (the defaults).
    init(state: TempDirectory? = nil, config: String? = nil) throws {
        self.state = try state ?? TempDirectory(prefix: "restd-state")
        self.config = try ConfigHome(config)
        let file = ServiceTests.replacing(
            "Exec", with: try BuildProducts.executable("restd"),
            in: try ServiceTests.repositoryFile("dbus/io.restd.Rest1.service"))
        // Beside restd's configuration, which restd does not read there.
        let services = try self.config.directory.subdirectory("dbus-services")
        try self.config.directory.write("dbus-services/io.restd.Rest1.service", file)
        bus = try TestBus(
            serviceDirectories: [services],
            environment: ["XDG_STATE_HOME": self.state.path, "XDG_CONFIG_HOME": self.config.path])
    }
}
