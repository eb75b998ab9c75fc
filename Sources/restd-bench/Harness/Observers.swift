import CDBus
import Clocks
import DBusKit
import Glibc

/// A connection on a thread of its own that records the signals its match rules bring, with
/// the CLOCK_REALTIME time of the read that brought them in. Messages are only queued while
/// recording and read into values when it stops, so a burst is timed as it arrives, not as
/// it is parsed.
final class SignalRecorder: Sendable {
    struct Record: Sendable {
        /// CLOCK_REALTIME ns right after the read that brought the message in.
        let arrivalNSec: Int64
        let message: ReceivedMessage
    }

    private struct State {
        var ready = false
        var setupError: String?
        /// Signals so far, by member name.
        var counts: [String: Int] = [:]
        var stopRequested = false
        var records: [Record]?
    }

    private let state = Locked(State())

    /// Connects, adds `matches`, runs `setup` on the new connection (a Subscribe, say), and
    /// returns once the recorder listens.
    init(address: String, matches: [String], setup: @escaping @Sendable (BusClient) throws -> Void = { _ in }) throws {
        let state = self.state
        _ = BenchThread(name: "signal recorder") {
            let client: BusClient
            do {
                client = try BusClient(address: address)
                for rule in matches { try client.connection.addMatch(rule) }
                try setup(client)
            } catch {
                state.withLock {
                    $0.setupError = "\(error)"; $0.ready = true
                }
                return
            }
            state.withLock { $0.ready = true }
            var queued: [(Int64, OpaquePointer)] = []
            queued.reserveCapacity(4096)
            while !state.withLock({ $0.stopRequested }) {
                guard dbus_connection_read_write(client.raw, 50) != 0 else { break }
                let now = KernelClock.nanoseconds(CLOCK_REALTIME)
                var arrived: [String: Int] = [:]
                while let message = dbus_connection_pop_message(client.raw) {
                    let interface = dbus_message_get_interface(message).map { String(cString: $0) }
                    if dbus_message_get_type(message) == CDBUS_MESSAGE_TYPE_SIGNAL, interface != "org.freedesktop.DBus"
                    {
                        queued.append((now, message))
                        let member = dbus_message_get_member(message).map { String(cString: $0) } ?? ""
                        arrived[member, default: 0] += 1
                    } else {
                        dbus_message_unref(message)
                    }
                }
                if !arrived.isEmpty {
                    state.withLock { $0.counts.merge(arrived, uniquingKeysWith: +) }
                }
            }
            let records = queued.map { time, message in
                defer { dbus_message_unref(message) }
                return Record(arrivalNSec: time, message: ReceivedMessage(message))
            }
            state.withLock { $0.records = records }
        }
        state.wait(timeout: 30) { $0.ready }
        if let error = state.withLock({ $0.setupError }) { throw BenchError("signal recorder: \(error)") }
    }

    /// Signals named `member` recorded so far.
    func count(_ member: String) -> Int { state.withLock { $0.counts[member] ?? 0 } }

    /// Waits until `count` signals named `member` arrived; false after `timeout` seconds.
    @discardableResult
    func wait(for member: String, count: Int, timeout: Double) -> Bool {
        state.wait(timeout: timeout) { ($0.counts[member] ?? 0) >= count }
    }

    /// Stops recording and returns every record, oldest first.
    func stop() -> [Record] {
        state.withLock { $0.stopRequested = true }
        state.wait(timeout: 60) { $0.records != nil || $0.setupError != nil }
        return state.withLock { $0.records ?? [] }
    }
}

/// A minimal org.freedesktop.Notifications server on the bench's bus (DBusKit's
/// ObjectServer): GetCapabilities, GetServerInformation, Notify returning increasing ids,
/// CloseNotification. It records when each Notify arrived (CLOCK_REALTIME, at the read
/// that brought it in) and what it said.
final class FakeNotificationServer: Sendable {
    struct Notification: Sendable {
        let arrivalNSec: Int64
        let id: UInt32
        let appName: String
        let summary: String
        let body: String
        let hints: [String: DBusValue]
    }

    private struct State {
        var ready = false
        var setupError: String?
        var stopRequested = false
        var notifications: [Notification] = []
        var finished = false
    }

    private let state = Locked(State())

