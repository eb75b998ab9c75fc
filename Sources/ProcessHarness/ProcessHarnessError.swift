import Glibc

/// A failure of the harness itself (a program that would not start, a bus that printed no
/// address, a socket that would not bind), not of the program under test. The benchmark and
/// the integration tests report it as it is or wrap it in their own error.
public struct ProcessHarnessError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }

    /// errno as a sentence: "cannot bind /tmp/x: Address already in use".
    public static func system(_ what: String, _ code: Int32 = errno) -> ProcessHarnessError {
        ProcessHarnessError("\(what): \(String(cString: strerror(code)))")
    }
}
