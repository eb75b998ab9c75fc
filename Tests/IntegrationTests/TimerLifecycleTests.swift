import DBusKit
import Foundation
import ProcessHarness
import RestClient
import RestProtocol
import Testing

/// The timer contract on a real bus: through the project's client and through busctl and gdbus.
@Suite("Timer lifecycle", .serialized, .tags(.everyBus, .calendar))
struct TimerLifecycleTests {
    @Test("start through restd's client, read back through busctl")
    func startAndReadWithBusctl() throws {
        let daemon = try RunningDaemon()
        let path = try daemon.client.start(id: "squat", durationUSec: 90_000_000, label: "Squat", next: "Bench press")
        #expect(path == "/io/restd/Rest1/timer/squat")

        let read = busctl(
            daemon.bus, "get-property", RestBus.name, path, RestBus.timerInterface,
            "Label", "Next", "State", "DurationUSec", "Notify")
        #expect(read.succeeded, "\(read)")
        #expect(read.output == "s \"Squat\"\ns \"Bench press\"\ns \"running\"\nt 90000000\nb true", "\(read)")

        let tree = busctl(daemon.bus, "tree", RestBus.name)
        #expect(tree.stdout.contains("/io/restd/Rest1/timer/squat"), "\(tree)")
    }

    @Test("start through busctl, read back through restd's client; empty id means default")
    func startWithBusctl() throws {
        let daemon = try RunningDaemon()
        let start = busctl(
            daemon.bus, "call", RestBus.name, RestBus.managerPath, RestBus.managerInterface,
            "Start", "sta{sv}", "", "60000000", "1", "notify", "b", "false")
        #expect(start.output == "o \"/io/restd/Rest1/timer/default\"", "\(start)")
        let timer = try daemon.client.timer(id: "default")
        #expect(timer.state == "running")
        #expect(timer.durationUSec == 60_000_000)
        #expect(timer.notify == false)
        #expect(timer.endsAtUSec == timer.startedAtUSec + 60_000_000)
    }

    @Test("the warn_usec option is kept and read back as WarnUSec")
    func warnOption() throws {
        let daemon = try RunningDaemon()
        let start = busctl(
            daemon.bus, "call", RestBus.name, RestBus.managerPath, RestBus.managerInterface,
            "Start", "sta{sv}", "w", "60000000", "1", "warn_usec", "t", "10000000")
        #expect(start.succeeded, "\(start)")
        let read = busctl(
            daemon.bus, "get-property", RestBus.name, RestBus.timerPath(id: "w"), RestBus.timerInterface,
            "WarnUSec")
        #expect(read.output == "t 10000000", "\(read)")
        try daemon.client.start(id: "plain", durationUSec: 60_000_000)
        let plain = busctl(
            daemon.bus, "get-property", RestBus.name, RestBus.timerPath(id: "plain"),
            RestBus.timerInterface, "WarnUSec")
        #expect(plain.output == "t 0", "\(plain)")
    }

    @Test("pause freezes, resume runs on, adjust lengthens, restart runs the Start duration again")
    func pauseResumeAdjustRestart() throws {
        let daemon = try RunningDaemon()
        let client = daemon.client
        try client.start(id: "t", durationUSec: 60_000_000)
        try client.pause(id: "t")
        let paused = try client.timer(id: "t")
        #expect(paused.state == "paused")
        #expect(paused.endsAtUSec == 0)
        #expect(paused.remainingUSec > 0 && paused.remainingUSec <= 60_000_000)

        try client.pause(id: "t")  // idempotent
        #expect(try client.timer(id: "t") == paused)

        try client.adjust(id: "t", deltaUSec: 30_000_000)
        let adjusted = try client.timer(id: "t")
        #expect(adjusted.remainingUSec == paused.remainingUSec + 30_000_000)
        #expect(adjusted.durationUSec == 90_000_000)

        try client.resume(id: "t")
        let running = try client.timer(id: "t")
        #expect(running.state == "running")
        #expect(running.endsAtUSec > 0)

        try client.restart(id: "t")
        let restarted = try client.timer(id: "t")
        #expect(restarted.durationUSec == 60_000_000)
        #expect(restarted.state == "running")

        try client.cancel(id: "t")
        #expect(throws: ClientError.self) { try client.timer(id: "t") }
        #expect(try client.timers().isEmpty)
    }

