import DBusKit
import ProcessHarness
import RestClient
import RestProtocol
import Testing

/// The Manager's Reload and `restctl reload`: config.toml read again on request, with an answer
/// that says what changed, or why the file was refused.
@Suite("Reload", .serialized)
struct ReloadTests {
    static let notReloaded = "the configuration was not reloaded; the previous one stays in force"

    @Test("Reload answers the keys that changed, or none; a wrong file is refused with file:line, the old one in force")
    func reloadMethod() throws {
        let daemon = try RunningDaemon(config: "default_duration = \"2m\"\n")
        let (bus, config, client) = (daemon.bus, daemon.config, daemon.client)

        try config.write("default_duration = 45\nmax_timers = 1\n")
        #expect(try client.reload() == ["default_duration", "max_timers"], "\(daemon.log())")
        #expect(ConfigurationTests.defaultDuration(bus) == "t 45000000")
        let same = busctl(
            bus, "call", RestBus.name, RestBus.managerPath, RestBus.managerInterface, ManagerMember.reload)
        #expect(same.succeeded && same.output == "as 0", "\(same)")

        try config.write("default_duration = 30\nmax_timers = \"many\"\n")
        var refusal: DBusError?
        do {
            _ = try client.reload()
        } catch .refused(let error) {
            refusal = error
        }
        #expect(refusal?.name == RestErrorName.invalidConfiguration, "\(String(describing: refusal))")
        #expect(
            refusal?.message
                == "\(config.file):2: max_timers: expected a whole number from 1 to 10000, found a string; \(Self.notReloaded)"
        )
        #expect(ConfigurationTests.defaultDuration(bus) == "t 45000000", "default_duration = 45 still holds")
        try client.start(id: "one", durationUSec: 60_000_000)
        #expect(restctl(bus, "start", "10", "--id", "two").status == 1, "max_timers = 1 still holds")
        try daemon.restd.waitForLog(containing: Self.notReloaded)
    }

    @Test("restctl reload prints the keys that changed or that nothing did; a wrong file: one line, status 1")
    func restctlReload() throws {
        let daemon = try RunningDaemon()
        let (bus, config) = (daemon.bus, daemon.config)

        try config.write("[notifications]\nurgency = \"normal\"\n[sound]\ncues = 2\n")
        let changed = restctl(bus, "reload")
        #expect(changed.succeeded && changed.stdout == "changed: notifications.urgency, sound.cues\n", "\(changed)")
        let same = restctl(bus, "reload")
        #expect(same.succeeded && same.stdout == "nothing changed\n", "\(same)")

        try config.write("# restd\n[notifications]\nurgency = \"loud\"\n")
        let refused = restctl(bus, "reload")
        #expect(refused.status == 1 && refused.stdout.isEmpty, "\(refused)")
        #expect(
            refused.stderr
                == "restctl: \(config.file):3: notifications.urgency: \"loud\" is not one of \"low\", \"normal\", "
                + "\"critical\"; \(Self.notReloaded)\n", "\(refused)")
        // The refused file changed nothing: the good one again is no change.
        try config.write("[notifications]\nurgency = \"normal\"\n[sound]\ncues = 2\n")
        #expect(restctl(bus, "reload").stdout == "nothing changed\n")
    }
}
