import CDBus
import Clocks
import DBusKit
import Glibc
import RestProtocol

/// A client connection of the bench, used from one thread: blocking calls (DBusKit) for
/// set-up and single timed calls, and a pipelined loop (raw libdbus) for load.
final class BusClient {
    let connection: Connection
    var raw: OpaquePointer { connection.raw }

    init(address: String) throws {
        do {
            connection = try Connection.open(address: address)
        } catch {
            throw BenchError("cannot connect to the bench's bus: \(error.message)")
        }
    }

    /// One blocking call; an error reply is thrown.
    @discardableResult
    func call(
        _ destination: String, _ path: String, _ interface: String, _ member: String,
        _ arguments: [DBusValue] = [], timeoutMilliseconds: Int32 = 120_000
    ) throws -> [DBusValue] {
        do {
            let message = try Message.methodCall(
                destination: destination, path: path, interface: interface, member: member)
            try message.append(arguments)
            return try connection.callBlocking(message, timeoutMilliseconds: timeoutMilliseconds).arguments()
        } catch {
            throw BenchError("\(interface).\(member) on \(destination) failed: \(error)")
        }
    }

    /// A call to restd's manager.
    @discardableResult
    func manager(_ member: String, _ arguments: [DBusValue]) throws -> [DBusValue] {
        try call(RestBus.name, RestBus.managerPath, RestBus.managerInterface, member, arguments)
    }

    struct PipelineResult {
        /// Replies (not errors) received before the end of the window.
        var answered = 0
        var errors = 0
        var firstError: String?
        var sent = 0
        /// The window (time-bound runs), or the time until the last reply (count-bound runs).
        var seconds = 0.0
        var rate: Double { Double(answered) / max(seconds, 1e-9) }
    }

    /// Keeps `window` calls in flight, each made by `next(i)` (the caller's message is
    /// released here), for `duration` seconds or until `count` calls have been answered.
    /// Only replies before the end of the window count; calls still in flight then are
    /// drained and not counted.
    func pipeline(
        window: Int, duration: Double? = nil, count: Int? = nil,
        _ next: (Int) -> OpaquePointer
    ) throws -> PipelineResult {
        precondition(duration != nil || count != nil)
        var result = PipelineResult()
        var inFlight = 0
        let limit = count ?? Int.max
        let start = KernelClock.monotonicSeconds
        let end = duration.map { start + $0 } ?? .infinity
        var now = start
        var lastReply = start
        var lastProgress = start
        while true {
            let sending = now < end && result.sent < limit
            if sending {
                while inFlight < window && result.sent < limit {
                    let message = next(result.sent)
                    guard dbus_connection_send(raw, message, nil) != 0 else {
                        dbus_message_unref(message)
                        throw BenchError("out of memory while sending")
                    }
                    dbus_message_unref(message)
                    result.sent += 1
                    inFlight += 1
                }
            } else if inFlight == 0 {
                break
            }
            guard dbus_connection_read_write(raw, 1000) != 0 else { throw BenchError("the bus connection closed") }
            now = KernelClock.monotonicSeconds
            while let message = dbus_connection_pop_message(raw) {
                switch dbus_message_get_type(message) {
                case CDBUS_MESSAGE_TYPE_METHOD_RETURN:
                    inFlight -= 1
                    if now < end { result.answered += 1 }
                    lastReply = now
                    lastProgress = now
                case CDBUS_MESSAGE_TYPE_ERROR:
                    inFlight -= 1
                    result.errors += 1
                    lastProgress = now
                    if result.firstError == nil {
                        let error = ReceivedMessage(message)
                        result.firstError = "\(error.errorName): \(error.arguments.first?.string ?? "")"
                    }
                default:
                    break  // signals (NameAcquired): not ours to count
                }
                dbus_message_unref(message)
            }
            if now - lastProgress > 60 { throw BenchError("no reply for 60 s with \(inFlight) call(s) in flight") }
        }
        result.seconds = duration ?? (lastReply - start)
        return result
    }

