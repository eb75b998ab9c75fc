import Clocks
import Foundation
import Glibc
import RestCore

/// Whether a figure meets its target. Figures without a target are `info`; `na` means it
/// could not be measured in this run (said why in the note).
enum Verdict: String, Codable, Sendable {
    case met, missed, info
    case na = "n/a"
    case failed

    init(_ met: Bool) { self = met ? .met : .missed }
}

/// One line of the table: a figure, the baseline measured in the same run, the target.
struct Metric: Codable, Sendable {
    var scenario: Int
    var name: String
    /// What the table shows: "p50 0.41 / p99 1.20 / max 3.05 ms".
    var result: String
    var baseline: String?
    var target: String?
    var verdict: Verdict
    /// Raw figures for the JSON file (units in their names: "p99_ms", "calls_per_s").
    var values: [String: Double]
    var note: String?

    init(
        _ scenario: Int, _ name: String, _ result: String, baseline: String? = nil, target: String? = nil,
        verdict: Verdict = .info, values: [String: Double] = [:], note: String? = nil
    ) {
        self.scenario = scenario
        self.name = name
        self.result = result
        self.baseline = baseline
        self.target = target
        self.verdict = verdict
        self.values = values
        self.note = note
    }
}

struct ScenarioReport: Codable, Sendable {
    var number: Int
    var title: String
    var seconds: Double
    /// 1-minute load average before and after: high values mean others were busy too.
    var loadBefore: Double
    var loadAfter: Double
    var metrics: [Metric]
    var error: String?
}

struct MachineInfo: Codable, Sendable {
    var cores: Int
    var cpuModel: String
    var kernel: String
    var swiftVersion: String
    var date: String
    var gitCommit: String
    var gitDirty: Bool
    /// "release" or "debug": how restd and the bench were built.
    var build: String
    var restd: String
    var loadAverageAtStart: Double

    static func read(restd: String) -> MachineInfo {
        let cpuinfo = Proc.read("/proc/cpuinfo") ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }.map { $0.trimmingCharacters(in: .whitespaces) }
        var name = utsname()
        uname(&name)
        func text<T>(_ field: T) -> String {
            withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        let swift = which("swift").flatMap { captureOutput($0, ["--version"]) }?
            .split(separator: "\n").first.map(String.init)
        let git = which("git")
        let commit = git.flatMap { captureOutput($0, ["rev-parse", "HEAD"]) }
        let dirty = git.flatMap { captureOutput($0, ["status", "--porcelain", "--untracked-files=no"]) }.map {
            !$0.isEmpty
        }
        #if DEBUG
        let build = "debug"
        #else
        let build = "release"
        #endif
        return MachineInfo(
            cores: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), cpuModel: model ?? "unknown",
            kernel: "\(text(name.sysname)) \(text(name.release)) \(text(name.machine))",
            swiftVersion: swift ?? "unknown", date: DateText.iso8601(usec: KernelClock.realtimeUSec),
            gitCommit: commit ?? "unknown", gitDirty: dirty ?? false, build: build, restd: restd,
            loadAverageAtStart: Proc.loadAverage())
    }
}

struct BenchReport: Codable, Sendable {
    var machine: MachineInfo
    var smoke: Bool
    var scenarios: [ScenarioReport]

    func writeJSON(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(self)
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        try data.write(to: URL(fileURLWithPath: path))
    }

    /// The table, as Markdown (readable in a terminal, pasted as is into docs/PERFORMANCE.md).
    func table() -> String {
        var rows: [[String]] = [["#", "Measure", "Result", "Baseline (same run)", "Target", "Verdict"]]
        for scenario in scenarios {
            if let error = scenario.error {
                rows.append([
                    "\(scenario.number)", scenario.title, "failed: \(error.split(separator: "\n").first ?? "")", "", "",
                    "failed",
                ])
            }
            for m in scenario.metrics {
                rows.append(["\(m.scenario)", m.name, m.result, m.baseline ?? "", m.target ?? "", m.verdict.rawValue])
            }
        }
        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            "| " + zip(cells, widths).map { $0 + String(repeating: " ", count: $1 - $0.count) }.joined(separator: " | ")
                + " |"
        }
        var out = [
            line(rows[0]), "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|",
        ]
        out += rows.dropFirst().map(line)
        return out.joined(separator: "\n")
    }
}
