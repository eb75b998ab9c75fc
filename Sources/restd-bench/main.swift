import ArgumentParser
import Clocks
import Foundation
import Glibc

/// restd-bench: restd's figures, each next to a baseline measured in the same run.
struct RestdBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restd-bench",
        abstract: "Measure restd against baselines taken in the same run.",
        discussion: """
            Starts its own dbus-daemon and restd (the restd next to this executable) with a \
            temporary state directory, runs the scenarios, prints a table and writes JSON. \
            Scenarios: \(allScenarios.map { "\($0.number) \($0.title)" }.joined(separator: ", ")).
            """)

    @Flag(help: "Run every scenario at a tiny size (a check that the harness works, not a measurement).")
    var smoke = false

    @Option(help: ArgumentHelp("Run only these allScenarios.", valueName: "N,M"))
    var only: String?

    @Option(help: ArgumentHelp("Write the results here.", valueName: "path"))
    var json = "bench/results.json"

    @Option(
        help: ArgumentHelp(
            "Measure this restd instead of the one next to restd-bench (to compare builds).",
            valueName: "path"))
    var restd: String?

    @Flag(help: .hidden)
    var tickBaseline = false

    @Option(help: .hidden)
    var signalFloor: String?

    @Option(help: .hidden)
    var callFloor: String?

    func validate() throws {
        _ = try selection()
    }

    private func selection() throws -> [Int] {
        guard let only else { return allScenarios.map(\.number) }
        let numbers = only.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !numbers.isEmpty, numbers.allSatisfy({ $0 != nil && allScenarios.map(\.number).contains($0!) }) else {
            throw ValidationError(
                "--only takes scenario numbers 1–\(allScenarios.count) separated by commas, not \"\(only)\"")
        }
        return numbers.map { $0! }
    }

    func run() throws {
        if tickBaseline { TickBaseline.run() }
        if let signalFloor { SignalFloor.run(signalFloor) }
        if let callFloor { CallFloor.run(callFloor) }
        let context = try BenchContext(smoke: smoke, restd: restd)
        let machine = MachineInfo.read(restd: context.restd)
        print(
            "restd-bench\(smoke ? " --smoke" : ""): \(machine.cpuModel), \(machine.cores) cores, \(machine.kernel), "
                + "\(machine.build) build, load average \(fixed(machine.loadAverageAtStart))")
        var report = BenchReport(machine: machine, smoke: smoke, scenarios: [])
        let selected = try selection()
        for scenario in allScenarios where selected.contains(scenario.number) {
            print("[\(scenario.number)] \(scenario.title)…")
            fflush(nil)
            let loadBefore = Proc.loadAverage()
            let started = KernelClock.monotonicSeconds
            var metrics: [Metric] = []
            var failure: String?
            do {
                metrics = try scenario.run(context)
            } catch {
                failure = "\(error)"
                print("    failed: \(error)")
            }
            let entry = ScenarioReport(
                number: scenario.number, title: scenario.title, seconds: KernelClock.monotonicSeconds - started,
                loadBefore: loadBefore, loadAfter: Proc.loadAverage(), metrics: metrics, error: failure)
            for metric in metrics {
                print(
                    "    \(metric.name): \(metric.result)\(metric.verdict == .info ? "" : " [\(metric.verdict.rawValue)]")"
                )
            }
            print("    (\(fixed(entry.seconds, 1)) s, load average \(fixed(loadBefore)) → \(fixed(entry.loadAfter)))")
            fflush(nil)
            report.scenarios.append(entry)
        }
        print("")
        print(report.table())
        try report.writeJSON(to: json)
        print("\nResults written to \(json).")
        if report.scenarios.contains(where: { $0.error != nil }) {
            throw ExitCode.failure
        }
    }
}

RestdBench.main()
