import Foundation
import ProcessHarness

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `restctl watch` (or another long-running restctl command) in the background, its stdout and
/// stderr in files.
final class WatchProcess {
    let directory: TempDirectory
    let outputPath: String
    let errorPath: String
    let child: ChildProcess
    /// Lines already matched by a wait: each wait looks at the lines after them.
    private var consumed = 0

    init(bus: TestBus, arguments: [String] = [], command: String = "watch") throws {
        directory = try TempDirectory(prefix: "restctl-watch")
        outputPath = directory.path("stdout")
        errorPath = directory.path("stderr")
        let out = try openLogFile(outputPath)
        defer { close(out) }
        let err = try openLogFile(errorPath)
        defer { close(err) }
        child = try ChildProcess(
            executable: try BuildProducts.executable("restctl"), arguments: [command] + arguments,
            environment: ChildEnvironment.make(["DBUS_SESSION_BUS_ADDRESS": bus.address]),
            stdout: out, stderr: err)
    }

    /// Every complete line written so far.
    var lines: [String] {
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    func errors() -> String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

    var isRunning: Bool { child.isRunning }

    /// Waits for a line after the last one matched to satisfy `predicate`; returns it. Gives up
    /// early, with the output so far, if restctl ends first.
    @discardableResult
    func waitForLine(timeout: Double = 30, _ predicate: (String) -> Bool) throws -> String {
        let command = "restctl " + child.arguments.joined(separator: " ")
        var all: [String] = []
        var found: String?
        try waitUntil(
            "a new line from \(command)", timeout: timeout, interval: 0.005,
            givingUpIf: { child.termination.map { "\(command) \($0)" } },
            details: { "its output:\n\(all.joined(separator: "\n"))\nstderr:\n\(errors())" }
        ) {
            all = lines
            guard let index = all.indices.dropFirst(consumed).first(where: { predicate(all[$0]) }) else { return false }
            consumed = index + 1
            found = all[index]
            return true
        }
        return found!
    }

    func stop() { child.stop(grace: 5) }
}
