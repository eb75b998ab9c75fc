/// A method call as an exported interface receives it.
public final class MethodCall {
    public let message: Message
    /// The object path the call was made on.
    public let path: String
    public let member: String
    /// The body, already checked against the declared input signature; read when first asked
    /// for, so that a method reading its arguments straight from `message` does not pay for both.
    public private(set) lazy var arguments: [DBusValue] = message.arguments()
    /// The caller's unique name.
    public var sender: String { message.sender ?? "" }

    init(message: Message, path: String, member: String) {
        self.message = message
        self.path = path
        self.member = member
    }
}

/// An interface on one object: its description plus the behaviour behind it. A class, so that
/// routing a call hands it on with one reference, not a copy of its description and closures.
public final class ExportedInterface {
    public let description: InterfaceDescription
    /// Answers a method of the description; throws a D-Bus error to refuse.
    public let call: (MethodCall) throws(DBusError) -> MethodReply
    /// A reader of the properties as they are now: the object looks its state up once, then
    /// reads as many properties as are asked for (all of them for GetAll, GetManagedObjects and
    /// InterfacesAdded; one for Get). A `PropertyTable` makes it from its rows.
    public let propertyReader: () -> (String) -> DBusValue?

    public init(
        _ description: InterfaceDescription,
        call: @escaping (MethodCall) throws(DBusError) -> MethodReply = { call throws(DBusError) in
            throw DBusError(.unknownMethod, "no method \(call.member)")
        },
        propertyReader: @escaping () -> (String) -> DBusValue? = { { _ in nil } }
    ) {
        self.description = description
        self.call = call
        self.propertyReader = propertyReader
    }

    /// One property's current value.
    public func property(_ name: String) -> DBusValue? { propertyReader()(name) }

    /// Every property's current value.
    public func allProperties() -> [String: DBusValue] {
        let read = propertyReader()
        var values: [String: DBusValue] = [:]
        for declared in description.properties {
            if let value = read(declared.name) { values[declared.name] = value }
        }
        return values
    }
}

/// Objects whose children are made on demand (one per timer, say) instead of registered one by one.
public struct Subtree {
    /// The names of the children right now (path elements).
    public let children: () -> [String]
    /// The interfaces of one child, nil when there is no such child.
    public let interfaces: (String) -> [ExportedInterface]?
    /// Every child with its interfaces (GetManagedObjects), without looking each name up again.
    public let objects: () -> [(name: String, interfaces: [ExportedInterface])]

    public init(
        children: @escaping () -> [String], interfaces: @escaping (String) -> [ExportedInterface]?,
        objects: (() -> [(name: String, interfaces: [ExportedInterface])])? = nil
    ) {
        self.children = children
        self.interfaces = interfaces
        self.objects =
            objects ?? { children().compactMap { name in interfaces(name).map { (name: name, interfaces: $0) } } }
    }
}

/// Serves objects on a connection: routes method calls, and implements Introspectable,
/// Properties and ObjectManager for them (libdbus answers Peer itself).
public final class ObjectServer {
    public let connection: Connection
    private var objects: [String: [ExportedInterface]] = [:]
    private var subtrees: [String: Subtree] = [:]
    private var objectManagerPaths: Set<String> = []

    /// How the server gets back to a GetManagedObjects reply it writes in slices: runs the work
    /// given in a later iteration of the loop, after what is pending there. Nil (the default)
    /// writes each reply at once; set to nil, it finishes what is in progress.
    public var continueLater: ((@escaping () -> Void) -> Void)? {
        didSet { if continueLater == nil { finishReplies() } }
    }
    /// How many objects one slice of a GetManagedObjects reply writes: a few milliseconds of
    /// work, where a whole reply of 10,000 would hold the loop for far longer.
    public var objectsPerSlice = 500
    /// What the server has made and not yet sent, in the order it was made; empty unless a
    /// reply is being written in slices. A message made meanwhile waits behind that reply, so
    /// that no client hears of a change before a reply that may still hold the older value.
    private var outgoing: [Outgoing] = []
    /// Whether a slice is due in a later iteration (one chain of slices at a time).
    private var sliceScheduled = false

    private enum Outgoing {
        case ready(Message)
        /// A GetManagedObjects call waiting behind another reply: its objects are listed when
        /// its own reply starts, not when it arrived.
        case waiting(call: Message, root: String)
        case inProgress(ManagedObjectsReply)
    }

    public init(connection: Connection) throws(DBusError) {
        self.connection = connection
        try connection.handleAllObjectPaths { [unowned self] message in
            self.handle(message)
        }
    }

    // MARK: Registration

    /// Exports an object at `path` with the given interfaces, replacing what was there.
    public func export(path: String, interfaces: [ExportedInterface]) {
        precondition(DBusValidation.isValidObjectPath(path), "invalid object path \(path)")
        objects[path] = interfaces
    }

