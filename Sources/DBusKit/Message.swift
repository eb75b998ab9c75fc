import CDBus

/// A D-Bus message; owns one reference to the libdbus message.
public final class Message {
    public enum Kind: Sendable, Equatable {
        case methodCall, methodReturn, error, signal, invalid
    }

    /// Replaced only while the message is being built, when its body is written whole
    /// (`append`, `appendVardicts`). The bench sends and pops libdbus messages itself.
    package private(set) var raw: OpaquePointer
    /// Set by a `MessageWriter` writing into this message: its body is then written in pieces,
    /// and never replaced whole.
    var isWrittenInPieces = false

    /// Takes over a reference the caller owns.
    init(owning raw: OpaquePointer) { self.raw = raw }

    /// Adds a reference of its own (for messages libdbus lends to a handler, or the bench pops).
    package init(borrowing raw: OpaquePointer) {
        dbus_message_ref(raw)
        self.raw = raw
    }

    deinit { dbus_message_unref(raw) }

    // MARK: Creating

    /// A method call; every name is validated first, because libdbus aborts on invalid ones.
    public static func methodCall(
        destination: String?, path: String, interface: String?, member: String
    ) throws(DBusError) -> Message {
        if let destination, !DBusValidation.isValidBusName(destination) {
            throw DBusError(.invalidArgs, "\"\(destination.debugEscaped)\" is not a valid bus name")
        }
        try check(path: path, interface: interface, member: member)
        guard let raw = dbus_message_new_method_call(destination, path, interface, member) else {
            throw DBusError(.noMemory, "out of memory")
        }
        return Message(owning: raw)
    }

    /// A signal from `path`.
    public static func signal(path: String, interface: String, name: String) throws(DBusError) -> Message {
        try check(path: path, interface: interface, member: name)
        guard let raw = dbus_message_new_signal(path, interface, name) else {
            throw DBusError(.noMemory, "out of memory")
        }
        return Message(owning: raw)
    }

    /// An empty reply to this method call.
    public func makeReturn() -> Message {
        guard let reply = dbus_message_new_method_return(raw) else { fatalError("out of memory") }
        return Message(owning: reply)
    }

    /// An error reply to this method call; an invalid name or message is replaced, never passed to libdbus.
    public func makeError(_ error: DBusError) -> Message {
        let safe = error.safeForWire
        guard let reply = dbus_message_new_error(raw, safe.name, safe.message) else { fatalError("out of memory") }
        return Message(owning: reply)
    }

    private static func check(path: String, interface: String?, member: String) throws(DBusError) {
        guard DBusValidation.isValidObjectPath(path) else {
            throw DBusError(.invalidArgs, "\"\(path.debugEscaped)\" is not a valid object path")
        }
        if let interface, !DBusValidation.isValidInterfaceName(interface) {
            throw DBusError(.invalidArgs, "\"\(interface.debugEscaped)\" is not a valid interface name")
        }
        guard DBusValidation.isValidMemberName(member) else {
            throw DBusError(.invalidArgs, "\"\(member.debugEscaped)\" is not a valid member name")
        }
    }

    // MARK: Body

    /// Writes the body: all of it, in one call (`WireFormat`). The body is built aside, so a
    /// throw leaves the message unchanged. Its values are checked once, as they are written and
    /// loaded; what is refused is then described by `Marshalling.validate`, value by value.
    public func append(_ values: [DBusValue]) throws(DBusError) {
        guard !values.isEmpty else { return }
        do {
            try replaceEmptyBody { header throws(DBusError) in try WireFormat.message(header, withBody: values) }
        } catch {
            for value in values { try Marshalling.validate(value) }
            throw error
        }
    }

    /// Appends an `aa{sv}`: one dictionary per element of `dictionaries`, each of its pairs in the
    /// order given — what `append(.array(.dictionary(key: .string, value: .variant), …))` writes,
    /// without building the tree. For long lists of records (a page of Sets or Rests). A throw leaves
    /// the message unchanged.
    public func appendVardicts<Pairs: Sequence<(key: String, value: DBusValue)>>(
        _ dictionaries: some Sequence<Pairs>
    ) throws(DBusError) {
        try replaceEmptyBody { header throws(DBusError) in
            try WireFormat.message(header, signature: Array("aa{sv}".utf8)) { writer throws(DBusError) in
                try writer.appendVardicts(dictionaries)
            }
        }
    }

