/// Everything a notification says, in one language.
///
/// A language is one entry of `Messages.table`: to add one, add an entry there (and a test).
/// The closures only put a ready-made value into a sentence, so word order stays the
/// translator's choice ("10 s left", "Noch 10 s").
public struct Messages: Sendable {
    /// The ISO 639-1 code the locale variables select this language with ("en", "de").
    public let code: String
    /// The summary when a rest is over.
    public let restOver: String
    /// The next exercise, in the body: "Next: Bench press".
    public let next: @Sendable (String) -> String
    /// The summary of the pre-alert, given the time left: "10 s left".
    public let timeLeft: @Sendable (String) -> String
    /// How long ago a rest ended that is announced late, given the time: "ended 3 min ago".
    public let endedAgo: @Sendable (String) -> String
    /// Unit symbols for durations in sentences.
    public let units: Units
    /// The label of the action that adds 30 s to an expired timer.
    public let addThirtySeconds: String
    /// The label of the action that restarts the timer with its duration.
    public let again: String
    /// The label of the default action (clicking the notification), which dismisses it.
    public let dismiss: String

    /// Unit symbols: "s", "min", "h".
    public struct Units: Sendable {
        public let seconds: String
        public let minutes: String
        public let hours: String
    }

    public static let english = Messages(
        code: "en",
        restOver: "Rest over",
        next: { "Next: \($0)" },
        timeLeft: { "\($0) left" },
        endedAgo: { "ended \($0) ago" },
        units: Units(seconds: "s", minutes: "min", hours: "h"),
        addThirtySeconds: "+30 s",
        again: "Again",
        dismiss: "Dismiss")

    // The wording of the iOS app behind restd: "Pause beendet! — Weiter mit: Bankdrücken".
    public static let german = Messages(
        code: "de",
        restOver: "Pause beendet",
        next: { "Weiter mit: \($0)" },
        timeLeft: { "Noch \($0)" },
        endedAgo: { "vor \($0) beendet" },
        units: Units(seconds: "s", minutes: "Min.", hours: "Std."),
        addThirtySeconds: "+30 s",
        again: "Nochmal",
        dismiss: "Schließen")

    /// Every language restd speaks; the first is the default.
    public static let table: [Messages] = [english, german]

    /// The messages for an ISO 639-1 code, English when there are none.
    public static func forLanguage(_ code: String) -> Messages {
        table.first { $0.code == code } ?? table[0]
    }

    /// The messages the locale variables select: the first of LC_ALL, LC_MESSAGES and LANG that
    /// is set and not empty decides, as in POSIX. Read directly rather than through setlocale,
    /// so that German works where no German locale is generated. "de_DE.UTF-8", "de_AT@euro"
    /// and "de" all select German; "C", "POSIX" and unknown languages select English.
    public static func forEnvironment(_ variable: (String) -> String?) -> Messages {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let value = variable(name), !value.isEmpty else { continue }
            return forLanguage(languageCode(ofLocale: value))
        }
        return table[0]
    }

    /// The language part of a POSIX locale name: "de_DE.UTF-8@euro" → "de".
    static func languageCode(ofLocale name: String) -> String {
        let end = name.firstIndex { $0 == "_" || $0 == "." || $0 == "@" } ?? name.endIndex
        return name[..<end].lowercased()
    }

    /// A whole number of seconds with the largest units that fit, dropping zero parts:
    /// "42 s", "3 min", "1 min 30 s", "1 h 5 min".
    public func duration(seconds: UInt64) -> String {
        let hours = seconds / 3600
        let minutes = seconds / 60 % 60
        let rest = seconds % 60
        var parts: [String] = []
        if hours > 0 { parts.append("\(hours) \(units.hours)") }
        if minutes > 0 { parts.append("\(minutes) \(units.minutes)") }
        if rest > 0 || parts.isEmpty { parts.append("\(rest) \(units.seconds)") }
        return parts.joined(separator: " ")
    }
}