    public func unexport(path: String) {
        objects[path] = nil
        noteRemoved(path)
    }

    /// Serves the children of `path` through `subtree`.
    public func exportSubtree(at path: String, _ subtree: Subtree) {
        precondition(DBusValidation.isValidObjectPath(path), "invalid object path \(path)")
        subtrees[path] = subtree
    }

    /// Adds org.freedesktop.DBus.ObjectManager at `path`, managing every object below it.
    public func addObjectManager(at path: String) {
        objectManagerPaths.insert(path)
    }

    // MARK: Signals

    /// Emits a signal; `destination` makes it unicast. Returns false when it could not be built or queued.
    @discardableResult
    public func emitSignal(
        path: String, interface: String, name: String, arguments: [DBusValue], destination: String? = nil
    ) -> Bool {
        do {
            let signal = try Message.signal(path: path, interface: interface, name: name)
            if let destination { try signal.setDestination(destination) }
            try signal.append(arguments)
            return send(signal)
        } catch {
            return false
        }
    }

    /// Emits org.freedesktop.DBus.Properties.PropertiesChanged.
    public func emitPropertiesChanged(
        path: String, interface: String, changed: [String: DBusValue], invalidated: [String] = []
    ) {
        emitSignal(
            path: path, interface: InterfaceDescription.properties.name, name: "PropertiesChanged",
            arguments: [.string(interface), .vardict(changed), .strings(invalidated)])
    }

    /// Emits InterfacesAdded for the object at `path` from its manager.
    public func emitInterfacesAdded(path: String) {
        guard let manager = manager(of: path), let interfaces = lookup(path) else { return }
        do {
            let signal = try Message.signal(
                path: manager, interface: InterfaceDescription.objectManager.name, name: "InterfacesAdded")
            try signal.write { body throws(DBusError) in
                try body.append(.objectPath(path))
                try Self.writeInterfacesAndProperties(interfaces, to: &body)
            }
            send(signal)
        } catch {
            // Like emitSignal: a signal that cannot be built is not sent.
        }
    }

    /// Emits InterfacesRemoved for an object that was at `path`.
    public func emitInterfacesRemoved(path: String, interfaces: [String]) {
        noteRemoved(path)
        guard let manager = manager(of: path) else { return }
        emitSignal(
            path: manager, interface: InterfaceDescription.objectManager.name, name: "InterfacesRemoved",
            arguments: [.objectPath(path), .strings(interfaces + Self.standardInterfaceNames)])
    }

    // MARK: Lookup

