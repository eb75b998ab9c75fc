import DBusKit
import Foundation
import ProcessHarness
import RestProtocol

/// A restd from before History.SetRows, as one still running after an upgrade answers: a
/// python-dbusmock object that owns io.restd.Rest1 and serves only History.Sets (its reply given
/// as Python), refusing every other method with UnknownMethod.
final class OldRestd {
    private let child: ChildProcess
    private let work: TempDirectory

    init(bus: any BusEndpoint, setsReply python: String) throws {
        work = try TempDirectory(prefix: "restd-old")
        let logPath = work.path("mock.log")
        let log = try openLogFile(logPath)
        defer { close(log) }
        let names = try SignalWatcher.nameOwner(RestBus.name, bus: bus)
        child = try ChildProcess(
            executable: NotificationServer.python,
            arguments: ["-m", "dbusmock", "--session", RestBus.name, RestBus.historyPath, RestBus.historyInterface],
            environment: ChildEnvironment.make(["DBUS_SESSION_BUS_ADDRESS": bus.address, "PYTHONUNBUFFERED": "1"]),
            stdout: log, stderr: log)
        do {
            let owner = try names.waitForOwner(child, "the old restd") {
                (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            }
            let control = try Connection.open(address: bus.address)
            let message = try Message.methodCall(
                destination: owner, path: RestBus.historyPath, interface: NotificationServer.mockInterface,
                member: "AddMethod")
            try message.append([
                .string(""), .string(HistoryMember.sets), .string("ttu"), .string("aa{sv}"), .string(python),
            ])
            _ = try control.callBlocking(message, timeoutMilliseconds: 30_000)
        } catch {
            child.killAndReap()
            throw error
        }
    }

    deinit {
        child.killAndReap()
    }
}
