import CDBus

/// A private connection to a message bus. Single-threaded: use it from one thread only.
/// Without an event loop attached, only the blocking calls make progress.
public final class Connection {
    /// The libdbus connection, for glue code that drives it from an event loop.
    package let raw: OpaquePointer

    private var filters: [Filter] = []
    private var nextFilterToken = 0
    private var subtreeHandler: ((Message) -> Bool)?
    private var isClosed = false

    private init(raw: OpaquePointer) throws(DBusError) {
        self.raw = raw
        // A lost bus must reach our Disconnected filter, not _exit() the process.
        dbus_connection_set_exit_on_disconnect(raw, 0)
        let userData = Unmanaged.passUnretained(self).toOpaque()
        guard dbus_connection_add_filter(raw, connectionFilter, userData, nil) != 0 else {
            throw DBusError(.noMemory, "out of memory")
        }
    }

    /// Connects to the bus at `address` and registers (Hello), as a private connection.
    public static func open(address: String) throws(DBusError) -> Connection {
        guard DBusValidation.isValidString(address) else {
            throw DBusError(.invalidArgs, "bus address \"\(address.debugEscaped)\" is not valid")
        }
        let error = CErrorBox()
        guard let raw = dbus_connection_open_private(address, &error.raw) else {
            throw error.take(fallback: "cannot connect to \(address)")
        }
        let connection: Connection
        do {
            connection = try Connection(raw: raw)
        } catch {
            dbus_connection_close(raw)
            dbus_connection_unref(raw)
            throw error
        }
        guard dbus_bus_register(raw, &error.raw) != 0 else {
            throw error.take(fallback: "cannot register with the bus at \(address)")
        }
        return connection
    }

    /// Connects to the session bus (`DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus`)
    /// and never to the system bus.
    public static func session() throws(DBusError) -> Connection {
        try privateConnection(to: DBUS_BUS_SESSION, named: "session")
    }

    /// Connects to the system bus (`DBUS_SYSTEM_BUS_ADDRESS`, else the standard socket), as a
    /// private connection; for clients of system services such as BlueZ.
    public static func system() throws(DBusError) -> Connection {
        try privateConnection(to: DBUS_BUS_SYSTEM, named: "system")
    }

    private static func privateConnection(to bus: DBusBusType, named name: String) throws(DBusError) -> Connection {
        let error = CErrorBox()
        guard let raw = dbus_bus_get_private(bus, &error.raw) else {
            throw error.take(fallback: "cannot connect to the \(name) bus")
        }
        do {
            return try Connection(raw: raw)
        } catch {
            dbus_connection_close(raw)
            dbus_connection_unref(raw)
            throw error
        }
    }

    deinit {
        close()
        dbus_connection_unref(raw)
    }

