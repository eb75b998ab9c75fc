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

    /// A duration for a sentence, with the language's unit words and decimal separator:
    /// "14 min 2 s" (`DurationText.readable`), "14 Min. 2 s" in German.
    public static func readable(usec: UInt64, roundingDown: Bool = false) -> String {
        inWords(DurationText.readable(usec, roundingDown: roundingDown))
    }

    /// `DurationText.describe` in the language's unit words: "24 h", "24 Std.".
    public static func described(usec: UInt64) -> String {
        inWords(DurationText.describe(usec))
    }

    /// A range of durations: "1 s to 24 h", "1 s bis 24 Std.".
    public static func range(_ lower: UInt64, _ upper: UInt64) -> String {
        localized("%1$s to %2$s", described(usec: lower), described(usec: upper))
    }

    /// `DurationText`'s "1 h 5 min 1.5 s" in the language's unit words and decimal separator.
    static func inWords(_ text: String) -> String {
        text.split(separator: " ").map { word in
            switch word {
            case "h": localizedInContext("unit of hours", "h")
            case "min": localizedInContext("unit of minutes", "min")
            case "s": localizedInContext("unit of seconds", "s")
            default: word.contains(".") ? HistoryFormat.shownText(String(word)) : String(word)
            }
        }.joined(separator: " ")
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
