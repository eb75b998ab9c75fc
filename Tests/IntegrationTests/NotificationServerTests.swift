import DBusKit
import Foundation
import ProcessHarness
import RestClient
import RestProtocol
import Testing

/// Whether a notification server is there to show "Rest over": the Manager's NotificationServer,
/// `restctl status` (a note, and `notification_server` in --json), and `restctl start` and `set`
/// (a note once each time the server goes missing).
@Suite("Notification server presence", .serialized)
struct NotificationServerTests {
    static let note = "restctl: \(NotificationServerNote.sentence)\n"

    /// NotificationServer as busctl reads it: `s "missing"`.
    static func property(_ bus: TestBus) -> String {
        busctl(
            bus, "get-property", RestBus.name, RestBus.managerPath, RestBus.managerInterface,
            ManagerProperty.notificationServer
        ).output
    }

    static func waitForChange(_ watcher: SignalWatcher, to value: String) throws {
        try watcher.waitFor("NotificationServer \(value)") {
            $0.member == "PropertiesChanged"
                && $0.changedProperties[ManagerProperty.notificationServer] == .string(value)
        }
    }

    @Test("no server: status notes it every time, start and set once; a server coming and leaving is followed")
    func missingServer() throws {
        let bus = try TestBus()
        let watcher = try SignalWatcher.restd(bus: bus)
        let daemon = try RunningDaemon(bus: bus)
        #expect(Self.property(bus) == "s \"missing\"")

        // A rest without a notification needs no word, and leaves it for the next start.
        let quiet = restctl(bus, "start", "600", "--no-notify")
        #expect(quiet.succeeded && quiet.stderr.isEmpty, "\(quiet)")
        let first = restctl(bus, "start", "600")
        #expect(first.succeeded && first.stdout.hasPrefix("default  running"), "\(first)")
        #expect(first.stderr == Self.note, "\(first)")
        // Once: restd keeps count, for every client and every run of restctl.
        let second = restctl(bus, "start", "600")
        #expect(second.succeeded && second.stderr.isEmpty, "\(second)")
        let set = restctl(bus, "set", "--exercise", "Squat", "--id", "squat")
        #expect(set.succeeded && set.stderr.isEmpty, "\(set)")

        // status says it every time, and --json carries it.
        for _ in 1...2 {
            let status = restctl(bus, "status")
            #expect(status.succeeded && status.stdout.hasPrefix("default  running"), "\(status)")
            #expect(status.stderr == Self.note, "\(status)")
        }
        let json = restctl(bus, "status", "--json")
        #expect(json.stdout.hasSuffix(",\"notification_server\":\"missing\"}\n"), "\(json)")
        // No timer, no rest to be told of: restd's sentence alone.
        let none = restctl(bus, "status", "--json", "--id", "nothing")
        #expect(none.stdout == "null\n" && none.stderr == "restctl: no timer \"nothing\"\n", "\(none)")

        // A server comes: restd hears it from the bus, and the note goes.
        let server = try NotificationServer(bus: bus)
        try Self.waitForChange(watcher, to: "running")
        let running = restctl(bus, "status", "--json")
        #expect(running.stdout.hasSuffix(",\"notification_server\":\"running\"}\n"), "\(running)")
        #expect(running.stderr.isEmpty, "\(running)")
        #expect(restctl(bus, "start", "600").stderr.isEmpty)

        // It leaves: missing again, and the next start says so once more.
        server.kill()
        try Self.waitForChange(watcher, to: "missing")
        #expect(restctl(bus, "start", "600").stderr == Self.note)
        #expect(restctl(bus, "start", "600").stderr.isEmpty)
        #expect(daemon.restd.log().contains("no notification server is running on the session bus"))
    }

    @Test(
        "a server the bus can start: activatable, and no note; one that fails to start is missing after the first try")
    func activatableServer() throws {
        let services = try TempDirectory(prefix: "restd-svc")
        try services.write(
            "org.freedesktop.Notifications.service",
            """
            [D-BUS Service]
            Name=org.freedesktop.Notifications
            Exec=/bin/false

            """)
        let bus = try TestBus(serviceDirectories: [services.path])
        let watcher = try SignalWatcher.restd(bus: bus)
        let daemon = try RunningDaemon(bus: bus)
        #expect(Self.property(bus) == "s \"activatable\"")
        // Without sound: the end of a rest that rings tries the sound server, which is not here
        // either, and its own note would stand beside this one.
        let start = restctl(bus, "start", "1", "--id", "short", "--no-sound")
        #expect(start.succeeded && start.stderr.isEmpty, "\(start)")
        #expect(restctl(bus, "status", "--id", "short").stderr.isEmpty)

        // The expiry's notification makes the bus start the server, which fails.
        try Self.waitForChange(watcher, to: "missing")
        #expect(daemon.restd.log().contains("and starting one failed"), "\(daemon.restd.log())")
        #expect(restctl(bus, "start", "600").stderr == Self.note)
    }

    @Test("restd activated by restctl start itself knows before that call whether a server is there")
    func knownBeforeTheFirstCall() throws {
        let activating = try ActivatingBus()
        let bus = activating.bus
        defer { withExtendedLifetime(activating) {} }
        let start = restctl(bus, "start", "600")
        #expect(start.succeeded, "\(start)\n--- bus log:\n\(bus.log())")
        #expect(start.stderr == Self.note, "\(start)")
    }
}
