import Clocks
import DBusKit
import RestProtocol

/// Follows one timer and the live fields on the bus, for `restctl watch`.
///
/// The timer is read once (GetManagedObjects) and then followed through its signals:
/// PropertiesChanged on its object and InterfacesAdded/Removed on the manager. Not Expired:
/// restd sends it first, and the timer's PropertiesChanged right after carries all that changed
/// (State expired, and the duration after a `sub`, the end reason). The live fields come from Subscribe and the unicast Changed signal. restd leaving the bus
/// (NameOwnerChanged) makes the state idle; its coming back makes the session read the timer
/// and subscribe again. Between signals it wakes only at the instants `WatchTick` gives (once
/// a second, on the second of EndsAtUSec, while a timer runs or is over): a paused timer or
/// none wakes nothing.
///
/// Single-threaded, like its connection: create and run it on one thread.
public final class WatchSession {
    public let timerID: String
    /// The live-field rate to subscribe at; nil: no live fields.
    public let rateHz: Double?
    /// What is known now.
    public private(set) var state = WatchState.idle
    /// Told, once per restd, when Subscribe was refused for a reason worth going on without
    /// live fields (too many subscribers); the sentence is restd's.
    public var onWarning: (String) -> Void = { _ in }

    /// The session's connection to restd, for calls of its own (`start --wait` starts the
    /// timer with it, so that no signal can fall between the start and the watch).
    public let client: RestdClient
    /// The wall clock (µs) that ticks and lines are computed from.
    public var clock: () -> UInt64 = { KernelClock.realtimeUSec }
    private var connection: Connection { client.connection }
    private let timerPath: String
    /// restd's name followed, with the signals of the timer.
    private let following: BusNameFollowing
    /// restd's unique name while it is on the bus.
    private var owner: String?
    /// The serial of the reply the timer was read from: restd's signals sent before it are
    /// already in that reading, and are not applied again (out of date by then).
    private var readSerial = UInt32.max
    private var needsReading = false
    /// A reading failed without restd leaving the bus (it did not answer in time): try again.
    private var retryPending = false
    /// Messages seen by the filter, to tell whether a dispatch call dispatched one.
    private var received = 0

    /// Connects to the session bus (or `address`) and asks for restd's signals; subscribes to
    /// the live fields at `rateHz` unless it is nil. Throws `.noBus` when there is no bus;
    /// restd need not be running.
    public init(timerID: String, rateHz: Double?, address: String? = nil) throws(ClientError) {
        self.timerID = timerID
        self.rateHz = rateHz
        timerPath = RestBus.timerPath(id: timerID)
        client = try RestdClient(address: address)
        following = BusNameFollowing(
            RestBus.name,
            alsoMatching: [
                MessageBus.signalRule(
                    sender: RestBus.name, path: timerPath, interface: MessageBus.propertiesInterface,
                    member: "PropertiesChanged", arg0: RestBus.timerInterface),
                MessageBus.signalRule(
                    sender: RestBus.name, path: RestBus.managerPath, interface: MessageBus.objectManagerInterface,
                    arg0Path: timerPath),
                // Changed is unicast: the bus delivers it to its destination without a rule.
            ])
        do {
            try following.addRules(on: client.connection)
        } catch {
            throw Self.clientError(error)
        }
        client.connection.addFilter { [unowned self] message in
            self.receive(message)
            return false
        }
    }

    /// restd is on the bus (as far as the signals seen so far tell).
    public var isDaemonPresent: Bool { owner != nil }

    /// `state` is restd's, read and followed since: not waiting for a reading.
    public var isFollowing: Bool { owner != nil && !needsReading && !retryPending }

    /// Reads what restd has, calls `emit` with it and the wall clock, then once per change of
    /// the state and (with `ticking`) at every `WatchTick`, until `emit` returns false. Throws
    /// when the bus goes away, or when restd refuses the subscription (a rate out of range) or
    /// answers nonsense.
    public func run(ticking: Bool = true, _ emit: (WatchState, _ now: UInt64) -> Bool) throws(ClientError) {
        owner = try currentOwner()
        needsReading = owner != nil
        var shown: WatchState?
        var tick: UInt64?
        while true {
            try catchUp()
            let now = clock()
            if state != shown || tick.map({ now >= $0 }) == true {
                shown = state
                guard emit(state, now) else { return }
            }
            tick = ticking ? WatchTick.next(after: now, state.timer) : nil
            // Nothing to do until the bus has something for us, the display's next second
            // comes, or a reading is to be retried.
            var timeout: Int32 = retryPending ? 1_000 : -1
            if let tick {
                let untilTick = WatchTick.timeoutMilliseconds(from: now, to: tick)
                timeout = timeout < 0 ? untilTick : min(timeout, untilTick)
            }
            guard connection.readWriteDispatch(timeoutMilliseconds: timeout) else { throw Self.busClosed }
        }
    }

    /// Reads when a reading is due and applies every signal already received, so that one
    /// burst (a reading and the Changed that Subscribe sends at once, the PropertiesChanged of
    /// several changes) makes one state, not a line per message.
    private func catchUp() throws(ClientError) {
        if owner != nil && retryPending { try read() }
        // Bounded, so that a flood of signals cannot keep the state from being shown.
        for _ in 0..<1_000 {
            if owner == nil {
                needsReading = false
                retryPending = false
            }
            if needsReading { try read() }
            let before = received
            guard connection.readWriteDispatch(timeoutMilliseconds: 0) else { throw Self.busClosed }
            // Nothing was queued: the call only read (and left what came for the next pass).
            if received == before { return }
        }
    }