    private func lookup(_ path: String) -> [ExportedInterface]? {
        if let interfaces = objects[path] { return interfaces }
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return nil }
        let parent = String(path[..<slash])
        let child = String(path[path.index(after: slash)...])
        return subtrees[parent]?.interfaces(child)
    }

    private func manager(of path: String) -> String? {
        objectManagerPaths.filter { path.hasPrefix($0 == "/" ? "/" : $0 + "/") && path != $0 }.max {
            $0.count < $1.count
        }
    }

    /// Direct child names of `path`, and whether `path` is a node at all.
    private func children(of path: String) -> (exists: Bool, names: [String]) {
        let prefix = path == "/" ? "/" : path + "/"
        var names = Set<String>()
        var exists = objects[path] != nil || subtrees[path] != nil || lookup(path) != nil
        if let subtree = subtrees[path] { names.formUnion(subtree.children()) }
        for candidate in Array(objects.keys) + Array(subtrees.keys) where candidate.hasPrefix(prefix) {
            exists = true
            let rest = candidate.dropFirst(prefix.count)
            if let first = rest.split(separator: "/").first { names.insert(String(first)) }
        }
        if path == "/" { exists = true }
        return (exists, names.sorted())
    }

    static let standardInterfaceNames = [
        InterfaceDescription.peer.name, InterfaceDescription.introspectable.name, InterfaceDescription.properties.name,
    ]

    /// An object's `a{sa{sv}}` (the standard interfaces with no properties, then its own with
    /// every property, sorted by name as `DBusValue.vardict` sorts them), written straight
    /// into the message: GetManagedObjects of 10,000 timers is 130,000 values.
    static func writeInterfacesAndProperties(
        _ interfaces: [ExportedInterface], to writer: inout MessageWriter
    )
        throws(DBusError)
    {
        try writer.array(of: "{sa{sv}}") { dictionary throws(DBusError) in
            for name in standardInterfaceNames {
                try dictionary.dictEntry { entry throws(DBusError) in
                    try entry.append(.string(name))
                    try entry.vardict(EmptyCollection())
                }
            }
            for interface in interfaces {
                try dictionary.dictEntry { entry throws(DBusError) in
                    try entry.append(.string(interface.description.name))
                    let read = interface.propertyReader()
                    try entry.vardict(
                        interface.description.propertyNamesByName.lazy.compactMap { name in
                            read(name).map { (key: name, value: $0) }
                        })
                }
            }
        }
    }

    /// The element of GetManagedObjects' `a{oa{sa{sv}}}`.
    static let managedObjectSignature = "{oa{sa{sv}}}"

    /// One entry of GetManagedObjects' dictionary.
    static func writeObject(
        path: String, interfaces: [ExportedInterface], to dictionary: inout MessageWriter
    ) throws(DBusError) {
        try dictionary.dictEntry { entry throws(DBusError) in
            try entry.append(.objectPath(path))
            try writeInterfacesAndProperties(interfaces, to: &entry)
        }
    }

    // MARK: Dispatch

    private func handle(_ message: Message) -> Bool {
        guard message.kind == .methodCall, let path = message.path, let member = message.member else { return false }
        let result: Result<ReplyBody, DBusError>
        do {
            result = .success(try route(message, path: path, member: member))
        } catch {
            result = .failure(error)
        }
        guard !message.noReplyExpected else { return true }
        switch result {
        case .success(.reply(let answer)):
            let reply = message.makeReturn()
            do {
                try answer.append(to: reply)
                send(reply)
            } catch {
                send(message.makeError(DBusError(.failed, "could not encode the reply: \(error.message)")))
            }
        case .success(.managedObjects(let root)):
            outgoing.append(.waiting(call: message, root: root))
            if continueLater == nil {
                finishReplies()
            } else if !sliceScheduled {
                writeNextSlice()
            }
        case .failure(let error):
            send(message.makeError(error))
        }
        return true
    }

    /// A reply's body: a method's answer, or the objects below `root` (GetManagedObjects).
    private enum ReplyBody {
        case reply(MethodReply)
        case managedObjects(root: String)
    }

    // MARK: Sending

    /// Sends `message`, or queues it behind a reply still being written.
    @discardableResult
    private func send(_ message: Message) -> Bool {
        guard outgoing.isEmpty else {
            outgoing.append(.ready(message))
            return true
        }
        return connection.send(message)
    }

    /// Writes a slice of the first reply in progress, and comes back later for the next.
    private func writeNextSlice() {
        sliceScheduled = false
        writeSlice(objectsPerSlice)
        guard !outgoing.isEmpty, let continueLater else { return }
        sliceScheduled = true
        continueLater { [weak self] in self?.writeNextSlice() }
    }

    /// Writes up to `count` objects of the first reply (listing its objects when it starts);
    /// when it is finished, sends it and what waited behind it, up to the next reply.
    private func writeSlice(_ count: Int) {
        let reply: ManagedObjectsReply
        switch outgoing.first {
        case .inProgress(let inProgress)?:
            reply = inProgress
        case .waiting(let call, let root)?:
            reply = ManagedObjectsReply(call: call, objects: managedObjects(under: root))
            outgoing[0] = .inProgress(reply)
        case .ready?, nil:
            return
        }
        guard let finished = reply.writeSlice(count) else { return }
        outgoing[0] = .ready(finished)
        let next = outgoing.firstIndex { if case .ready = $0 { false } else { true } } ?? outgoing.endIndex
        for case .ready(let message) in outgoing[..<next] { connection.send(message) }
        outgoing.removeFirst(next)
    }

    /// Finishes every reply in progress at once and sends what waited behind them: for a loop
    /// about to stop.
    public func finishReplies() {
        while !outgoing.isEmpty { writeSlice(.max) }
    }

    /// An object removed while replies are in progress is left out of them.
    private func noteRemoved(_ path: String) {
        for case .inProgress(let reply) in outgoing { reply.removed.insert(path) }
    }

    private func route(_ message: Message, path: String, member: String) throws(DBusError) -> ReplyBody {
        let interfaces = lookup(path)
        // Looked up only when the call names a standard interface or none, not for every call of
        // an object's own.
        var isManager: Bool { objectManagerPaths.contains(path) }
        let interfaceName =
            message.interface ?? inferInterface(member: member, interfaces: interfaces ?? [], isManager: isManager)

        switch interfaceName {
        case InterfaceDescription.introspectable.name?:
            let node = children(of: path)
            guard node.exists else { throw unknownObject(path) }
            try checkSignature(
                message, InterfaceDescription.introspectable.method(named: "Introspect"), member: member,
                interface: interfaceName)
            return .reply([
                .string(introspect(interfaces: interfaces ?? [], isManager: isManager, children: node.names))
            ])
        case InterfaceDescription.properties.name?:
            guard let interfaces else { throw unknownObject(path) }
            return .reply(.values(try handleProperties(message, member: member, interfaces: interfaces)))
        case InterfaceDescription.objectManager.name? where isManager:
            try checkSignature(
                message, InterfaceDescription.objectManager.method(named: "GetManagedObjects"), member: member,
                interface: interfaceName)
            return .managedObjects(root: path)
        default:
            break
        }

        guard let interfaces else { throw unknownObject(path) }
        let target: ExportedInterface
        if let interfaceName {
            guard let found = interfaces.first(where: { $0.description.name == interfaceName }) else {
                throw DBusError(.unknownInterface, "object \(path) has no interface \(interfaceName)")
            }
            target = found
        } else {
            guard let found = interfaces.first(where: { $0.description.method(named: member) != nil }) else {
                throw DBusError(.unknownMethod, "object \(path) has no method \(member)")
            }
            target = found
        }
        let method = target.description.method(named: member)
        try checkSignature(message, method, member: member, interface: target.description.name)
        let call = MethodCall(message: message, path: path, member: member)
        return .reply(try target.call(call))
    }

    /// The interface a call without one means: the object's own first, then the standard ones.
    private func inferInterface(member: String, interfaces: [ExportedInterface], isManager: Bool) -> String? {
        if let own = interfaces.first(where: { $0.description.method(named: member) != nil }) {
            return own.description.name
        }
        var standard = [InterfaceDescription.introspectable, .properties]
        if isManager { standard.append(.objectManager) }
        return standard.first { $0.method(named: member) != nil }?.name
    }

    private func checkSignature(
        _ message: Message, _ method: InterfaceDescription.Method?, member: String, interface: String?
    ) throws(DBusError) {
        guard let method else {
            throw DBusError(.unknownMethod, "interface \(interface ?? "(none)") has no method \(member)")
        }
        let actual = message.signature
        guard actual == method.inputSignature else {
            throw DBusError(
                .invalidArgs,
                "\(member) takes arguments of signature \"\(method.inputSignature)\", not \"\(actual.debugEscaped)\"")
        }
    }

    private func handleProperties(
        _ message: Message, member: String, interfaces: [ExportedInterface]
    ) throws(DBusError) -> [DBusValue] {
        let declared = InterfaceDescription.properties.method(named: member)
        try checkSignature(message, declared, member: member, interface: InterfaceDescription.properties.name)
        let args = message.arguments()
        let interfaceName = args[0].string ?? ""
        let standard =
            Self.standardInterfaceNames
            + (objectManagerPaths.contains(message.path ?? "") ? [InterfaceDescription.objectManager.name] : [])
        let target = interfaces.first { $0.description.name == interfaceName }
        switch member {
        case "GetAll":
            if let target { return [.vardict(target.allProperties())] }
            if standard.contains(interfaceName) { return [.vardict([:])] }
            throw DBusError(.unknownInterface, "object has no interface \"\(interfaceName.debugEscaped)\"")
        case "Get", "Set":
            let propertyName = args[1].string ?? ""
            guard let target, let property = target.description.property(named: propertyName) else {
                throw DBusError(
                    .unknownProperty,
                    "no property \"\(propertyName.debugEscaped)\" on interface \"\(interfaceName.debugEscaped)\"")
            }
            if member == "Set" {
                throw DBusError(.propertyReadOnly, "property \(property.name) is read-only")
            }
            guard let value = target.property(property.name) else {
                throw DBusError(.failed, "property \(property.name) has no value")
            }
            return [.variant(value)]
        default:
            throw DBusError(.unknownMethod, "no method \(member) on \(InterfaceDescription.properties.name)")
        }
    }

    /// The objects GetManagedObjects lists: every object below `root`, sorted by path.
    private func managedObjects(under root: String) -> [(path: String, interfaces: [ExportedInterface])] {
        let prefix = root == "/" ? "/" : root + "/"
        var found: [(path: String, interfaces: [ExportedInterface])] = objects.compactMap { path, interfaces in
            path.hasPrefix(prefix) ? (path, interfaces) : nil
        }
        for (subtreeRoot, subtree) in subtrees where (subtreeRoot + "/").hasPrefix(prefix) {
            found += subtree.objects().map { (subtreeRoot + "/" + $0.name, $0.interfaces) }
        }
        return found.sorted { $0.path < $1.path }
    }

    private func introspect(interfaces: [ExportedInterface], isManager: Bool, children: [String]) -> String {
        var descriptions = [InterfaceDescription.peer, .introspectable]
        if !interfaces.isEmpty { descriptions.append(.properties) }
        if isManager { descriptions.append(.objectManager) }
        descriptions.append(contentsOf: interfaces.map(\.description))
        return IntrospectionXML.document(interfaces: descriptions, children: children)
    }

    private func unknownObject(_ path: String) -> DBusError {
        DBusError(.unknownObject, "no object at path \(path)")
    }
}