    init(address: String) throws {
        let state = self.state
        _ = BenchThread(name: "notification server") {
            // Only this thread touches the connection, the server and `batchArrival`.
            let client: BusClient
            let server: ObjectServer
            var batchArrival: Int64 = 0
            var nextID: UInt32 = 0
            do {
                client = try BusClient(address: address)
                server = try ObjectServer(connection: client.connection)
                server.export(
                    path: "/org/freedesktop/Notifications",
                    interfaces: [
                        ExportedInterface(
                            Self.interface,
                            call: { call throws(DBusKit.DBusError) in
                                switch call.member {
                                case "GetCapabilities":
                                    return [.strings(["actions", "body"])]
                                case "GetServerInformation":
                                    return [.string("restd-bench"), .string("restd"), .string("1"), .string("1.2")]
                                case "Notify":
                                    let a = call.arguments
                                    nextID += 1
                                    let replaces = a[1].uint64.map { UInt32(truncatingIfNeeded: $0) } ?? 0
                                    let id = replaces != 0 ? replaces : nextID
                                    let note = Notification(
                                        arrivalNSec: batchArrival, id: id, appName: a[0].string ?? "",
                                        summary: a[3].string ?? "", body: a[4].string ?? "",
                                        hints: a[6].vardictEntries ?? [:])
                                    state.withLock { $0.notifications.append(note) }
                                    return [.uint32(id)]
                                case "CloseNotification":
                                    server.emitSignal(
                                        path: "/org/freedesktop/Notifications", interface: Self.interface.name,
                                        name: "NotificationClosed", arguments: [call.arguments[0], .uint32(3)])
                                    return []
                                default:
                                    throw DBusKit.DBusError(.unknownMethod, "no method \(call.member)")
                                }
                            })
                    ])
                guard try client.connection.requestName("org.freedesktop.Notifications") == .primaryOwner else {
                    throw BenchError("org.freedesktop.Notifications is owned already")
                }
            } catch {
                state.withLock {
                    $0.setupError = "\(error)"; $0.ready = true
                }
                return
            }
            state.withLock { $0.ready = true }
            while !state.withLock({ $0.stopRequested }) {
                guard dbus_connection_read_write(client.raw, 50) != 0 else { break }
                batchArrival = KernelClock.nanoseconds(CLOCK_REALTIME)
                while dbus_connection_dispatch(client.raw) == DBUS_DISPATCH_DATA_REMAINS {}
            }
            client.connection.flush()
            // The handler holds the server: unexport to let both go.
            server.unexport(path: "/org/freedesktop/Notifications")
            client.connection.close()
            state.withLock { $0.finished = true }
        }
        state.wait(timeout: 30) { $0.ready }
        if let error = state.withLock({ $0.setupError }) { throw BenchError("notification server: \(error)") }
    }

    var count: Int { state.withLock { $0.notifications.count } }

    /// Waits until `count` notifications arrived; false after `timeout` seconds.
    @discardableResult
    func wait(count: Int, timeout: Double) -> Bool {
        state.wait(timeout: timeout) { $0.notifications.count >= count }
    }

    /// Stops serving; every notification received, oldest first.
    func stop() -> [Notification] {
        state.withLock { $0.stopRequested = true }
        state.wait(timeout: 30) { $0.finished || $0.setupError != nil }
        return state.withLock { $0.notifications }
    }

    static let interface = InterfaceDescription(
        name: "org.freedesktop.Notifications",
        methods: [
            .init("GetCapabilities", out: [.init("capabilities", .array(.string))]),
            .init(
                "Notify",
                in: [
                    .init("app_name", .string), .init("replaces_id", .uint32), .init("app_icon", .string),
                    .init("summary", .string), .init("body", .string), .init("actions", .array(.string)),
                    .init("hints", .dictionary(key: .string, value: .variant)), .init("expire_timeout", .int32),
                ], out: [.init("id", .uint32)]),
            .init("CloseNotification", in: [.init("id", .uint32)]),
            .init(
                "GetServerInformation",
                out: [
                    .init("name", .string), .init("vendor", .string), .init("version", .string),
                    .init("spec_version", .string),
                ]),
        ],
        signals: [
            .init("NotificationClosed", [.init("id", .uint32), .init("reason", .uint32)]),
            .init("ActionInvoked", [.init("id", .uint32), .init("action_key", .string)]),
        ])
}
