import DBusKit
import EventLoop
import Glibc
import Localization
import Logging
import RestProtocol

/// Owns io.restd.Rest1: asks for it in the bus's queue, and reports when it is ours.
///
/// A predecessor that was just killed may still hold the name for a moment, until the bus
/// notices its socket closed. restd queues for the name and is told by NameAcquired when it is
/// its turn; one that is not given the name within `deadlineUSec` (another restd is serving)
/// exits non-zero, and systemd's `Restart=` decides what comes next. Losing the name or the bus
/// later ends the daemon with a failure status too.
final class BusName {
    static let deadlineUSec: UInt64 = 5_000_000

    private let connection: Connection
    private let loop: EventLoop
    private let logger: Logger
    private var deadline: TimerSource?
    private var acquired: (() -> Void)?

    init(connection: Connection, loop: EventLoop, logger: Logger) {
        self.connection = connection
        self.loop = loop
        self.logger = logger
        connection.addSignalFilter { [unowned self] message in self.handle(message) }
    }

    /// Queues for the name; `onAcquired` runs on the loop once it is ours.
    func request(onAcquired: @escaping () -> Void) throws {
        acquired = onAcquired
        let reply: Connection.RequestNameReply
        do {
            reply = try connection.requestName(RestBus.name, doNotQueue: false)
        } catch {
            throw DaemonError(localized("cannot own the bus name %1$s: %2$s", RestBus.name, error.message))
        }
        if reply == .inQueue {
            logger.info(
                "\(RestBus.name) is taken; waiting up to \(Self.deadlineUSec / 1_000_000) s for it to be released")
        }
        // NameAcquired follows the reply even when the name was free at once.
        deadline = try loop.addTimer(
            clock: CLOCK_MONOTONIC, at: loop.now(CLOCK_MONOTONIC) + Self.deadlineUSec,
            accuracyUSec: 10_000
        ) { [unowned self] _ in
            logger.critical(
                .init(stringLiteral: localized("another restd already owns %1$s on this bus", RestBus.name)))
            loop.exit(1)
        }
    }

    private func handle(_ message: Message) -> Bool {
        if message.isDisconnected {
            logger.error(.init(stringLiteral: localized("lost the connection to the bus; exiting")))
            loop.exit(1)
            return true
        }
        guard message.sender == MessageBus.name, message.arguments().first?.string == RestBus.name else { return false }
        if message.isSignal(MessageBus.interface, "NameAcquired"), let acquired {
            self.acquired = nil
            deadline?.cancel()
            deadline = nil
            acquired()
            return true
        }
        if message.isSignal(MessageBus.interface, "NameLost") {
            logger.error(.init(stringLiteral: localized("lost the bus name %1$s; exiting", RestBus.name)))
            loop.exit(1)
            return true
        }
        return false
    }
}
