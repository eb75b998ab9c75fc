import DBusKit
import ProcessHarness
import RestClient
import RestProtocol
import Testing

/// The alarm at a rest's end as the bus and restctl see it: `Ringing` with PropertiesChanged,
/// and each way of stopping it. (What is heard is the sound suite's; the rules on the test clock
/// are RestCoreTests' RingingTests.)
@Suite struct RingingTests {
    /// Starts `id` for 1 s and waits until its alarm rings.
    private func ringing(_ daemon: NotifyingDaemon, _ id: String, sound: Bool? = nil) throws {
        try daemon.client.start(id: id, durationUSec: 1_000_000, sound: sound)
        try daemon.expired(id)
        try daemon.signals.waitFor("\(id) ringing") {
            $0.member == "PropertiesChanged" && $0.path == RestBus.timerPath(id: id)
                && $0.changedProperties["Ringing"] == .boolean(true)
        }
    }

    /// Waits for `id`'s Ringing to become false.
    private func quiet(_ daemon: NotifyingDaemon, _ id: String) throws {
        try daemon.signals.waitFor("\(id) quiet") {
            $0.member == "PropertiesChanged" && $0.path == RestBus.timerPath(id: id)
                && $0.changedProperties["Ringing"] == .boolean(false)
        }
    }

    @Test("a rest that ends rings: Ringing true, in status, and Silence() on the timer stops it")
    func silenceOnTheTimerObject() throws {
        let daemon = try NotifyingDaemon()
        try ringing(daemon, "squat")
        let get = busctl(
            daemon.bus, "get-property", RestBus.name, RestBus.timerPath(id: "squat"), RestBus.timerInterface,
            "Ringing")
        #expect(get.stdout == "b true\n", "\(get)")
        let status = daemon.daemon.run("status", "--id", "squat")
        #expect(status.stdout.contains("  ringing"), "\(status)")
        let json = daemon.daemon.run("status", "--id", "squat", "--json")
        #expect(json.stdout.contains(#""sound":true,"ringing":true"#), "\(json)")

        let call = busctl(
            daemon.bus, "call", RestBus.name, RestBus.timerPath(id: "squat"), RestBus.timerInterface, "Silence")
        #expect(call.succeeded, "\(call)")
        try quiet(daemon, "squat")
        #expect(try daemon.client.timer(id: "squat").state == "expired")
        // Silencing what does not ring changes nothing and is no error.
        #expect(daemon.daemon.run("silence", "--id", "squat").succeeded)
        #expect(daemon.daemon.run("silence", "--id", "nosuch").status == 1)
    }

    @Test("restctl silence without --id silences every ringing timer")
    func silenceAll() throws {
        let daemon = try NotifyingDaemon()
        try ringing(daemon, "a")
        try ringing(daemon, "b")
        let result = daemon.daemon.run("silence")
        #expect(result.succeeded && result.stdout.isEmpty, "\(result)")
        try quiet(daemon, "a")
        try quiet(daemon, "b")
        #expect(try daemon.client.timers().allSatisfy { !$0.ringing })
    }

    @Test("dismissing Rest over (NotificationClosed reason 2) silences; expiring (1) does not")
    func dismissedNotification() throws {
        let daemon = try NotifyingDaemon()
        try ringing(daemon, "t")
        try ringing(daemon, "u")
        // The mock server numbers its notifications 1, 2, …: "Rest over" of t, then of u.
        try daemon.calls.waitFor("Notify", count: 2)
        // t's closed by the server on its own (reason 1, expired): its alarm goes on. Then u's
        // dismissed: from the same sender, in order, so once u is quiet t's close was handled.
        try daemon.serverEmits("NotificationClosed", "uu", .uint32(1), .uint32(1))
        try daemon.serverEmits("NotificationClosed", "uu", .uint32(2), .uint32(2))
        try quiet(daemon, "u")
        #expect(try daemon.client.timer(id: "t").ringing)
    }

    @Test("toggle on a ringing rest only silences it; the next command on it silences too")
    func toggleAndNextCommand() throws {
        let daemon = try NotifyingDaemon()
        try ringing(daemon, "default")
        let toggled = daemon.daemon.run("toggle")
        #expect(toggled.succeeded && toggled.stdout.hasPrefix("default  expired"), "\(toggled)")
        try quiet(daemon, "default")
        // The next toggle restarts it, as on any rest that is over.
        #expect(daemon.daemon.run("toggle").stdout.hasPrefix("default  running"))

        try ringing(daemon, "bench")
        let paused = daemon.daemon.run("pause", "--id", "bench")
        #expect(paused.succeeded, "a pause on a ringing rest silences it: \(paused)")
        try quiet(daemon, "bench")
        // Then refused, as on any rest that is over.
        #expect(daemon.daemon.run("pause", "--id", "bench").status == 1)
    }

    @Test("--no-sound: no Ringing; a ringing timer stays even with expired_retention = 0")
    func noSoundAndRetention() throws {
        let daemon = try NotifyingDaemon(config: "expired_retention = 0\n")
        let started = daemon.daemon.run("start", "1", "--id", "quiet", "--no-sound", "--json")
        #expect(started.stdout.contains(#""sound":false,"ringing":false"#), "\(started)")
        // Without sound nothing keeps it: gone at once.
        try daemon.expired("quiet")
        try daemon.signals.waitFor("quiet removed") {
            $0.member == "InterfacesRemoved" && $0.arguments().first == .objectPath(RestBus.timerPath(id: "quiet"))
        }
        try ringing(daemon, "loud")
        #expect(try daemon.client.timer(id: "loud").ringing)
        #expect(daemon.daemon.run("silence").succeeded)
        try daemon.signals.waitFor("loud removed once quiet") {
            $0.member == "InterfacesRemoved" && $0.arguments().first == .objectPath(RestBus.timerPath(id: "loud"))
        }
    }
}