    @Test("errors carry the contract's names, seen through gdbus")
    func errorNames() throws {
        let daemon = try RunningDaemon()
        func call(_ method: String, _ args: String...) -> CommandResult {
            gdbus(
                daemon.bus, "call",
                [
                    "--dest", RestBus.name, "--object-path", RestBus.managerPath,
                    "--method", "\(RestBus.managerInterface).\(method)",
                ] + args)
        }
        let cases: [(CommandResult, String)] = [
            (call("Pause", "nope"), "io.restd.Rest1.Error.NoSuchTimer"),
            (call("Start", "bad.id", "90000000", "{}"), "org.freedesktop.DBus.Error.InvalidArgs"),
            (
                call("Start", String(repeating: "a", count: 65), "90000000", "{}"),
                "org.freedesktop.DBus.Error.InvalidArgs"
            ),
            (call("Start", "x", "0", "{}"), "org.freedesktop.DBus.Error.InvalidArgs"),
            (call("Start", "x", "86400000001", "{}"), "org.freedesktop.DBus.Error.InvalidArgs"),
            (call("Start", "x", "90000000", "{'colour': <'red'>}"), "org.freedesktop.DBus.Error.InvalidArgs"),
            (call("Start", "x", "90000000", "{'label': <42>}"), "org.freedesktop.DBus.Error.InvalidArgs"),
            (
                call("Start", "x", "90000000", "{'label': <'\(String(repeating: "é", count: 129))'>}"),
                "org.freedesktop.DBus.Error.InvalidArgs"
            ),
            (call("Start", "x", "90000000", "{'next': <'bell\\u0007'>}"), "org.freedesktop.DBus.Error.InvalidArgs"),
            (call("Adjust", "x", "0"), "org.freedesktop.DBus.Error.InvalidArgs"),
            (
                call("Start", "x", "90000000", "{'warn_usec': <uint64 90000000>}"),
                "org.freedesktop.DBus.Error.InvalidArgs"
            ),
            (call("Start", "x", "90000000", "{'warn_usec': <10000000>}"), "org.freedesktop.DBus.Error.InvalidArgs"),
        ]
        for (result, name) in cases {
            #expect(!result.succeeded, "\(result)")
            #expect(result.stderr.contains(name), "\(result)")
        }
        // Nothing was created by the refused calls.
        #expect(try daemon.client.timers().isEmpty)
    }

    @Test("expired timers refuse pause and shortening, and +30 s runs them again")
    func expiredTimerRules() throws {
        let daemon = try RunningDaemon()
        let watcher = try SignalWatcher.restd(bus: daemon.bus)
        // Without sound: on a ringing timer these only silence it (RingingTests).
        try daemon.client.start(id: "short", durationUSec: 1_000_000, sound: false)
        let expired = try watcher.waitFor(where: { $0.member == "Expired" })
        let args = expired.arguments()
        #expect(args.first == .string("short"))
        #expect(args[1] == .objectPath("/io/restd/Rest1/timer/short"))
        let deadline = args[2].uint64 ?? 0
        let fired = args[3].uint64 ?? 0
        #expect(fired >= deadline)

        let timer = try daemon.client.timer(id: "short")
        #expect(timer.state == "expired")
        #expect(timer.expiredAtUSec == deadline)
        #expect(timer.remainingUSec == 0 && timer.endsAtUSec == 0)

        for refused in [
            { try daemon.client.pause(id: "short") }, { try daemon.client.resume(id: "short") },
            { try daemon.client.adjust(id: "short", deltaUSec: -1_000_000) },
        ] {
            #expect {
                try refused()
            } throws: { error in
                (error as? ClientError).map {
                    if case .refused(let e) = $0 { e.name == RestErrorName.invalidState } else { false }
                } ?? false
            }
        }

