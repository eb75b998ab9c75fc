/// A GetManagedObjects reply being written, some objects at a time: with 10,000 objects the
/// reply is megabytes, whose marshalling alone would keep a loop from everything else for too
/// long, so the object server writes it in slices, one per loop iteration (see
/// `ObjectServer.continueLater`).
///
/// The objects are those that existed when the reply started, each written with its state at
/// the moment its slice is written; an object removed before its slice (`removed`) is left out.
/// What changed meanwhile is told by the signals the server holds back until this reply has left.
final class ManagedObjectsReply {
    /// The paths of objects removed since the reply started.
    var removed: Set<String> = []
    private let call: Message
    private let reply: Message
    private let objects: [(path: String, interfaces: [ExportedInterface])]
    private var next = 0
    private var body: MessageWriter
    /// The open `a{oa{sa{sv}}}`; nil once closed or abandoned.
    private var array: MessageWriter?
    /// Why the array could not be opened (libdbus out of memory), answered at the first slice.
    private var openingError: DBusError?

    init(call: Message, objects: [(path: String, interfaces: [ExportedInterface])]) {
        self.call = call
        self.objects = objects
        reply = call.makeReturn()
        body = MessageWriter(appendingTo: reply)
        do {
            array = try body.openArray(of: ObjectServer.managedObjectSignature)
        } catch {
            openingError = error
        }
    }

    /// libdbus frees an open container only when it is closed or abandoned.
    deinit {
        if var array { body.abandon(&array) }
    }

    /// Writes up to `count` more objects; returns the finished reply after the last one, or, if
    /// the reply cannot be written, an error reply to the call. Not called again after that.
    func writeSlice(_ count: Int) -> Message? {
        guard var open = array else { return failure(openingError ?? DBusError(.failed, "the reply is finished")) }
        do throws(DBusError) {
            let end = next + min(max(count, 1), objects.count - next)
            for (path, interfaces) in objects[next..<end] where !removed.contains(path) {
                try ObjectServer.writeObject(path: path, interfaces: interfaces, to: &open)
            }
            next = end
        } catch {
            body.abandon(&open)
            array = nil
            return failure(error)
        }
        array = open
        guard next == objects.count else { return nil }
        array = nil
        do throws(DBusError) {
            try body.close(&open)  // libdbus has let go of the container even when this fails
        } catch {
            return failure(error)
        }
        return reply
    }

    private func failure(_ error: DBusError) -> Message {
        call.makeError(DBusError(.failed, "could not encode the reply: \(error.message)"))
    }
}
