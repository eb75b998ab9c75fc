/// A method call as an exported interface receives it.
public struct MethodCall {
    public let message: Message
    /// The object path the call was made on.
    public let path: String
    public let member: String
    /// The body, already checked against the declared input signature.
    public let arguments: [DBusValue]
    /// The caller's unique name.
    public var sender: String { message.sender ?? "" }
}

/// An interface on one object: its description plus the behaviour behind it.
public struct ExportedInterface {
    public let description: InterfaceDescription
    /// Answers a method of the description; throws a D-Bus error to refuse.
    public let call: (MethodCall) throws(DBusError) -> [DBusValue]
    /// The current value of a property of the description.
    public let property: (String) -> DBusValue?

    public init(
        _ description: InterfaceDescription,
        call: @escaping (MethodCall) throws(DBusError) -> [DBusValue] = { call throws(DBusError) in
            throw DBusError(.unknownMethod, "no method \(call.member)")
        },
        property: @escaping (String) -> DBusValue? = { _ in nil }
    ) {
        self.description = description
        self.call = call
        self.property = property
    }

    /// Every property's current value, in declaration order.
    public func allProperties() -> [String: DBusValue] {
        var values: [String: DBusValue] = [:]
        for declared in description.properties {
            if let value = property(declared.name) { values[declared.name] = value }
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

    public init(children: @escaping () -> [String], interfaces: @escaping (String) -> [ExportedInterface]?) {
        self.children = children
        self.interfaces = interfaces
    }
}

/// Serves objects on a connection: routes method calls, and implements Introspectable,
/// Properties and ObjectManager for them (libdbus answers Peer itself).
public final class ObjectServer {
    public let connection: Connection
    private var objects: [String: [ExportedInterface]] = [:]
    private var subtrees: [String: Subtree] = [:]
    private var objectManagerPaths: Set<String> = []

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

    public func unexport(path: String) { objects[path] = nil }

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
            return connection.send(signal)
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
        emitSignal(
            path: manager, interface: InterfaceDescription.objectManager.name, name: "InterfacesAdded",
            arguments: [.objectPath(path), Self.interfacesAndProperties(interfaces)])
    }

    /// Emits InterfacesRemoved for an object that was at `path`.
    public func emitInterfacesRemoved(path: String, interfaces: [String]) {
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

    /// Every object path that exists: registered objects, subtree roots' children.
    private func allObjectPaths() -> [String] {
        var paths = Array(objects.keys)
        for (root, subtree) in subtrees {
            paths.append(contentsOf: subtree.children().map { root + "/" + $0 })
        }
        return paths
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

    private static let standardInterfaceNames = [
        InterfaceDescription.peer.name, InterfaceDescription.introspectable.name, InterfaceDescription.properties.name,
    ]

    private static func interfacesAndProperties(_ interfaces: [ExportedInterface]) -> DBusValue {
        var entries: [DBusValue.DictEntry] = standardInterfaceNames.map { .init(.string($0), .vardict([:])) }
        for interface in interfaces {
            entries.append(.init(.string(interface.description.name), .vardict(interface.allProperties())))
        }
        return .dictionary(key: .string, value: .dictionary(key: .string, value: .variant), entries)
    }

    // MARK: Dispatch

    private func handle(_ message: Message) -> Bool {
        guard message.kind == .methodCall, let path = message.path, let member = message.member else { return false }
        let result: Result<[DBusValue], DBusError>
        do {
            result = .success(try route(message, path: path, member: member))
        } catch {
            result = .failure(error)
        }
        guard !message.noReplyExpected else { return true }
        switch result {
        case .success(let values):
            let reply = message.makeReturn()
            do {
                try reply.append(values)
                connection.send(reply)
            } catch {
                connection.send(message.makeError(DBusError(.failed, "could not encode the reply: \(error.message)")))
            }
        case .failure(let error):
            connection.send(message.makeError(error))
        }
        return true
    }

    private func route(_ message: Message, path: String, member: String) throws(DBusError) -> [DBusValue] {
        let interfaces = lookup(path)
        let isManager = objectManagerPaths.contains(path)
        let interfaceName =
            message.interface ?? inferInterface(member: member, interfaces: interfaces ?? [], isManager: isManager)

        switch interfaceName {
        case InterfaceDescription.introspectable.name?:
            let node = children(of: path)
            guard node.exists else { throw unknownObject(path) }
            try checkSignature(
                message, InterfaceDescription.introspectable.method(named: "Introspect"), member: member,
                interface: interfaceName)
            return [.string(introspect(interfaces: interfaces ?? [], isManager: isManager, children: node.names))]
        case InterfaceDescription.properties.name?:
            guard let interfaces else { throw unknownObject(path) }
            return try handleProperties(message, member: member, interfaces: interfaces)
        case InterfaceDescription.objectManager.name? where isManager:
            try checkSignature(
                message, InterfaceDescription.objectManager.method(named: "GetManagedObjects"), member: member,
                interface: interfaceName)
            return [managedObjects(under: path)]
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
        let call = MethodCall(message: message, path: path, member: member, arguments: message.arguments())
        return try target.call(call)
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

    private func managedObjects(under root: String) -> DBusValue {
        let prefix = root == "/" ? "/" : root + "/"
        var entries: [DBusValue.DictEntry] = []
        for path in allObjectPaths().sorted() where path.hasPrefix(prefix) {
            guard let interfaces = lookup(path) else { continue }
            entries.append(.init(.objectPath(path), Self.interfacesAndProperties(interfaces)))
        }
        return .dictionary(
            key: .objectPath,
            value: .dictionary(key: .string, value: .dictionary(key: .string, value: .variant)), entries)
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