    /// Swaps this message for the one `build` makes from it: the same header with a body.
    private func replaceEmptyBody(_ build: (OpaquePointer) throws(DBusError) -> OpaquePointer) throws(DBusError) {
        guard !isWrittenInPieces, dbus_message_get_signature(raw).map({ $0.pointee == 0 }) ?? true else {
            throw DBusError(.failed, "a message's body is written in one append")
        }
        let built = try build(raw)
        dbus_message_unref(raw)
        raw = built
    }

    public func append(_ values: DBusValue...) throws(DBusError) { try append(values) }

    /// The body's values.
    public func arguments() -> [DBusValue] {
        Marshalling.readBody(of: raw)
    }

    /// The body's first value read as an `a{sv}`, its variants unwrapped, as
    /// `arguments().first?.vardictEntries` would give it, without building the tree between;
    /// nil when the first value is not one.
    public func vardictArgument() -> [String: DBusValue]? {
        Marshalling.readVardict(firstOf: raw)
    }

    /// The body's first value read as an `aa{sv}` (a list of records), one dictionary per record
    /// with its variants unwrapped, as `arguments().first?.arrayElements` and `vardictEntries`
    /// would give it, without building the tree between; nil when the first value is not one.
    public func recordsArgument() -> [[String: DBusValue]]? {
        Marshalling.readRecords(firstOf: raw)
    }

    // MARK: Header

    public var kind: Kind {
        switch dbus_message_get_type(raw) {
        case CDBUS_MESSAGE_TYPE_METHOD_CALL: return .methodCall
        case CDBUS_MESSAGE_TYPE_METHOD_RETURN: return .methodReturn
        case CDBUS_MESSAGE_TYPE_ERROR: return .error
        case CDBUS_MESSAGE_TYPE_SIGNAL: return .signal
        default: return .invalid
        }
    }

    public var path: String? { dbus_message_get_path(raw).map { String(cString: $0) } }
    public var interface: String? { dbus_message_get_interface(raw).map { String(cString: $0) } }
    public var member: String? { dbus_message_get_member(raw).map { String(cString: $0) } }
    public var sender: String? { dbus_message_get_sender(raw).map { String(cString: $0) } }
    public var destination: String? { dbus_message_get_destination(raw).map { String(cString: $0) } }
    public var errorName: String? { dbus_message_get_error_name(raw).map { String(cString: $0) } }
    public var signature: String { dbus_message_get_signature(raw).map { String(cString: $0) } ?? "" }
    public var serial: UInt32 { dbus_message_get_serial(raw) }
    public var replySerial: UInt32 { dbus_message_get_reply_serial(raw) }

    public var noReplyExpected: Bool {
        get { dbus_message_get_no_reply(raw) != 0 }
        set { dbus_message_set_no_reply(raw, newValue ? 1 : 0) }
    }

    /// Sets the destination (for unicast signals); a name libdbus would reject is refused.
    public func setDestination(_ name: String) throws(DBusError) {
        guard DBusValidation.isValidBusName(name) else {
            throw DBusError(.invalidArgs, "\"\(name.debugEscaped)\" is not a valid bus name")
        }
        guard dbus_message_set_destination(raw, name) != 0 else { throw DBusError(.noMemory, "out of memory") }
    }

    /// Whether this is the given signal (interface and member).
    public func isSignal(_ interface: String, _ member: String) -> Bool {
        dbus_message_is_signal(raw, interface, member) != 0
    }

    /// The error carried by an error message: its name and first string argument.
    public var asError: DBusError? {
        guard kind == .error else { return nil }
        let text = arguments().first?.string ?? ""
        return DBusError(name: errorName ?? DBusError.Name.failed.rawValue, message: text)
    }
}