        try daemon.client.adjust(id: "short", deltaUSec: 30_000_000)
        let again = try daemon.client.timer(id: "short")
        #expect(again.state == "running")
        #expect(again.durationUSec == 30_000_000)
    }

    @Test("a negative adjust reaching zero expires the timer at once")
    func shorteningToZeroExpires() throws {
        let daemon = try RunningDaemon()
        let watcher = try SignalWatcher.restd(bus: daemon.bus)
        try daemon.client.start(id: "t", durationUSec: 60_000_000)
        try daemon.client.adjust(id: "t", deltaUSec: -60_000_000)
        #expect(try daemon.client.timer(id: "t").state == "expired")
        try watcher.waitFor(where: { $0.member == "Expired" && $0.arguments().first == .string("t") })
    }

    @Test("PropertiesChanged carries only what changed, and nothing for a no-op")
    func propertiesChangedOnlyForRealChanges() throws {
        let daemon = try RunningDaemon()
        let watcher = try SignalWatcher.restd(bus: daemon.bus)
        try daemon.client.start(id: "t", durationUSec: 60_000_000)
        try daemon.client.pause(id: "t")
        try daemon.client.pause(id: "t")  // no change: must emit nothing
        try daemon.client.resume(id: "t")

        // The timer's own: the Manager's (NotificationServer, once restd has looked) may come between.
        let path = RestBus.timerPath(id: "t")
        let pause = try watcher.waitFor(where: { $0.member == "PropertiesChanged" && $0.path == path })
        #expect(Set(pause.changedProperties.keys) == ["State", "EndsAtUSec", "RemainingUSec"])
        #expect(pause.changedProperties["State"] == .string("paused"))
        // Signals arrive in order: the next PropertiesChanged must already be the resume's.
        let next = try watcher.waitFor(where: { $0.member == "PropertiesChanged" && $0.path == path && $0 !== pause })
        #expect(next.changedProperties["State"] == .string("running"))
        #expect(next.changedProperties["RemainingUSec"] == nil, "remaining is unchanged by a resume")
    }

    @Test("InterfacesAdded on start, InterfacesRemoved on cancel, GetManagedObjects in between")
    func objectManager() throws {
        let daemon = try RunningDaemon()
        let watcher = try SignalWatcher.restd(bus: daemon.bus)
        try daemon.client.start(id: "a", durationUSec: 60_000_000)
        try daemon.client.start(id: "b", durationUSec: 60_000_000, label: "B")
        let added = try watcher.waitFor(where: { $0.member == "InterfacesAdded" })
        #expect(added.arguments().first == .objectPath("/io/restd/Rest1/timer/a"))
        #expect(try daemon.client.timers().map(\.id) == ["a", "b"])

        try daemon.client.start(id: "b", durationUSec: 30_000_000)  // replaced in place: no new object
        try daemon.client.cancel(id: "a")
        let removed = try watcher.waitFor(where: { $0.member == "InterfacesRemoved" })
        #expect(removed.arguments().first == .objectPath("/io/restd/Rest1/timer/a"))
        #expect(watcher.received.filter { $0.member == "InterfacesAdded" }.count == 2)
        let b = try daemon.client.timer(id: "b")
        #expect(b.durationUSec == 30_000_000 && b.label == "")
    }

    @Test("GetManagedObjects of more timers than one slice lists them all; a Cancel meanwhile follows the reply")
    func managedObjectsInSlices() throws {
        let daemon = try RunningDaemon()
        let count = 1_200  // restd writes 500 per turn of its loop: three slices
        for n in 0..<count { try daemon.client.start(id: "t\(n)", durationUSec: 600_000_000) }
        let connection = try Connection.open(address: daemon.bus.address)
        try connection.addMatch("type='signal',sender='\(RestdProcess.busName)',member='InterfacesRemoved'")
        var received: [Message] = []
        connection.addFilter { message in
            guard message.kind != .methodCall, message.member != "NameAcquired" else { return false }
            received.append(message)
            return true
        }
        let listing = try Message.methodCall(
            destination: RestdProcess.busName, path: "/io/restd/Rest1", interface: "org.freedesktop.DBus.ObjectManager",
            member: "GetManagedObjects")
        let cancel = try Message.methodCall(
            destination: RestdProcess.busName, path: "/io/restd/Rest1", interface: "io.restd.Rest1.Manager",
            member: "Cancel")
        try cancel.append(.string("t\(count - 1)"))  // the last in path order: in the last slice
        #expect(connection.send(listing) && connection.send(cancel))
        connection.flush()
        let deadline = Deadline(secondsFromNow: 60)
        while received.count < 3 && !deadline.hasPassed { _ = connection.readWriteDispatch(timeoutMilliseconds: 100) }
        try #require(received.count == 3, "\(received.map(\.kind))")

        // The reply first, then the signal and the reply of the Cancel it was written beside.
        #expect(received[0].replySerial == listing.serial && received[0].kind == .methodReturn)
        #expect(received[1].member == "InterfacesRemoved")
        #expect(received[2].replySerial == cancel.serial && received[2].kind == .methodReturn)
        // Applied in that order, they leave every timer but the cancelled one.
        func path(_ value: DBusValue?) -> String? {
            if case .objectPath(let path)? = value { path } else { nil }
        }
        let listed = Set((received[0].arguments().first?.dictEntries ?? []).compactMap { path($0.key) })
            .filter { $0.hasPrefix("/io/restd/Rest1/timer/") }
        let removed = path(received[1].arguments().first)
        #expect(removed == "/io/restd/Rest1/timer/t\(count - 1)")
        #expect(listed.subtracting([removed ?? ""]).count == count - 1)
        #expect(try daemon.client.timers().count == count - 1)
    }

    @Test("a second restd on the same bus refuses to start")
    func secondInstanceRefuses() throws {
        let daemon = try RunningDaemon()
        let second = try RestdSetup(bus: daemon.bus).launch()
        let status = try second.waitForExit()
        #expect(status != 0)
        #expect(second.log().contains("already owns"), "\(second.log())")
        #expect(daemon.restd.isRunning)
    }
}
