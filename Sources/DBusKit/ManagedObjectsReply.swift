/// A GetManagedObjects reply being written, some objects at a time: with 10,000 objects the
/// whole reply takes libdbus alone 130–200 ms to marshal (6.5 MB), too long to keep a loop from
/// everything else, so the object server writes it in slices, one per loop iteration (see
/// `ObjectServer.continueLater`).
///
/// The objects are those that existed when the call arrived, each written with its state at the
/// moment its slice is written; an object removed before its slice (`removed`) is left out.
/// What changed meanwhile is told by the signals the server holds back until this reply has left.
final class ManagedObjectsReply {
    /// The GetManagedObjects call, answered with an error if the reply cannot be written.
    let call: Message
    /// The paths of objects removed since the call arrived.
    var removed: Set<String> = []
    private let reply: Message
    private let objects: [(path: String, interfaces: [ExportedInterface])]
    private var next = 0
    private var body: MessageWriter
    private var array: MessageWriter

    init(call: Message, objects: [(path: String, interfaces: [ExportedInterface])]) throws(DBusError) {
        self.call = call
        self.objects = objects
        reply = call.makeReturn()
        body = MessageWriter(appendingTo: reply)
        array = try body.openArray(of: ObjectServer.managedObjectSignature)
    }

    /// Writes up to `count` more objects; returns the finished reply after the last one, or, if
    /// the reply cannot be written, an error reply to the call.
    func writeSlice(_ count: Int) -> Message? {
        do throws(DBusError) {
            let end = next + min(max(count, 1), objects.count - next)
            for (path, interfaces) in objects[next..<end] where !removed.contains(path) {
                try ObjectServer.writeObject(path: path, interfaces: interfaces, to: &array)
            }
            next = end
            guard next == objects.count else { return nil }
            try body.close(&array)
            return reply
        } catch {
            body.abandon(&array)
            next = objects.count
            return call.makeError(DBusError(.failed, "could not encode the reply: \(error.message)"))
        }
    }
}