    /// Starts timers with pipelined Start calls; each label is the id in brackets, so that a
    /// notification can be traced back to its timer.
    func startTimers(_ timers: [(id: String, durationUSec: UInt64)], window: Int = 64) throws -> PipelineResult {
        let result = try pipeline(window: window, count: timers.count) { i in
            let timer = timers[i]
            return RawMessage.call(
                RestBus.name, RestBus.managerPath, RestBus.managerInterface, ManagerMember.start,
                [
                    .string(timer.id), .uint64(timer.durationUSec),
                    .vardict([StartOption.label: .string(Self.label(timer.id))]),
                ])
        }
        if result.errors > 0 {
            throw BenchError(
                "\(result.errors) of \(timers.count) Start calls failed; the first: \(result.firstError ?? "?")")
        }
        return result
    }

    /// Sends `message` (released here) and waits for its reply: the seconds from sending to
    /// the reply's arrival (read, not parsed) and the reply's size in bytes.
    func timedCall(
        _ message: OpaquePointer, timeoutMilliseconds: Int32 = 120_000
    ) throws -> (seconds: Double, bytes: Int) {
        let started = KernelClock.monotonicSeconds
        let reply = try rawReply(message, timeoutMilliseconds: timeoutMilliseconds)
        let seconds = KernelClock.monotonicSeconds - started
        defer { dbus_message_unref(reply) }
        return (seconds, (try? marshalled(reply) { $0.count }) ?? 0)
    }

    /// Sends `message` (released here), then loads its reply's bytes again and again with
    /// `dbus_message_demarshal`, which validates every byte as the dbus-daemon and any libdbus
    /// client do on receipt: the median ms of one load over `rounds`, and the reply's size.
    func replyLoad(_ message: OpaquePointer, rounds: Int) throws -> (milliseconds: Double, bytes: Int) {
        let reply = try rawReply(message, timeoutMilliseconds: 120_000)
        defer { dbus_message_unref(reply) }
        return try marshalled(reply) { bytes in
            var error = CDBus.DBusError()
            dbus_error_init(&error)
            defer { dbus_error_free(&error) }
            var times: [Double] = []
            for _ in 0..<rounds {
                let started = KernelClock.monotonicSeconds
                guard let loaded = dbus_message_demarshal(bytes.baseAddress, Int32(bytes.count), &error) else {
                    throw BenchError(
                        "libdbus refused the reply it sent: \(error.message.map { String(cString: $0) } ?? "")")
                }
                times.append((KernelClock.monotonicSeconds - started) * 1000)
                dbus_message_unref(loaded)
            }
            return (median(times), bytes.count)
        }
    }

    /// Sends `message` (released here) and waits for its reply, which the caller releases; an
    /// error reply is thrown.
    private func rawReply(_ message: OpaquePointer, timeoutMilliseconds: Int32) throws -> OpaquePointer {
        defer { dbus_message_unref(message) }
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let reply = dbus_connection_send_with_reply_and_block(raw, message, timeoutMilliseconds, &error) else {
            let name = error.name.map { String(cString: $0) } ?? "no reply"
            let text = error.message.map { String(cString: $0) } ?? ""
            throw BenchError("\(name): \(text)")
        }
        return reply
    }

    /// `body` run on `message`'s bytes as they go on the wire.
    private func marshalled<T>(
        _ message: OpaquePointer, _ body: (UnsafeBufferPointer<CChar>) throws -> T
    ) throws -> T {
        var buffer: UnsafeMutablePointer<CChar>?
        var length: Int32 = 0
        guard dbus_message_marshal(message, &buffer, &length) != 0, let buffer else {
            throw BenchError("out of memory")
        }
        defer { dbus_free(buffer) }
        return try body(UnsafeBufferPointer(start: buffer, count: Int(length)))
    }

    static func label(_ id: String) -> String { "[\(id)]" }

    /// Every timer's EndsAtUSec (CLOCK_REALTIME µs) and State, by id, from GetManagedObjects.
    func timers() throws -> [String: (endsAt: Int64, state: String)] {
        let reply = try call(
            RestBus.name, RestBus.managerPath, "org.freedesktop.DBus.ObjectManager", "GetManagedObjects")
        var timers: [String: (endsAt: Int64, state: String)] = [:]
        for object in reply.first?.dictEntries ?? [] {
            guard let interfaces = object.value.dictEntries,
                let timer = interfaces.first(where: { $0.key.string == RestBus.timerInterface })?.value.vardictEntries,
                let id = timer[TimerProperty.id]?.string
            else { continue }
            timers[id] = (Int64(timer[TimerProperty.endsAtUSec]?.uint64 ?? 0), timer[TimerProperty.state]?.string ?? "")
        }
        return timers
    }
}