    private static let busClosed = ClientError.busLost("the connection to the bus was closed")

    // MARK: Reading

    private func currentOwner() throws(ClientError) -> String? {
        do {
            return try following.currentOwner(on: connection, timeoutMilliseconds: client.timeoutMilliseconds)
        } catch {
            throw Self.clientError(error)
        }
    }

    /// Reads the timer and subscribes to the live fields, from the current owner.
    private func read() throws(ClientError) {
        guard let owner else { return }
        needsReading = false
        retryPending = false
        let objects: Message
        do {
            objects = try call(owner, RestBus.managerPath, MessageBus.objectManagerInterface, "GetManagedObjects", [])
        } catch {
            return try couldNotRead(error)
        }
        state.timer = try Self.timer(at: timerPath, in: objects.arguments())
        readSerial = objects.serial
        guard let rateHz else { return }
        do {
            _ = try call(owner, RestBus.livePath, RestBus.liveInterface, "Subscribe", [.double(rateHz)])
        } catch {
            if error.name == RestErrorName.limitExceeded { return onWarning(error.message) }
            try couldNotRead(error)
        }
    }

    /// restd gone (its NameOwnerChanged is on its way) or slow: wait, and try again in a
    /// while when it is still there. Anything else is the end of the watch.
    private func couldNotRead(_ error: DBusError) throws(ClientError) {
        let transient: [DBusError.Name] = [.serviceUnknown, .nameHasNoOwner, .noReply, .timeout]
        guard transient.contains(where: error.hasName) else { throw Self.clientError(error) }
        retryPending = true
    }

    private func call(
        _ destination: String, _ path: String, _ interface: String, _ member: String,
        _ arguments: [DBusValue]
    ) throws(DBusError) -> Message {
        let message = try Message.methodCall(destination: destination, path: path, interface: interface, member: member)
        try message.append(arguments)
        return try connection.callBlocking(message, timeoutMilliseconds: client.timeoutMilliseconds)
    }

    /// The timer at `path` in a GetManagedObjects reply, nil when there is none.
    static func timer(at path: String, in arguments: [DBusValue]) throws(ClientError) -> TimerSnapshot? {
        guard let objects = arguments.first?.dictEntries else {
            throw .badReply("GetManagedObjects returned no dictionary")
        }
        guard let object = objects.first(where: { $0.key.string == path }) else { return nil }
        guard let properties = object.value.vardictEntries?[RestBus.timerInterface]?.vardictEntries else {
            throw .badReply("the object \(path) has no \(RestBus.timerInterface) properties")
        }
        return try TimerSnapshot(properties: properties)
    }

    // MARK: Signals

    private func receive(_ message: Message) {
        received += 1
        guard message.kind == .signal else { return }
        if let change = following.ownerChange(in: message) { return ownerChanged(to: change.newOwner) }
        guard let owner, message.sender == owner else { return }
        let arguments = message.arguments()
        var applied = true
        if message.isSignal(RestBus.liveInterface, "Changed"), message.path == RestBus.livePath {
            // Each Changed carries every field: no ordering against readings to worry about.
            applied = state.apply(.liveChanged(arguments.first?.vardictEntries ?? [:]))
        } else if readSerial == UInt32.max || message.serial <= readSerial {
            return  // sent before the reading (which has it), or the reading is still to come
        } else if message.isSignal(MessageBus.propertiesInterface, "PropertiesChanged"), message.path == timerPath,
            arguments.first?.string == RestBus.timerInterface
        {
            let changed = arguments.dropFirst().first?.vardictEntries ?? [:]
            let invalidated = arguments.dropFirst(2).first?.arrayElements?.compactMap(\.string) ?? []
            applied = state.apply(.timerChanged(changed, invalidated: invalidated))
        } else if message.isSignal(MessageBus.objectManagerInterface, "InterfacesAdded"),
            arguments.first?.string == timerPath
        {
            let interfaces = arguments.dropFirst().first?.vardictEntries ?? [:]
            guard let properties = interfaces[RestBus.timerInterface]?.vardictEntries else { return }
            applied = state.apply(.timerAdded(properties))
        } else if message.isSignal(MessageBus.objectManagerInterface, "InterfacesRemoved"),
            arguments.first?.string == timerPath
        {
            let interfaces = arguments.dropFirst().first?.arrayElements?.compactMap(\.string) ?? []
            guard interfaces.contains(RestBus.timerInterface) else { return }
            applied = state.apply(.timerRemoved)
        }
        if !applied { needsReading = true }
    }

    private func ownerChanged(to newOwner: String) {
        if newOwner.isEmpty {
            owner = nil
            state.apply(.daemonGone)
        } else if newOwner != owner {
            // A new restd: its timers come from its store, its live fields start empty.
            owner = newOwner
            state.apply(.daemonGone)
            readSerial = UInt32.max
            needsReading = true
        }
    }

    private static func clientError(_ error: DBusError) -> ClientError {
        if error.hasName(.disconnected) || error.hasName(.noServer) { return .busLost(error.message) }
        return .refused(error)
    }
}
