import CDBus
import DBusKit

/// The bench's libdbus messages: built and read by DBusKit, then handed over as libdbus's own
/// pointers, which the measured paths send, copy (`dbus_message_copy` of a template) and pop
/// without dispatching, so that the bench's own cost per call stays small next to the bus's and
/// restd's. Every name and string here is the bench's own and valid.
enum RawMessage {
    /// A new method call; the caller owns it (`dbus_message_unref`).
    static func call(
        _ destination: String, _ path: String, _ interface: String, _ member: String,
        _ arguments: [DBusValue] = []
    ) -> OpaquePointer {
        let message: Message
        do throws(DBusKit.DBusError) {
            message = try Message.methodCall(destination: destination, path: path, interface: interface, member: member)
            try message.append(arguments)
        } catch {
            fatalError("restd-bench built an invalid call to \(interface).\(member): \(error.message)")
        }
        // The reference the caller owns; the `Message` releases its own.
        dbus_message_ref(message.raw)
        return message.raw
    }
}

/// One message popped from a connection's queue, with what the bench looks at.
struct ReceivedMessage: Sendable {
    enum Kind: Sendable { case reply, error, signal, call }
    let kind: Kind
    let interface: String
    let member: String
    let path: String
    let errorName: String
    let arguments: [DBusValue]

    /// Reads (and does not release) a libdbus message, through DBusKit's reader.
    init(_ raw: OpaquePointer) {
        let message = Message(borrowing: raw)
        switch message.kind {
        case .methodReturn: kind = .reply
        case .error: kind = .error
        case .signal: kind = .signal
        case .methodCall, .invalid: kind = .call
        }
        interface = message.interface ?? ""
        member = message.member ?? ""
        path = message.path ?? ""
        errorName = message.errorName ?? ""
        arguments = message.arguments()
    }
}
