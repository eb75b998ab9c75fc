import DBusKit
import Logging

/// Keeps a subscriber that stops reading its messages from making the bus buffer Changed
/// signals for it without bound. restd itself keeps nothing per subscriber (beyond the moments
/// a GetManagedObjects reply is being written, which everything waits behind): the bus daemon
/// queues, so every few publications restd asks the bus (org.freedesktop.DBus.Debug.Stats) how
/// much is waiting for that subscriber, and drops the subscription when it passes the limit.
/// The subscriber stays connected; it gets nothing more until it subscribes again.
final class SubscriberBacklog {
    /// Bytes the bus may hold for one subscriber before it is dropped.
    static let limitBytes: UInt32 = 256 * 1024
    /// Publications between two checks of the same subscriber.
    static let checkEvery = 8

    private let connection: Connection
    private let logger: Logger
    private var sentSinceCheck: [String: Int] = [:]
    private var checking: Set<String> = []
    /// False once the bus said it has no statistics (built without them, or refused by policy).
    private var busHasStatistics = true

    /// Called with a subscriber whose backlog passed the limit, and the bytes queued.
    var onOverflow: (String, UInt32) -> Void = { _, _ in }

    init(connection: Connection, logger: Logger) {
        self.connection = connection
        self.logger = logger
    }

    /// A Changed signal went to `name`.
    func sent(to name: String) {
        guard busHasStatistics else { return }
        let count = sentSinceCheck[name, default: 0] + 1
        guard count >= Self.checkEvery, !checking.contains(name) else {
            sentSinceCheck[name] = count
            return
        }
        sentSinceCheck[name] = 0
        check(name)
    }

    func forget(_ name: String) {
        sentSinceCheck[name] = nil
    }

    private func check(_ name: String) {
        guard
            let request = try? Message.methodCall(
                destination: MessageBus.name, path: MessageBus.path,
                interface: MessageBus.statsInterface, member: "GetConnectionStats"),
            (try? request.append(.string(name))) != nil
        else { return }
        checking.insert(name)
        connection.call(request, timeoutMilliseconds: 2000) { [weak self] result in
            guard let self else { return }
            checking.remove(name)
            switch result {
            case .success(let reply):
                let stats = reply.arguments().first?.vardictEntries ?? [:]
                if case .uint32(let queued)? = stats["OutgoingBytes"], queued > Self.limitBytes {
                    onOverflow(name, queued)
                }
            case .failure(let error)
            where error.hasName(.unknownMethod) || error.hasName(.unknownInterface)
                || error.hasName(.accessDenied):
                busHasStatistics = false
                logger.info(
                    "the bus offers no connection statistics (\(error.message)); slow subscribers cannot be detected")
            case .failure:
                break  // the subscriber left meanwhile, or the bus is busy: check again later
            }
        }
    }
}
