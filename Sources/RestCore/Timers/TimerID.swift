import Localization

/// The name of a timer: 1–64 ASCII letters, digits, underscores and dashes (`bench-press`).
///
/// The rule is strict on purpose: the id names a D-Bus object, whose path element is the id
/// escaped (`RestBus.timerPath(id:)`); a byte outside this set would only make the paths and
/// the sentences harder to read.
public struct TimerID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The validated name.
    public let rawValue: String

    /// The timer used when the caller names none.
    public static let `default` = TimerID(validated: "default")

    /// The longest id accepted, in characters.
    public static let maxLength = 64

    /// Validates `text` as an id; the empty string stands for `TimerID.default`.
    public init(parsing text: String) throws(TimerError) {
        if text.isEmpty {
            self = .default
            return
        }
        guard Self.isValid(text) else {
            let length = text.unicodeScalars.count
            throw .invalidArgs(
                length > Self.maxLength
                    ? localized(
                        "timer id %1$s (%2$d characters) is invalid: use %3$d to %4$d characters of A-Z, a-z, 0-9, _ and -",
                        MessageText.quoted(text), length, 1, Self.maxLength)
                    : localized(
                        "timer id %1$s is invalid: use %2$d to %3$d characters of A-Z, a-z, 0-9, _ and -",
                        MessageText.quoted(text), 1, Self.maxLength))
        }
        rawValue = text
    }

    /// 1 to `maxLength` of A-Z, a-z, 0-9, _ and - (what `init(parsing:)` takes but for "").
    public static func isValid(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= maxLength && text.utf8.allSatisfy(isAllowed)
    }

    private init(validated: String) {
        rawValue = validated
    }

    // Bytes, not Characters: "é" or a fullwidth digit must not slip through.
    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }

    public var description: String { rawValue }

    public static func < (lhs: TimerID, rhs: TimerID) -> Bool {
        // Ids are ASCII, so byte order is the natural, locale-free order, and String's own `<`
        // gives it with a memcmp (a generic comparison of the UTF-8 views costs ~30 times more,
        // and sorting timers is on the path of every notification answer and of start-up).
        lhs.rawValue < rhs.rawValue
    }
}
