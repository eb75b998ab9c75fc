import DBusKit
import Logging

/// Keeps a subscriber that stops reading its messages from making the bus buffer Changed
/// signals for it without bound. restd itself keeps nothing per subscriber (beyond the moments
/// a GetManagedObjects reply is being written, which everything waits behind): the bus daemon
/// queues, so every few publications restd asks the bus (org.freedesktop.DBus.Debug.Stats) how
/// much is waiting for that subscriber, and drops the subscription when it passes the limit.
/// The subscriber stays connected; it gets nothing more until it subscribes again.
///
/// The buses answer differently. dbus-daemon tells one connection's queue
/// (GetConnectionStats). dbus-broker refuses that call ("Unimplemented functionality", a plain
/// Failed) but lists every connection's queue in GetStats (org.bus1.DBus.Debug.Stats.
/// PeerAccounting, with the same OutgoingBytes), so one GetStats checks every subscriber due.
/// This matters most there: dbus-broker applies no quota to messages between connections of
/// one user, so a subscriber that never reads grows the broker until the user's whole budget is
/// spent, and then the user's other messages are refused.
final class SubscriberBacklog {
    /// Bytes the bus may hold for one subscriber before it is dropped.
    static let limitBytes: UInt32 = 256 * 1024
    /// Publications between two checks of the same subscriber.
    static let checkEvery = 8
    static let peerAccountingKey = "org.bus1.DBus.Debug.Stats.PeerAccounting"

    /// What the bus offers to read a connection's queue, as learnt from its answers.
    private enum Statistics {
        /// GetConnectionStats of one name (dbus-daemon); what is tried first.
        case perConnection
        /// GetStats, every connection at once (dbus-broker).
        case peerAccounting
        /// None that restd can read (built without them, or refused by policy): nothing is checked.
        case unavailable
    }

    private let connection: Connection
    private let logger: Logger
    private var sentSinceCheck: [String: Int] = [:]
    /// Subscribers with a check in flight (for GetStats: all of those it covers).
    private var checking: Set<String> = []
    private var statistics = Statistics.perConnection

    /// Called with a subscriber whose backlog passed the limit, and the bytes queued.
    var onOverflow: (String, UInt32) -> Void = { _, _ in }

    init(connection: Connection, logger: Logger) {
        self.connection = connection
        self.logger = logger
    }

    /// A Changed signal went to `name`.
    func sent(to name: String) {
        if case .unavailable = statistics { return }
        let count = sentSinceCheck[name, default: 0] + 1
        guard count >= Self.checkEvery, !checking.contains(name) else {
            sentSinceCheck[name] = count
            return
        }
        switch statistics {
        case .perConnection:
            sentSinceCheck[name] = 0
            checkConnection(name)
        case .peerAccounting:
            sentSinceCheck[name] = count
            checkPeers()
        case .unavailable:
            break
        }
    }

    func forget(_ name: String) {
        sentSinceCheck[name] = nil
    }

    private func checkConnection(_ name: String) {
        guard let request = statsCall("GetConnectionStats", .string(name)) else { return }
        checking.insert(name)
        connection.call(request, timeoutMilliseconds: 2000) { [weak self] result in
            guard let self else { return }
            checking.remove(name)
            switch result {
            case .success(let reply):
                let stats = reply.arguments().first?.vardictEntries ?? [:]
                judge(name, queued: stats["OutgoingBytes"])
            case .failure(let error) where Self.isTransient(error):
                break  // the subscriber left meanwhile, or the bus is busy: check again later
            case .failure(let error):
                // dbus-broker's answer: try what it offers instead, for every subscriber due.
                logger.debug("GetConnectionStats refused (\(error.name): \(error.message)); trying GetStats")
                statistics = .peerAccounting
                sentSinceCheck[name] = Self.checkEvery
                checkPeers()
            }
        }
    }

    /// One GetStats for every subscriber that has had `checkEvery` publications since its last check.
    private func checkPeers() {
        let due = Set(sentSinceCheck.filter { $0.value >= Self.checkEvery }.keys)
        guard !due.isEmpty, checking.isEmpty, let request = statsCall("GetStats") else { return }
        for name in due { sentSinceCheck[name] = 0 }
        checking = due
        connection.call(request, timeoutMilliseconds: 2000) { [weak self] result in
            guard let self else { return }
            checking.removeAll()
            switch result {
            case .success(let reply):
                guard let peers = reply.arguments().first?.vardictEntries?[Self.peerAccountingKey]?.arrayElements
                else {
                    giveUp("GetStats lists no connections")
                    return
                }
                for case .structure(let fields) in peers {
                    guard fields.count == 3, let name = fields[0].string, due.contains(name) else { continue }
                    judge(name, queued: fields[2].vardictEntries?["OutgoingBytes"])
                }
            case .failure(let error) where Self.isTransient(error):
                break
            case .failure(let error):
                giveUp("\(error.name): \(error.message)")
            }
        }
    }

    private func judge(_ name: String, queued: DBusValue?) {
        if case .uint32(let queued)? = queued, queued > Self.limitBytes {
            onOverflow(name, queued)
        }
    }

    private func giveUp(_ reason: String) {
        statistics = .unavailable
        sentSinceCheck.removeAll()
        logger.info("the bus offers no connection statistics (\(reason)); slow subscribers cannot be detected")
    }

    private func statsCall(_ member: String, _ arguments: DBusValue...) -> Message? {
        guard
            let request = try? Message.methodCall(
                destination: MessageBus.name, path: MessageBus.path, interface: MessageBus.statsInterface,
                member: member),
            (try? request.append(arguments)) != nil
        else { return nil }
        return request
    }

    /// Errors after which a later check may succeed: the connection left, the bus was slow or
    /// short of memory, or restd is losing the bus anyway.
    private static func isTransient(_ error: DBusError) -> Bool {
        [.nameHasNoOwner, .noReply, .timeout, .limitsExceeded, .noMemory, .disconnected].contains { error.hasName($0) }
    }
}
