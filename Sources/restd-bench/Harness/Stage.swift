import Foundation
import Glibc
import ProcessHarness
import RestProtocol

/// What every scenario shares: where the binaries are, how big to make things, figures
/// earlier scenarios found.
final class BenchContext {
    let smoke: Bool
    /// restd and restctl, found next to restd-bench.
    let restd: String
    let restctl: String
    /// Whether `restd` is the one built next to the bench, not another build given with --restd.
    let restdIsOwnBuild: Bool
    /// This executable, for the 1 Hz tick baseline it runs as a child.
    let benchExecutable: String
    /// Scenario 1's Expired lateness p99 and floor p99 (ms), which scenario 6 compares with.
    var expiryP99: Double?
    var floorP99: Double?

    init(smoke: Bool, restd: String? = nil) throws {
        self.smoke = smoke
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            throw BenchError("cannot read /proc/self/exe")
        }
        benchExecutable = executable
        let directory = (executable as NSString).deletingLastPathComponent
        self.restd =
            restd.map { $0.hasPrefix("/") ? $0 : FileManager.default.currentDirectoryPath + "/" + $0 }
            ?? directory + "/restd"
        restctl = directory + "/restctl"
        restdIsOwnBuild = self.restd == directory + "/restd"
        for binary in [self.restd, restctl] where access(binary, X_OK) != 0 {
            throw BenchError("\(binary) was not found: build the whole package ('swift build')")
        }
    }

    /// The full size, or the tiny one of --smoke.
    func size<T>(_ full: T, smoke tiny: T) -> T { smoke ? tiny : full }

    /// A fresh private bus and state directory; restd is started by the scenario.
    func stage(serviceDirectories: [String] = []) throws -> Stage {
        try Stage(context: self, serviceDirectories: serviceDirectories)
    }
}

/// A private bus, a temporary work directory and (once started) restd on them, its state in
/// `stateDirectory`. restd is stopped before the bus goes away.
final class Stage {
    let bus: PrivateBus
    let work: TempDirectory
    let stateDirectory: String
    private let context: BenchContext
    private(set) var restd: RestdProcess?

    init(context: BenchContext, serviceDirectories: [String]) throws {
        self.context = context
        bus = try PrivateBus(serviceDirectories: serviceDirectories, prefix: "restd-bench-bus")
        work = try TempDirectory(prefix: "restd-bench")
        stateDirectory = try work.subdirectory("state")
    }

    deinit { stopRestd() }

    /// Starts restd (stopping the one running, if any) and waits for READY=1.
    @discardableResult
    func startRestd(systemBus: PrivateBus? = nil, environment: [String: String] = [:]) throws -> RestdProcess {
        stopRestd()
        let process = try RestdProcess(
            binary: context.restd, bus: bus, stateDirectory: stateDirectory, work: work,
            systemBus: systemBus, environment: environment)
        restd = process
        return process
    }

    func stopRestd() {
        guard let restd else { return }
        let status = restd.stop()
        if status != 0 {
            FileHandle.standardError.write(
                Data("restd-bench: restd exited with status \(status); its log:\n\(restd.log())\n".utf8))
        }
        self.restd = nil
    }

    func client() throws -> BusClient { try BusClient(address: bus.address) }
}

/// The match rule for restd's Expired signal.
let expiredMatch = "type='signal',interface='\(RestBus.managerInterface)',member='Expired'"
