import Foundation
import Glibc
import ProcessHarness
import RestProtocol

/// Scenario 7: an idle restd with no timers: its memory, its start-up time, and the first
/// call through D-Bus activation (the bus starts restd on demand).
enum Footprint {
    static func run(_ context: BenchContext) throws -> [Metric] {
        let starts = context.size(10, smoke: 2)
        let activations = context.size(5, smoke: 1)
        let warmCalls = context.size(20, smoke: 3)

        // Start-up: the first start creates the state file; the later ones open it, as most do.
        let stage = try context.stage()
        var restd = try stage.startRestd()
        let firstStart = restd.startupSeconds * 1000
        var startupTimes: [Double] = []
        for _ in 1..<starts {
            restd = try stage.startRestd()
            startupTimes.append(restd.startupSeconds * 1000)
        }
        // Idle memory after a few calls, the way a desktop uses it.
        let client = try stage.client()
        try client.call(RestBus.name, RestBus.managerPath, "org.freedesktop.DBus.Peer", "Ping")
        try client.call(
            RestBus.name, RestBus.managerPath, "org.freedesktop.DBus.Properties", "Get",
            [.string(RestBus.managerInterface), .string("Version")])
        try client.call(RestBus.name, RestBus.managerPath, "org.freedesktop.DBus.ObjectManager", "GetManagedObjects")
        Clock.sleep(0.5)
        let rss = Proc.rssKiB(restd.pid) ?? 0
        let pss = Proc.pssKiB(restd.pid) ?? 0
        let split = Proc.rssSplitKiB(restd.pid) ?? (0, 0)
        guard let ownFile = Proc.mappedFileRSSKiB(restd.pid, file: context.restd) else {
            throw BenchError("restd's own file \(context.restd) is not among its mappings")
        }
        let threads = Proc.threadCount(restd.pid) ?? 0
        var warm: [Double] = []
        for _ in 0..<warmCalls {
            warm.append(try client.timedCall(versionCall()).seconds * 1000)
        }
        stage.stopRestd()

        // Activation: a bus that knows restd's service file, and no restd running.
        let services = try TempDirectory(prefix: "restd-bench-services")
        let activationStage = try context.stage(serviceDirectories: [services.path])
        try """
        [D-BUS Service]
        Name=\(RestBus.name)
        Exec=\(context.restd) --state-dir \(activationStage.stateDirectory)

        """.write(toFile: services.path("\(RestBus.name).service"), atomically: true, encoding: .utf8)
        try BusClient(address: activationStage.bus.address).call(
            "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ReloadConfig")
        var activated: [Double] = []
        for _ in 0..<activations {
            let caller = try activationStage.client()
            activated.append(try caller.timedCall(versionCall()).seconds * 1000)
            try stopActivated(caller)
        }

        let mib = { (kib: Int) in fixed(Double(kib) / 1024, 1) + " MiB" }
        let startup = Summary(startupTimes) ?? Summary([firstStart])!
        let activation = Summary(activated)!
        let warmSummary = Summary(warm)!
        return [
            Metric(
                7, "Idle RSS, restarted on its own state, no timers",
                "\(mib(rss)): \(mib(split.anonymous)) anonymous, \(mib(split.file)) file-backed "
                    + "(of them restd's own file \(mib(ownFile))); PSS \(mib(pss)); \(threads) thread\(threads == 1 ? "" : "s")",
                target: "≤ 12 MB, PSS ≤ 8 MB",
                verdict: Verdict(Double(rss) * 1024 <= 12e6 && Double(pss) * 1024 <= 8e6),
                values: [
                    "rss_kib": Double(rss), "rss_anon_kib": Double(split.anonymous), "rss_file_kib": Double(split.file),
                    "rss_own_file_kib": Double(ownFile), "pss_kib": Double(pss), "threads": Double(threads),
                ]),
            Metric(
                7, "Start-up to READY=1, no timers",
                "median \(fixed(startup.p50, 1)) ms, max \(fixed(startup.max, 1)) ms",
                baseline: "first start (creates the state file): \(fixed(firstStart, 1)) ms",
                target: "≤ 10 ms", verdict: Verdict(startup.p50 <= 10),
                values: startup.values.msKeys.merging(["first_ms": firstStart]) { a, _ in a },
                note: "\(startupTimes.count) starts"),
            Metric(
                7, "First call through D-Bus activation",
                "median \(fixed(activation.p50, 1)) ms, max \(fixed(activation.max, 1)) ms",
                baseline: "same call to a running restd: median \(fixed(warmSummary.p50, 2)) ms",
                values: activation.values.msKeys.merging(["warm_p50_ms": warmSummary.p50]) { a, _ in a },
                note: "\(activations) activations: Get Version with auto-start, restd stopped after each"),
        ]
    }

    static func versionCall() -> OpaquePointer {
        RawMessage.call(
            RestBus.name, RestBus.managerPath, "org.freedesktop.DBus.Properties", "Get",
            [.string(RestBus.managerInterface), .string("Version")])
    }

    /// Stops the restd the bus started, and waits until its name is gone.
    static func stopActivated(_ client: BusClient) throws {
        let reply = try client.call(
            "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
            "GetConnectionUnixProcessID", [.string(RestBus.name)])
        guard let pid = reply.first?.uint64 else { throw BenchError("no process id for \(RestBus.name)") }
        kill(pid_t(pid), SIGTERM)
        let gone = poll(timeout: 20) {
            let owned = try? client.call(
                "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                "NameHasOwner", [.string(RestBus.name)])
            return owned?.first?.bool == false && processGone(pid_t(pid))
        }
        if !gone { throw BenchError("the activated restd (pid \(pid)) did not stop") }
    }

    /// No such process, or a zombie waiting for its parent (the bus) to reap it.
    static func processGone(_ pid: pid_t) -> Bool {
        guard let stat = Proc.read("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return true }
        return stat[stat.index(after: close)...].dropFirst().first == "Z"
    }
}
