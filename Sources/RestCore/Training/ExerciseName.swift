import Localization

/// An exercise's name as a person types it: trimmed, 1–64 UTF-8 bytes, no control characters.
/// Names are compared case-insensitively (`key`), so "squat", "Squat " and "SQUAT" are one
/// exercise; history keeps the name as first written.
public struct ExerciseName: Sendable, Equatable, Hashable {
    /// The longest name, in UTF-8 bytes.
    public static let maxBytes = 64

    /// The name as written, without surrounding white space.
    public let display: String
    /// What names are compared by: `display` in lower case (`key(of:)`).
    public let key: String

    /// The key of a name already accepted (one read back from the history): the one place that
    /// says an exercise's key is its lower case.
    public static func key(of display: String) -> String { display.lowercased() }

    /// Checks and normalises a caller's name; the refusal is one sentence.
    public init(parsing raw: String) throws(TimerError) {
        let trimmed = Self.trimmed(raw)
        switch TextProblem.of(trimmed, maxBytes: Self.maxBytes, allowsEmpty: false) {
        case .empty:
            throw .invalidArgs(
                localized("the exercise name is empty; give 1 to %1$d bytes of text, as in \"Squat\"", Self.maxBytes))
        case .controlCharacter(let scalar, let position):
            throw .invalidArgs(
                localized(
                    "the exercise name contains a control character (%1$s) at position %2$d; give plain text, as in \"Squat\"",
                    MessageText.codePoint(scalar), position))
        case .tooLong(let bytes, let max):
            throw .invalidArgs(
                localized(
                    "the exercise name %1$s is %2$d bytes long; at most %3$d are allowed", MessageText.quoted(trimmed),
                    bytes, max))
        case nil:
            display = trimmed
            key = Self.key(of: trimmed)
        }
    }

    private static func trimmed(_ raw: String) -> String {
        var scalars = Substring(raw).unicodeScalars[...]
        while let first = scalars.first, first.properties.isWhitespace { scalars = scalars.dropFirst() }
        while let last = scalars.last, last.properties.isWhitespace { scalars = scalars.dropLast() }
        return String(String.UnicodeScalarView(scalars))
    }
}
