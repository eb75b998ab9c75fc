import CDBus

/// Writes a message body value by value into libdbus's iterator, without first building the
/// whole body as one `DBusValue` tree (nested arrays of boxed entries, a Swift dictionary and a
/// sort per property set) and walking it twice to validate and append: the path of bodies written
/// in pieces — GetManagedObjects of 10,000 timers across turns of the loop (`ManagedObjectsReply`),
/// and InterfacesAdded, which shares its writing. Bodies written whole go through `WireFormat`.
///
/// It writes exactly what `Message.append` writes for the same values, byte for byte
/// (MessageWriterTests compare the marshalled messages). Each leaf value is validated before it
/// is appended, since libdbus aborts on an invalid string or path; containers are opened with
/// the signature their caller names, which is why the writer stays inside DBusKit, behind faces
/// that fix the signatures (the object server's replies and signals).
/// A writer that throws leaves a half-written body: the caller discards the message.
struct MessageWriter {
    private var iter: DBusMessageIter

    /// A writer appending to the end of `message`'s body.
    init(appendingTo message: Message) {
        message.isWrittenInPieces = true
        iter = DBusMessageIter()
        dbus_message_iter_init_append(message.raw, &iter)
    }

    private init(container: DBusMessageIter) { iter = container }

    /// Appends one value (validated first).
    mutating func append(_ value: DBusValue) throws(DBusError) {
        try Marshalling.validate(value)
        guard Marshalling.append(value, to: &iter) else { throw Self.outOfMemory }
    }

    /// An array whose elements have the single complete type `elementSignature`; `body` appends them.
    mutating func array(
        of elementSignature: String, _ body: (inout MessageWriter) throws(DBusError) -> Void
    )
        throws(DBusError)
    {
        try container(CDBUS_TYPE_ARRAY, signature: elementSignature, body)
    }

    /// One entry of a dictionary (inside `array(of: "{…}")`); `body` appends its key and value.
    mutating func dictEntry(_ body: (inout MessageWriter) throws(DBusError) -> Void) throws(DBusError) {
        try container(CDBUS_TYPE_DICT_ENTRY, signature: nil, body)
    }

    /// An `a{sv}` of the pairs in the order given (a caller that wants `DBusValue.vardict`'s
    /// bytes gives them sorted by key).
    mutating func vardict(_ pairs: some Sequence<(key: String, value: DBusValue)>) throws(DBusError) {
        try array(of: "{sv}") { dictionary throws(DBusError) in
            for (key, value) in pairs {
                try dictionary.dictEntry { entry throws(DBusError) in
                    try entry.append(.string(key))
                    try entry.append(.variant(value))
                }
            }
        }
    }

    /// Opens an array whose elements have the single complete type `elementSignature`, left open
    /// across calls (a reply written in slices): append to the writer returned, then `close` it,
    /// or `abandon` it if the message is discarded.
    mutating func openArray(of elementSignature: String) throws(DBusError) -> MessageWriter {
        try open(CDBUS_TYPE_ARRAY, signature: elementSignature)
    }

    /// Ends a container opened on this writer.
    mutating func close(_ sub: inout MessageWriter) throws(DBusError) {
        guard dbus_message_iter_close_container(&iter, &sub.iter) != 0 else { throw Self.outOfMemory }
    }

    /// Gives up a container opened on this writer (what libdbus needs to free it).
    mutating func abandon(_ sub: inout MessageWriter) {
        dbus_message_iter_abandon_container(&iter, &sub.iter)
    }

    private mutating func open(_ type: Int32, signature: String?) throws(DBusError) -> MessageWriter {
        var sub = MessageWriter(container: DBusMessageIter())
        let opened: Bool
        if let signature {
            opened = signature.withCString { dbus_message_iter_open_container(&iter, type, $0, &sub.iter) != 0 }
        } else {
            opened = dbus_message_iter_open_container(&iter, type, nil, &sub.iter) != 0
        }
        guard opened else { throw Self.outOfMemory }
        return sub
    }

    private mutating func container(
        _ type: Int32, signature: String?, _ body: (inout MessageWriter) throws(DBusError) -> Void
    ) throws(DBusError) {
        var sub = try open(type, signature: signature)
        do {
            try body(&sub)
        } catch {
            abandon(&sub)
            throw error
        }
        try close(&sub)
    }

    private static let outOfMemory = DBusError(.noMemory, "out of memory")
}

extension Message {
    /// Appends values through a writer (see `MessageWriter`); a throw leaves a half-written body,
    /// so the message must then be discarded.
    func write(_ body: (inout MessageWriter) throws(DBusError) -> Void) throws(DBusError) {
        var writer = MessageWriter(appendingTo: self)
        try body(&writer)
    }
}
