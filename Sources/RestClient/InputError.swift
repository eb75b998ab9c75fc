/// A command-line value that cannot be used, with one sentence saying why.
public struct InputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The sentence for the user, without a trailing period.
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
