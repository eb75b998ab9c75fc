import Glibc

/// A failed system call: errno and what was being done.
public struct SystemError: Error, CustomStringConvertible, Sendable {
    public let errno: Int32
    public let context: String

    public init(errno: Int32, _ context: String) {
        self.errno = errno
        self.context = context
    }

    public var description: String {
        "\(context): \(String(cString: strerror(errno)))"
    }
}
