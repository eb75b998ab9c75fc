/// Following who owns a well-known name on the bus: the match rules go in first
/// (NameOwnerChanged of the name, then the rules of the signals wanted from its owner), then
/// GetNameOwner on the same connection, so that no change of owner can fall between the answer
/// and the signals. restd follows the notification server and BlueZ with it, restctl restd.
public struct BusNameFollowing: Sendable {
    public let name: String
    /// NameOwnerChanged of `name` first, then the rules given.
    public let rules: [String]

    public init(_ name: String, alsoMatching rules: [String] = []) {
        self.name = name
        self.rules = [MessageBus.nameOwnerChangedRule(name: name)] + rules
    }

    /// Adds the rules and asks for the owner without waiting (on an event loop): `ruleRefused`
    /// for each rule the bus refused, then `owner` with the owner's unique name, nil while the
    /// name has none, or the failure of the question.
    public func start(
        on connection: Connection, timeoutMilliseconds: Int32, ruleRefused: @escaping (DBusError) -> Void,
        owner: @escaping (Result<String?, DBusError>) -> Void
    ) {
        for rule in rules {
            connection.callBus("AddMatch", [.string(rule)], timeoutMilliseconds: timeoutMilliseconds) { result in
                if case .failure(let error) = result { ruleRefused(error) }
            }
        }
        connection.callBus("GetNameOwner", [.string(name)], timeoutMilliseconds: timeoutMilliseconds) { result in
            owner(Self.owner(from: result))
        }
    }

    /// The rules, added one by one, waiting for each (a client without an event loop): throws
    /// the first the bus refused. Ask `currentOwner` after them.
    public func addRules(on connection: Connection) throws(DBusError) {
        for rule in rules { try connection.addMatch(rule) }
    }

    /// The owner's unique name, nil while the name has none, waiting for the answer.
    public func currentOwner(on connection: Connection, timeoutMilliseconds: Int32) throws(DBusError) -> String? {
        let question = try Message.methodCall(
            destination: MessageBus.name, path: MessageBus.path, interface: MessageBus.interface,
            member: "GetNameOwner")
        try question.append(.string(name))
        let answer: Result<Message, DBusError>
        do {
            answer = .success(try connection.callBlocking(question, timeoutMilliseconds: timeoutMilliseconds))
        } catch {
            answer = .failure(error)
        }
        return try Self.owner(from: answer).get()
    }

    /// The name's owners before and after ("" for none), when `message` is NameOwnerChanged of it.
    public func ownerChange(in message: Message) -> (oldOwner: String, newOwner: String)? {
        guard let change = message.nameOwnerChange, change.name == name else { return nil }
        return (change.oldOwner, change.newOwner)
    }

    private static func owner(from answer: Result<Message, DBusError>) -> Result<String?, DBusError> {
        switch answer {
        case .success(let reply):
            guard let owner = reply.arguments().first?.string else {
                return .failure(DBusError(.failed, "GetNameOwner returned no name"))
            }
            return .success(owner)
        case .failure(let error) where error.hasName(.nameHasNoOwner): return .success(nil)
        case .failure(let error): return .failure(error)
        }
    }
}
