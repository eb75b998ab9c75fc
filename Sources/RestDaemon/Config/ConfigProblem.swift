/// One thing wrong with a configuration file, located as `file:line: reason`.
public struct ConfigProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public let file: String
    /// 1-based; nil when the problem is not on one line (the file cannot be read).
    public let line: Int?
    public let reason: String

    public init(file: String, line: Int?, reason: String) {
        self.file = file
        self.line = line
        self.reason = reason
    }

    public var description: String {
        if let line { return "\(file):\(line): \(reason)" }
        return "\(file): \(reason)"
    }
}

/// A configuration file that cannot be used: every problem found, in line order.
public struct ConfigError: Error, Equatable, Sendable, CustomStringConvertible {
    public let problems: [ConfigProblem]

    public init(_ problems: [ConfigProblem]) { self.problems = problems }

    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
