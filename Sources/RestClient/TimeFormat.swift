import Localization
import RestCore

/// How restctl writes durations, as a clock shows them (instants: `DateText`).
public enum TimeFormat {
    /// `m:ss` below one hour, `h:mm:ss` from one hour on: 0:05, 1:30, 59:59, 1:00:00.
    public static func clock(seconds: UInt64) -> String {
        DigitText.clock(seconds: seconds)
    }

    /// Time left, rounded up to whole seconds: a fresh 90 s timer reads 1:30, and 0:00
    /// appears only once nothing is left.
    public static func countdown(usec: UInt64) -> String {
        clock(seconds: usec / 1_000_000 + (usec % 1_000_000 > 0 ? 1 : 0))
    }

    /// Time gone by, rounded down to whole seconds: overtime reads +0:01 after a full second.
    public static func elapsed(usec: UInt64) -> String {
        clock(seconds: usec / 1_000_000)
    }

    /// A range of durations: "1 s to 24 h", "1 s bis 24 Std.".
    public static func range(_ lower: UInt64, _ upper: UInt64) -> String {
        localized("%1$s to %2$s", DurationText.describe(lower), DurationText.describe(upper))
    }
}

/// `Suggestion.likelyMeant` said in the reader's language: "; did you mean 'rest'?", else "; "
/// and `otherwise`, or nothing.
public enum SuggestionText {
    public static func hint(for typed: String, among known: [String], otherwise: String? = nil) -> String {
        if let meant = Suggestion.likelyMeant(typed, among: known) {
            // TRANSLATORS: after a name restctl does not know: "unknown command 'stat'; did you mean 'stats'?".
            return localized("; did you mean %1$s?", MessageText.name(meant))
        }
        return otherwise.map { "; " + $0 } ?? ""
    }
}
