import DBusKit
import Foundation
import ProcessHarness

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A desktop notification server on a `TestBus`: python-dbusmock's `notification_daemon`
/// template, a real third-party peer that answers Notify (ids 1, 2, 3…) and records every call
/// it gets as an `org.freedesktop.DBus.Mock.MethodCalled` signal (see `MockCalls`).
///
/// Debian's python3-dbusmock imports only under /usr/bin/python3 (the `python3` on PATH may be
/// another interpreter), so that one is run explicitly.
///
///     let server = try NotificationServer(bus: bus, capabilities: ["body", "actions"])
///     try server.addMethod("Notify", in: "susssasa{sv}i", out: "u", code: "import os; os._exit(3)")
///
/// Killed (SIGKILL) when the object goes away. `@unchecked Sendable`: every stored property is
/// immutable after `init`, and process state lives in `ChildProcess` under its lock.
final class NotificationServer: @unchecked Sendable {
    static let name = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"
    static let interface = "org.freedesktop.Notifications"
    static let mockInterface = "org.freedesktop.DBus.Mock"
    static let python = "/usr/bin/python3"
    /// What a full-featured server such as GNOME Shell or dunst advertises, as far as restd cares.
    static let fullCapabilities = ["body", "body-markup", "actions", "sound"]

    let bus: any BusEndpoint
    let workDirectory: TempDirectory
    let logPath: String
    /// Its unique name on the bus, once it owns org.freedesktop.Notifications.
    let uniqueName: String
    private let child: ChildProcess
    private let control: Connection

    /// Starts the server and waits (up to `timeout` seconds) until this very process owns
    /// org.freedesktop.Notifications (it takes the name over from an earlier mock).
    init(
        bus: any BusEndpoint, capabilities: [String] = NotificationServer.fullCapabilities, timeout: Double = 30
    ) throws {
        let work = try TempDirectory(prefix: "restd-notify")
        let logPath = work.path("server.log")
        let log = try openLogFile(logPath)
        defer { close(log) }
        let parameters = "{\"capabilities\": \"\(capabilities.joined(separator: " "))\"}"
        // Watching before the server starts, so that the name changing hands cannot pass unseen.
        let names = try SignalWatcher.nameOwner(Self.name, bus: bus)
        let child = try ChildProcess(
            executable: Self.python,
            arguments: ["-m", "dbusmock", "--template", "notification_daemon", "-p", parameters],
            environment: ChildEnvironment.make(["DBUS_SESSION_BUS_ADDRESS": bus.address, "PYTHONUNBUFFERED": "1"]),
            stdout: log, stderr: log)
        let control: Connection
        let owner: String
        do {
            control = try Connection.open(address: bus.address)
            // The name may still belong to a server that was just killed: wait for this process.
            owner = try names.waitForOwner(child, "the notification server", timeout: timeout) {
                "--- its log:\n" + ((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "")
            }
        } catch {
            child.killAndReap()
            throw error
        }
        self.bus = bus
        self.workDirectory = work
        self.logPath = logPath
        self.uniqueName = owner
        self.child = child
        self.control = control
    }

    var pid: Int32 { child.pid }
    var isRunning: Bool { child.isRunning }
    var termination: Termination? { child.termination }

    /// What it printed (one line per call and emitted signal).
    func log() -> String {
        (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    }

    /// Waits (generous timeout) for the server to end by itself; how it ended, nil if it did not.
    func waitForExit(timeout: Double = 30) -> Termination? {
        child.wait(timeout: timeout)
    }

    /// SIGKILL and reap: the server is gone from the bus, as after a crash.
    func kill() {
        child.killAndReap()
    }

    deinit {
        child.killAndReap()
    }

    // MARK: Remote control (org.freedesktop.DBus.Mock)

    /// Adds or replaces a method of org.freedesktop.Notifications; `code` is Python run on each call.
    func addMethod(_ name: String, in inSignature: String, out outSignature: String, code: String) throws {
        try callMock(
            "AddMethod",
            [
                .string(Self.interface), .string(name), .string(inSignature),
                .string(outSignature), .string(code),
            ])
    }

    /// Makes the server emit one of its signals (ActionInvoked, NotificationClosed, ActivationToken).
    func emit(_ signal: String, signature: String, _ arguments: [DBusValue]) throws {
        try callMock(
            "EmitSignal",
            [
                .string(Self.interface), .string(signal), .string(signature),
                .array(.variant, arguments.map { .variant($0) }),
            ])
    }

    private func callMock(_ member: String, _ arguments: [DBusValue]) throws {
        let message = try Message.methodCall(
            destination: uniqueName, path: Self.path,
            interface: Self.mockInterface, member: member)
        try message.append(arguments)
        _ = try control.callBlocking(message, timeoutMilliseconds: 30_000)
    }
}

/// One call a mock server recorded (its MethodCalled signal).
struct MockCall: CustomStringConvertible {
    /// The unique name of the server that got the call.
    let server: String
    /// The object that got the call.
    let path: String
    let method: String
    /// The call's arguments, variants unwrapped.
    let arguments: [DBusValue]

    init?(_ message: Message) {
        guard message.isSignal(NotificationServer.mockInterface, "MethodCalled"), message.signature == "sav" else {
            return nil
        }
        let body = message.arguments()
        guard let method = body[0].string, let arguments = body[1].arrayElements else { return nil }
        self.server = message.sender ?? ""
        self.path = message.path ?? ""
        self.method = method
        self.arguments = arguments.map(\.unwrapped)
    }

    var description: String { "\(method)\(arguments)" }

    // For Notify calls: the arguments by name.
    var appName: String? { arguments.first?.string }
    var replacesID: UInt32? { if case .uint32(let id)? = arguments.dropFirst(1).first { id } else { nil } }
    var icon: String? { arguments.dropFirst(2).first?.string }
    var summary: String? { arguments.dropFirst(3).first?.string }
    var body: String? { arguments.dropFirst(4).first?.string }
    var actions: [String]? { arguments.dropFirst(5).first?.arrayElements?.compactMap(\.string) }
    var hints: [String: DBusValue]? { arguments.dropFirst(6).first?.vardictEntries?.mapValues(\.unwrapped) }
    var expireTimeout: Int32? { if case .int32(let value)? = arguments.dropFirst(7).first { value } else { nil } }
    /// For CloseNotification (declared with an `i` by the template, where the specification says `u`).
    var closedID: Int64? { arguments.first?.int64 }
}

/// Every call the mock notification servers on a bus record, in order.
final class MockCalls {
    let watcher: SignalWatcher

    init(bus: any BusEndpoint) throws {
        watcher = try SignalWatcher(
            bus: bus,
            rules: [
                "type='signal',interface='\(NotificationServer.mockInterface)',member='MethodCalled'"
            ])
    }

    /// The calls of `method` received so far.
    func calls(_ method: String) -> [MockCall] {
        watcher.received.compactMap(MockCall.init).filter { $0.method == method }
    }

    /// Waits until `count` calls of `method` have arrived (generous timeout); returns them all.
    @discardableResult
    func waitFor(_ method: String, count: Int = 1, timeout: Double = 30) throws -> [MockCall] {
        var seen = 0
        do {
            try watcher.waitFor(timeout: timeout) { message in
                if let call = MockCall(message), call.method == method { seen += 1 }
                return seen >= count
            }
        } catch {
            throw HarnessError.timedOut(
                "waiting for \(count) \(method) call(s); all calls: \(watcher.received.compactMap(MockCall.init))")
        }
        return calls(method)
    }
}
