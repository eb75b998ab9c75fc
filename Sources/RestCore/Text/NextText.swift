import Localization

/// A timer's `next` as the displays show it after their own "Next: " or "→".
///
/// A workout writes "Next: Bench press" when the exercise changes (and "Squat 4/5" within one);
/// a person may write `--next "Next: Bench press"` too. Every display puts its own word in front
/// (the notification's "Next: " or "Weiter mit: ", a bar's "→"), so a leading "Next:" is dropped
/// first and never said twice.
public enum NextText {
    /// `next` without a leading "Next:" (any case) and the spaces after it.
    public static func subject(_ next: String) -> String {
        guard next.prefix(prefix.count).lowercased() == prefix.lowercased() else { return next }
        return String(next.dropFirst(prefix.count).drop { $0 == " " })
    }

    /// `subject(next)` in `catalog`'s language: a workout's marker of what ends it, written in
    /// English into the timer's `next` (" (last set)", " (last round)"), said in the reader's
    /// words ("Rudern 3/3 (letzter Satz)"); anything else as it was written.
    public static func worded(_ next: String, catalog: Catalog) -> String {
        let subject = subject(next)
        if subject.hasSuffix(lastSet) {
            // TRANSLATORS: what comes after a rest, before the workout's last set: "Rows 3/3 (last set)".
            return catalog.localized("%1$s (last set)", String(subject.dropLast(lastSet.count)))
        }
        if subject.hasSuffix(lastRound) {
            // TRANSLATORS: what comes after a rest, before a superset's round that ends the workout.
            return catalog.localized("%1$s (last round)", String(subject.dropLast(lastRound.count)))
        }
        return subject
    }

    /// What a workout writes before the name of the exercise that comes next.
    public static let prefix = "Next:"
    /// What a workout writes after what comes next, before its last set or last round.
    public static let lastSet = " (last set)"
    public static let lastRound = " (last round)"
}
