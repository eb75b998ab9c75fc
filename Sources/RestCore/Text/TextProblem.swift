/// What is wrong with a text a caller gave (an exercise's name, a label): found once here, and
/// said in one sentence by its checker (`ExerciseName`, `TimerOptions.validateText`), in the
/// language of the program that checks it.
public enum TextProblem: Sendable, Equatable {
    /// Nothing but white space.
    case empty
    /// A control character (general category Cc), at its position counted in Unicode scalars
    /// from 1 (so "\r\n" reports the \r where it is).
    case controlCharacter(Unicode.Scalar, position: Int)
    /// More UTF-8 bytes than `max`.
    case tooLong(bytes: Int, max: Int)

    /// The first problem of `text` for a field that takes at most `maxBytes` bytes; nil when
    /// there is none. Empty is a problem only when `allowsEmpty` is false.
    public static func of(_ text: String, maxBytes: Int, allowsEmpty: Bool) -> TextProblem? {
        if !allowsEmpty, text.isEmpty { return .empty }
        for (offset, scalar) in text.unicodeScalars.enumerated() where scalar.isControlCharacter {
            return .controlCharacter(scalar, position: offset + 1)
        }
        let bytes = text.utf8.count
        return bytes > maxBytes ? .tooLong(bytes: bytes, max: maxBytes) : nil
    }
}
