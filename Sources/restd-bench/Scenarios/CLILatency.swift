import Clocks
import ProcessHarness
import RestProtocol

/// Scenario 5: wall time of one CLI read of a timer, from spawn to exit, for restctl and
/// for the generic tools, alternated in random order round after round.
enum CLILatency {
    static func run(_ context: BenchContext) throws -> [Metric] {
        let rounds = context.size(60, smoke: 3)

        let stage = try context.stage()
        try stage.startRestd()
        let client = try stage.client()
        try client.manager(
            ManagerMember.start, [.string("cli"), .uint64(3_600_000_000), .vardict(["label": .string("Squat")])])
        let path = RestBus.timerPath(id: "cli")
        let address = stage.bus.address
        let environment = ChildEnvironment.make(["DBUS_SESSION_BUS_ADDRESS": address])

        struct Tool {
            let name: String
            let executable: String
            let arguments: [String]
            var seconds: [Double] = []
        }
        var tools = [
            Tool(
                name: "restctl status --json", executable: context.restctl,
                arguments: ["status", "--json", "--id", "cli"])
        ]
        if let busctl = which("busctl") {
            tools.append(
                Tool(
                    name: "busctl get-property", executable: busctl,
                    arguments: [
                        "--address=\(address)", "get-property", RestBus.name, path, RestBus.timerInterface,
                        TimerProperty.endsAtUSec,
                    ]))
        }
        if let gdbus = which("gdbus") {
            tools.append(
                Tool(
                    name: "gdbus call (GetAll)", executable: gdbus,
                    arguments: [
                        "call", "--address", address, "--dest", RestBus.name, "--object-path", path,
                        "--method", "org.freedesktop.DBus.Properties.GetAll", RestBus.timerInterface,
                    ]))
        }
        if let dbusSend = which("dbus-send") {
            tools.append(
                Tool(
                    name: "dbus-send (Get)", executable: dbusSend,
                    arguments: [
                        "--bus=\(address)", "--print-reply", "--dest=\(RestBus.name)", path,
                        "org.freedesktop.DBus.Properties.Get",
                        "string:\(RestBus.timerInterface)", "string:\(TimerProperty.endsAtUSec)",
                    ]))
        }
        // Each must work before it is timed (and this first run warms the page cache).
        for tool in tools {
            guard let output = captureOutput(tool.executable, tool.arguments, environment: environment), !output.isEmpty
            else {
                throw BenchError(
                    "\(tool.name) did not read the timer: \(tool.executable) \(tool.arguments.joined(separator: " "))")
            }
        }
        for _ in 0..<rounds {
            for i in tools.indices.shuffled() {
                let started = KernelClock.monotonicSeconds
                let child = try ChildProcess(
                    executable: tools[i].executable, arguments: tools[i].arguments,
                    environment: environment)
                let status = child.waitBlocking().status
                let elapsed = KernelClock.monotonicSeconds - started
                guard status == 0 else { throw BenchError("\(tools[i].name) exited with status \(status)") }
                tools[i].seconds.append(elapsed)
            }
        }

        let restctl = tools[0]
        let busctl = tools.first { $0.name.hasPrefix("busctl") }
        let restctlMedian = median(restctl.seconds) * 1000
        let busctlMedian = busctl.map { median($0.seconds) * 1000 }
        let dbusSendMedian = tools.first { $0.name.hasPrefix("dbus-send") }.map { median($0.seconds) * 1000 }
        var metrics: [Metric] = []
        for tool in tools {
            guard let summary = Summary(tool.seconds.map { $0 * 1000 }) else { continue }
            let isRestctl = tool.name == restctl.name
            var metric = Metric(
                5, tool.name, "median \(fixed(summary.p50)) ms, p90 \(fixed(summary.p90)) ms",
                values: summary.values.msKeys, note: "\(rounds) runs, alternated")
            if isRestctl, let busctlMedian {
                let ratio = restctlMedian / busctlMedian
                metric.baseline = "\(fixed(ratio)) × busctl's median"
                metric.target = "no slower than busctl (≤ 1.00 ×); stretch ≤ 1.5 × dbus-send"
                metric.verdict = Verdict(ratio <= 1.0)
                metric.values["ratio_to_busctl"] = ratio
                if let dbusSendMedian {
                    let toDBusSend = restctlMedian / dbusSendMedian
                    metric.baseline! += ", \(fixed(toDBusSend)) × dbus-send's"
                    metric.values["ratio_to_dbus_send"] = toDBusSend
                }
            } else if !isRestctl {
                metric.baseline = "restctl / this: \(fixed(restctlMedian / max(summary.p50, 1e-9)))"
            }
            metrics.append(metric)
        }
        return metrics
    }
}
