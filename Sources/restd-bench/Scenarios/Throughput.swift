import CDBus
import DBusKit
import Glibc
import ProcessHarness
import RestProtocol

/// Scenario 3: calls per second answered with a window of calls in flight, for Live.Update
/// and for baselines with the same client: Peer.Ping to the dbus-daemon itself (the bus's
/// ceiling), Peer.Ping to restd (libdbus answers it inside restd's loop before any Swift code
/// runs: the ceiling of a call routed through restd), and Ping and the same Updates to the
/// call floor (`CallFloor`: a process that answers every call with an empty reply, no work of
/// restd's), whose ratio is what an Update costs more than a Ping before any server's work.
/// Rounds alternate the five.
enum Throughput {
    static func run(_ context: BenchContext) throws -> [Metric] {
        // Five short rounds rather than three long ones: a slow phase of the machine must then
        // fall on three rounds of a call to move its median, not on two.
        let seconds = context.size(3.0, smoke: 0.3)
        let rounds = context.size(5, smoke: 1)
        let window = 64

        let stage = try context.stage()
        let restd = try stage.startRestd()
        let client = try stage.client()
        let callFloor = try ChildProcess(
            executable: context.benchExecutable, arguments: ["--call-floor", stage.bus.address],
            environment: ChildEnvironment.make())
        defer { _ = callFloor.stop(grace: 5) }
        let floorOwned = poll(timeout: 20) {
            guard callFloor.isRunning else { return true }
            let owned = try? client.call(
                "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner",
                [.string(CallFloor.name)])
            return owned?.first?.bool == true
        }
        guard floorOwned, callFloor.isRunning else {
            throw BenchError(
                "the call floor process did not take its name\(callFloor.termination.map { " (\($0))" } ?? "")")
        }

        let pingBus = RawMessage.call(
            "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.Peer", "Ping")
        let pingRestd = RawMessage.call(RestBus.name, RestBus.managerPath, "org.freedesktop.DBus.Peer", "Ping")
        // Every update changes the heart rate, as a real producer's would (an update that
        // changes nothing is cheaper: restd publishes nothing for it).
        func updateCalls(to destination: String) -> [OpaquePointer] {
            (0..<64).map { i in
                RawMessage.call(
                    destination, RestBus.livePath, RestBus.liveInterface, LiveMember.update,
                    [.vardict(["heart_rate": .int32(Int32(60 + i))])])
            }
        }
        let updates = updateCalls(to: RestBus.name)
        let pingFloor = RawMessage.call(CallFloor.name, "/", "org.freedesktop.DBus.Peer", "Ping")
        let floorUpdates = updateCalls(to: CallFloor.name)
        defer {
            [pingBus, pingRestd, pingFloor].forEach { dbus_message_unref($0) }
            (updates + floorUpdates).forEach { dbus_message_unref($0) }
        }

        struct Kind {
            let name: String
            /// The process whose CPU share is recorded: restd (for Ping to the bus too, where it
            /// does nothing), or the call floor.
            let server: pid_t
            let next: (Int) -> OpaquePointer
            var rates: [Double] = []
            var serverCPU: [Double] = []
            var busCPU: [Double] = []
            var errors = 0
            var firstError: String?
        }
        func copy(_ template: OpaquePointer) -> OpaquePointer {
            guard let message = dbus_message_copy(template) else { fatalError("out of memory") }
            return message
        }
        var kinds = [
            Kind(name: "bus", server: restd.pid, next: { _ in copy(pingBus) }),
            Kind(name: "restd", server: restd.pid, next: { _ in copy(pingRestd) }),
            Kind(name: "update", server: restd.pid, next: { i in copy(updates[i % updates.count]) }),
            Kind(name: "floor ping", server: callFloor.pid, next: { _ in copy(pingFloor) }),
            Kind(
                name: "floor update", server: callFloor.pid,
                next: { i in copy(floorUpdates[i % floorUpdates.count]) }),
        ]
        // A short warm-up of both servers, so that the first measured round does not pay for
        // first calls.
        for calls in [updates, floorUpdates] {
            _ = try client.pipeline(window: window, duration: min(0.3, seconds)) { i in copy(calls[i % calls.count]) }
        }
        for _ in 0..<rounds {
            for k in kinds.indices {
                let serverMeter = CPUMeter(pid: kinds[k].server)
                let busMeter = CPUMeter(pid: stage.bus.pid)
                let result = try client.pipeline(window: window, duration: seconds, kinds[k].next)
                kinds[k].serverCPU.append(serverMeter.read().share)
                kinds[k].busCPU.append(busMeter.read().share)
                kinds[k].rates.append(result.rate)
                kinds[k].errors += result.errors
                kinds[k].firstError = kinds[k].firstError ?? result.firstError
            }
        }
        let bus = kinds[0]
        let ping = kinds[1]
        let update = kinds[2]
        let floorPing = kinds[3]
        let floorUpdate = kinds[4]
        let ratio = median(update.rates) / max(median(ping.rates), 1)
        let floorRatio = median(floorUpdate.rates) / max(median(floorPing.rates), 1)
        // restd's Updates against the same calls answered by a server that does no work, through
        // the same bus: what restd's own work (its throttled broadcasts included) costs the rate.
        let updateToFloorUpdate = median(update.rates) / max(median(floorUpdate.rates), 1)
        func cpu(_ kind: Kind) -> String {
            let server = kind.server == restd.pid ? "restd" : "call floor"
            return "\(server) CPU \(fixed(median(kind.serverCPU) * 100, 0)) %, "
                + "dbus-daemon \(fixed(median(kind.busCPU) * 100, 0)) %"
        }
        func values(_ kind: Kind) -> [String: Double] {
            let server = kind.server == restd.pid ? "restd_cpu_share" : "call_floor_cpu_share"
            var values: [String: Double] = [
                "calls_per_s": median(kind.rates), server: median(kind.serverCPU),
                "dbus_daemon_cpu_share": median(kind.busCPU), "errors": Double(kind.errors),
            ]
            for (i, rate) in kind.rates.enumerated() { values["round\(i + 1)_calls_per_s"] = rate }
            return values
        }
        let shape = "\(window) in flight, \(rounds) × \(fixed(seconds, 1)) s, median"
        var floorUpdateMetric = Metric(
            3, "Live.Update to the call floor (no server work)",
            "\(grouped(median(floorUpdate.rates))) calls/s; \(cpu(floorUpdate))",
            baseline: "\(fixed(floorRatio * 100, 0)) % of Ping to the call floor", values: values(floorUpdate),
            note: floorUpdate.errors == 0
                ? shape : "\(floorUpdate.errors) errors; the first: \(floorUpdate.firstError ?? "")")
        floorUpdateMetric.values["call_floor_update_to_ping_ratio"] = floorRatio
        var updateMetric = Metric(
            3, "Live.Update", "\(grouped(median(update.rates))) calls/s; \(cpu(update))",
            baseline: "\(fixed(ratio * 100, 0)) % of Ping to restd; the call floor's Update: "
                + "\(fixed(floorRatio * 100, 0)) % of its Ping; restd's Update: "
                + "\(fixed(updateToFloorUpdate * 100, 0)) % of the call floor's",
            target: "≥ 90 % of Ping to restd",
            verdict: update.errors == 0 ? Verdict(ratio >= 0.9) : .missed, values: values(update),
            note: update.errors == 0 ? shape : "\(update.errors) errors; the first: \(update.firstError ?? "")")
        updateMetric.values["ratio_to_ping_restd"] = ratio
        updateMetric.values["call_floor_update_to_ping_ratio"] = floorRatio
        updateMetric.values["ratio_to_call_floor_update"] = updateToFloorUpdate
        return [
            Metric(
                3, "Peer.Ping to dbus-daemon (the bus's ceiling)", "\(grouped(median(bus.rates))) calls/s; \(cpu(bus))",
                values: values(bus), note: shape),
            Metric(
                3, "Peer.Ping to restd (ceiling through restd's loop)",
                "\(grouped(median(ping.rates))) calls/s; \(cpu(ping))",
                baseline: "\(fixed(median(ping.rates) / max(median(bus.rates), 1) * 100, 0)) % of the bus's",
                values: values(ping), note: shape),
            Metric(
                3, "Peer.Ping to the call floor (a server that does nothing)",
                "\(grouped(median(floorPing.rates))) calls/s; \(cpu(floorPing))", values: values(floorPing),
                note: shape),
            floorUpdateMetric,
            updateMetric,
        ]
    }
}
