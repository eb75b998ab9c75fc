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
        do {
            return try TimerID(parsing: text).rawValue
        } catch {
            throw InputError(error.message)
        }
    }

    /// The timer used when the caller names none.
    public static let defaultID = TimerID.default.rawValue
}
