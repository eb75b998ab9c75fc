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

    /// What a workout writes before the name of the exercise that comes next.
    public static let prefix = "Next:"
}
