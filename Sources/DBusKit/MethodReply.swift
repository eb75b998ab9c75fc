/// What a method answers: its output values, or — for a long list of records — the records as
/// key–value pairs, written into the reply straight from them (`Message.appendVardicts`) instead
/// of being built into a `DBusValue` tree first. Both put the same bytes on the wire.
public enum MethodReply: ExpressibleByArrayLiteral {
    case values([DBusValue])
    /// One `aa{sv}` output: a dictionary per record, its pairs in the order given.
    case records([[(key: String, value: DBusValue)]])

    public init(arrayLiteral values: DBusValue...) { self = .values(values) }

    /// Appends the reply's body to `message`.
    func append(to message: Message) throws(DBusError) {
        switch self {
        case .values(let values): try message.append(values)
        case .records(let records): try message.appendVardicts(records)
        }
    }
}