    /// Closes the connection; later sends fail quietly.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        dbus_connection_close(raw)
    }

    /// This connection's unique name on the bus (":1.42").
    public var uniqueName: String { dbus_bus_get_unique_name(raw).map { String(cString: $0) } ?? "" }

    // MARK: Names and matches

    public enum RequestNameReply: Sendable, Equatable {
        case primaryOwner, inQueue, exists, alreadyOwner
    }

    /// Asks for a well-known name (blocking). `doNotQueue` makes it fail when taken.
    public func requestName(_ name: String, doNotQueue: Bool = true) throws(DBusError) -> RequestNameReply {
        guard DBusValidation.isValidBusName(name) else {
            throw DBusError(.invalidArgs, "\"\(name.debugEscaped)\" is not a valid bus name")
        }
        let error = CErrorBox()
        let flags = UInt32(doNotQueue ? DBUS_NAME_FLAG_DO_NOT_QUEUE : 0)
        let result = dbus_bus_request_name(raw, name, flags, &error.raw)
        if result < 0 { throw error.take(fallback: "cannot request the name \(name)") }
        switch result {
        case DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER: return .primaryOwner
        case DBUS_REQUEST_NAME_REPLY_IN_QUEUE: return .inQueue
        case DBUS_REQUEST_NAME_REPLY_ALREADY_OWNER: return .alreadyOwner
        default: return .exists
        }
    }

    /// Asks for a well-known name without waiting (needs an event loop): for a name owned and
    /// given back while serving, where a blocking round trip would hold up the callers. The bus
    /// handles requests and releases in the order they were sent, so a release sent after this
    /// needs no wait for its answer. `completion` gets the bus's answer.
    public func requestNameAsync(
        _ name: String, doNotQueue: Bool = true, completion: @escaping (Result<RequestNameReply, DBusError>) -> Void
    ) {
        let flags = UInt32(doNotQueue ? DBUS_NAME_FLAG_DO_NOT_QUEUE : 0)
        callBusDriver("RequestName", [.string(name), .uint32(flags)]) { result in
            completion(
                result.map { reply in
                    switch reply.arguments().first?.uint64 {
                    case UInt64(DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER): .primaryOwner
                    case UInt64(DBUS_REQUEST_NAME_REPLY_IN_QUEUE): .inQueue
                    case UInt64(DBUS_REQUEST_NAME_REPLY_ALREADY_OWNER): .alreadyOwner
                    default: .exists
                    }
                })
        }
    }

    /// Gives a well-known name back without waiting (needs an event loop); `completion` gets
    /// the bus's answer or error, if wanted.
    public func releaseNameAsync(_ name: String, completion: @escaping (Result<Void, DBusError>) -> Void = { _ in }) {
        callBusDriver("ReleaseName", [.string(name)]) { result in completion(result.map { _ in () }) }
    }

    /// A name request or release: refused here, before the bus, when the name is not one.
    private func callBusDriver(
        _ member: String, _ arguments: [DBusValue], completion: @escaping (Result<Message, DBusError>) -> Void
    ) {
        let name = arguments.first?.string ?? ""
        guard DBusValidation.isValidBusName(name) else {
            return completion(.failure(DBusError(.invalidArgs, "\"\(name.debugEscaped)\" is not a valid bus name")))
        }
        callBus(member, arguments, completion: completion)
    }

    /// Adds a match rule on the bus (blocking), so that matching signals reach the filters.
    public func addMatch(_ rule: String) throws(DBusError) {
        guard DBusValidation.isValidString(rule) else {
            throw DBusError(.invalidArgs, "match rule \"\(rule.debugEscaped)\" is not valid")
        }
        let error = CErrorBox()
        dbus_bus_add_match(raw, rule, &error.raw)
        if error.isSet { throw error.take(fallback: "cannot add match \(rule)") }
    }

    /// Removes a match rule without waiting for the bus's answer.
    public func removeMatchAsync(_ rule: String) {
        guard DBusValidation.isValidString(rule) else { return }
        dbus_bus_remove_match(raw, rule, nil)
    }

    // MARK: Sending

    /// Queues a message; it leaves when the event loop (or a flush) writes it.
    @discardableResult
    public func send(_ message: Message) -> Bool {
        guard !isClosed else { return false }
        return dbus_connection_send(raw, message.raw, nil) != 0
    }

    /// Writes everything queued (blocking).
    public func flush() {
        guard !isClosed else { return }
        dbus_connection_flush(raw)
    }

    /// Bytes queued for sending and not yet written.
    public var outgoingBytes: Int { Int(dbus_connection_get_outgoing_size(raw)) }

    /// Sends a method call and calls `completion` with the reply or error when it arrives, or after
    /// `timeoutMilliseconds` with org.freedesktop.DBus.Error.NoReply. Needs an event loop.
    public func call(
        _ message: Message, timeoutMilliseconds: Int32,
        completion: @escaping (Result<Message, DBusError>) -> Void
    ) {
        var pending: OpaquePointer?
        guard !isClosed, dbus_connection_send_with_reply(raw, message.raw, &pending, timeoutMilliseconds) != 0,
            let pending
        else {
            completion(.failure(DBusError(.disconnected, "not connected to the bus")))
            return
        }
        let box = Unmanaged.passRetained(PendingCallBox(completion)).toOpaque()
        guard dbus_pending_call_set_notify(pending, pendingCallNotify, box, pendingCallFree) != 0 else {
            Unmanaged<PendingCallBox>.fromOpaque(box).release()
            dbus_pending_call_cancel(pending)
            dbus_pending_call_unref(pending)
            completion(.failure(DBusError(.noMemory, "out of memory")))
            return
        }
        dbus_pending_call_unref(pending)
    }

    /// Calls `member` with `arguments` without waiting (needs an event loop), as
    /// `call(_:timeoutMilliseconds:completion:)`; a call that cannot be built (a name libdbus would
    /// refuse, a value that cannot be sent) fails at once, through `completion`.
    public func call(
        destination: String, path: String, interface: String, member: String, _ arguments: [DBusValue] = [],
        timeoutMilliseconds: Int32, completion: @escaping (Result<Message, DBusError>) -> Void
    ) {
        let message: Message
        do {
            message = try Message.methodCall(destination: destination, path: path, interface: interface, member: member)
            try message.append(arguments)
        } catch {
            return completion(.failure(error))
        }
        call(message, timeoutMilliseconds: timeoutMilliseconds, completion: completion)
    }

    /// Calls `member` of the bus driver (AddMatch, GetNameOwner…) without waiting, as
    /// `call(destination:path:interface:member:_:timeoutMilliseconds:completion:)`.
    public func callBus(
        _ member: String, _ arguments: [DBusValue] = [], timeoutMilliseconds: Int32 = 25_000,
        completion: @escaping (Result<Message, DBusError>) -> Void
    ) {
        call(
            destination: MessageBus.name, path: MessageBus.path, interface: MessageBus.interface, member: member,
            arguments, timeoutMilliseconds: timeoutMilliseconds, completion: completion)
    }

    /// Sends a method call and waits for its reply; an error reply is thrown.
    public func callBlocking(_ message: Message, timeoutMilliseconds: Int32) throws(DBusError) -> Message {
        let error = CErrorBox()
        guard let reply = dbus_connection_send_with_reply_and_block(raw, message.raw, timeoutMilliseconds, &error.raw)
        else { throw error.take(fallback: "no reply") }
        return Message(owning: reply)
    }

    /// Sends every call at once, then waits for their replies, in order: one round trip where
    /// `callBlocking` one after the other would make one each. An error reply is that call's failure.
    public func callBlocking(
        _ messages: [Message], timeoutMilliseconds: Int32
    ) -> [Result<Message, DBusError>] {
        var pendings: [OpaquePointer?] = []
        defer { for pending in pendings { if let pending { dbus_pending_call_unref(pending) } } }
        for message in messages {
            var pending: OpaquePointer?
            if isClosed || dbus_connection_send_with_reply(raw, message.raw, &pending, timeoutMilliseconds) == 0 {
                pending = nil
            }
            pendings.append(pending)
        }
        return pendings.map { pending in
            guard let pending else { return .failure(DBusError(.disconnected, "not connected to the bus")) }
            dbus_pending_call_block(pending)
            guard let reply = dbus_pending_call_steal_reply(pending) else {
                return .failure(DBusError(.noReply, "no reply"))
            }
            let message = Message(owning: reply)
            if let error = message.asError { return .failure(error) }
            return .success(message)
        }
    }

    /// Reads and dispatches incoming messages, waiting up to `timeoutMilliseconds` (-1: forever).
    /// For simple clients without an event loop. Returns false once disconnected.
    public func readWriteDispatch(timeoutMilliseconds: Int32) -> Bool {
        dbus_connection_read_write_dispatch(raw, timeoutMilliseconds) != 0
    }

    /// Reads what has arrived, without waiting, and dispatches all of it. For simple clients
    /// without an event loop.
    public func dispatchAvailable() {
        guard !isClosed else { return }
        dbus_connection_read_write(raw, 0)
        while dbus_connection_dispatch(raw) == DBUS_DISPATCH_DATA_REMAINS {}
    }

    // MARK: Receiving

    /// Adds a handler that sees incoming messages before object dispatch; returning true marks
    /// the message handled. Filters of both kinds run in the order they were added, and the
    /// first to return true stops the rest. Returns a token for `removeFilter`.
    @discardableResult
    public func addFilter(_ handler: @escaping (Message) -> Bool) -> Int {
        add(handler, signalsOnly: false)
    }

    /// Adds a handler that sees incoming signals (libdbus's local Disconnected among them)
    /// before object dispatch, in the same order as `addFilter`'s. Any other message (a call, a
    /// reply, an error) passes such filters without being wrapped for them: what a service
    /// watching names and notifications needs, at no cost to the calls it serves. Returns a
    /// token for `removeFilter`.
    @discardableResult
    public func addSignalFilter(_ handler: @escaping (Message) -> Bool) -> Int {
        add(handler, signalsOnly: true)
    }

    public func removeFilter(_ token: Int) {
        filters.removeAll { $0.token == token }
    }

    private struct Filter {
        let token: Int
        let signalsOnly: Bool
        let handler: (Message) -> Bool
    }

    private func add(_ handler: @escaping (Message) -> Bool, signalsOnly: Bool) -> Int {
        nextFilterToken += 1
        filters.append(Filter(token: nextFilterToken, signalsOnly: signalsOnly, handler: handler))
        return nextFilterToken
    }

    /// Routes every method call on every object path to `handler` (used by the object server).
    public func handleAllObjectPaths(_ handler: @escaping (Message) -> Bool) throws(DBusError) {
        subtreeHandler = handler
        var vtable = DBusObjectPathVTable()
        vtable.message_function = objectPathMessage
        let error = CErrorBox()
        let userData = Unmanaged.passUnretained(self).toOpaque()
        guard dbus_connection_try_register_fallback(raw, "/", &vtable, userData, &error.raw) != 0 else {
            throw error.take(fallback: "cannot register the object tree")
        }
    }

    fileprivate func runFilters(_ raw: OpaquePointer) -> Bool {
        let isSignal = dbus_message_get_type(raw) == CDBUS_MESSAGE_TYPE_SIGNAL
        var message: Message?
        // A handler may add or remove filters: iterate over a snapshot.
        for filter in filters where isSignal || !filter.signalsOnly {
            let wrapped = message ?? Message(borrowing: raw)
            message = wrapped
            if filter.handler(wrapped) { return true }
        }
        return false
    }

    fileprivate func runSubtreeHandler(_ message: Message) -> Bool {
        subtreeHandler?(message) ?? false
    }
}

