import RestCore

/// Checks a `--id` value before it reaches the bus, with the daemon's own rule and sentence.
public enum TimerIDParser {
    /// The id to send: `text` itself, or "default" for the empty string.
    public static func parse(_ text: String) throws(InputError) -> String {
        do {
            return try TimerID(parsing: text).rawValue
        } catch {
            throw InputError(error.message)
        }
    }

    /// The timer used when the caller names none.
    public static let defaultID = TimerID.default.rawValue
}
