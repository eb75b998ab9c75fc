import Localization
import RestCore

/// Checks a `--id` value before it reaches the bus, with the daemon's own rule and sentence.
public enum TimerIDParser {
    /// The id to send: `text` itself. Unlike the D-Bus API, where "" stands for "default" (for
    /// programs), an empty `--id` is refused: it is what `--id "$UNSET"` gives, and a script
    /// with an unset variable must not act on (or cancel) the default timer.
    public static func parse(_ text: String) throws(InputError) -> String {
        guard !text.isEmpty else {
            throw InputError(
                localized("--id is empty; give a timer id, or leave --id out for %1$s", "\"" + defaultID + "\""))
        }
        guard TimerID.isValid(text) else {
            // restd's rule (TimerID), in the reader's words.
            let length = text.unicodeScalars.count
            let range = localized("%1$s to %2$s", 1, TimerID.maxLength)
            throw InputError(
                length > TimerID.maxLength
                    ? localized(
                        "timer id %1$s (%2$d characters) is invalid: use %3$s characters of A-Z, a-z, 0-9, _ and -",
                        MessageText.quoted(text), length, range)
                    : localized(
                        "timer id %1$s is invalid: use %2$s characters of A-Z, a-z, 0-9, _ and -",
                        MessageText.quoted(text),
                        range))
        }
        return text
    }

    /// The timer used when the caller names none.
    public static let defaultID = TimerID.default.rawValue
}