private final class PendingCallBox {
    let completion: (Result<Message, DBusError>) -> Void
    init(_ completion: @escaping (Result<Message, DBusError>) -> Void) { self.completion = completion }
}

private func connectionFilter(
    _ connection: OpaquePointer?, _ message: OpaquePointer?, _ userData: UnsafeMutableRawPointer?
) -> DBusHandlerResult {
    guard let message, let userData else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
    let owner = Unmanaged<Connection>.fromOpaque(userData).takeUnretainedValue()
    return owner.runFilters(message)
        ? DBUS_HANDLER_RESULT_HANDLED : DBUS_HANDLER_RESULT_NOT_YET_HANDLED
}

private func objectPathMessage(
    _ connection: OpaquePointer?, _ message: OpaquePointer?, _ userData: UnsafeMutableRawPointer?
) -> DBusHandlerResult {
    guard let message, let userData else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
    let owner = Unmanaged<Connection>.fromOpaque(userData).takeUnretainedValue()
    return owner.runSubtreeHandler(Message(borrowing: message))
        ? DBUS_HANDLER_RESULT_HANDLED : DBUS_HANDLER_RESULT_NOT_YET_HANDLED
}

private func pendingCallNotify(_ pending: OpaquePointer?, _ userData: UnsafeMutableRawPointer?) {
    guard let pending, let userData else { return }
    let box = Unmanaged<PendingCallBox>.fromOpaque(userData).takeUnretainedValue()
    guard let reply = dbus_pending_call_steal_reply(pending) else {
        box.completion(.failure(DBusError(.noReply, "no reply")))
        return
    }
    let message = Message(owning: reply)
    if let error = message.asError {
        box.completion(.failure(error))
    } else {
        box.completion(.success(message))
    }
}

private func pendingCallFree(_ userData: UnsafeMutableRawPointer?) {
    guard let userData else { return }
    Unmanaged<PendingCallBox>.fromOpaque(userData).release()
}
