import RestCore

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
    /// A rest that ended on recovery, given the time it took ("1:12") and the heart rate then,
    /// if known: "Recovered in 1:12 — ♥118".
    public let recoveredIn: @Sendable (_ time: String, _ bpm: Int?) -> String
    /// A rest whose strap was lost: it ran to its planned maximum.
    public let heartRateLost: String
    /// The summary when a workout is over.
    public let workoutDone: String
    /// Sets done of sets planned, in the body of "Workout done": "12/15 sets".
    public let setsDone: @Sendable (_ done: Int, _ planned: Int) -> String
    /// The rest taken in a workout, given the time: "rest 7 min".
    public let restTaken: @Sendable (String) -> String
    /// The separator of a number's fraction: "1362.5 kg", "1362,5 kg".
    public let decimalSeparator: String
    /// Unit symbols for durations in sentences.
    public let units: Units
    /// The label of the action that adds 30 s to an expired timer.
    public let addThirtySeconds: String
    /// The label of the action that adds a minute to an expired timer.
    public let addOneMinute: String
    /// The label of the action that restarts the timer with its duration.
    public let again: String
    /// The label of the action that cancels (removes) the timer.
    public let cancel: String
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
        recoveredIn: { time, bpm in "Recovered in \(time)" + (bpm.map { " — ♥\($0)" } ?? "") },
        heartRateLost: "heart rate lost: full rest",
        workoutDone: "Workout done",
        setsDone: { "\($0)/\($1) sets" },
        restTaken: { "rest \($0)" },
        decimalSeparator: ".",
        units: Units(seconds: "s", minutes: "min", hours: "h"),
        addThirtySeconds: "+30 s",
        addOneMinute: "+1 min",
        again: "Again",
        cancel: "Cancel",
        dismiss: "Dismiss")

    // The wording of the iOS app behind restd: "Pause beendet! — Weiter mit: Bankdrücken".
    public static let german = Messages(
        code: "de",
        restOver: "Pause beendet",
        next: { "Weiter mit: \($0)" },
        timeLeft: { "Noch \($0)" },
        endedAgo: { "vor \($0) beendet" },
        recoveredIn: { time, bpm in "Erholt in \(time)" + (bpm.map { " — ♥\($0)" } ?? "") },
        heartRateLost: "Puls verloren: volle Pause",
        workoutDone: "Training beendet",
        setsDone: { "\($0)/\($1) Sätze" },
        restTaken: { "Pause \($0)" },
        decimalSeparator: ",",
        units: Units(seconds: "s", minutes: "Min.", hours: "Std."),
        addThirtySeconds: "+30 s",
        addOneMinute: "+1 Min.",
        again: "Nochmal",
        cancel: "Abbrechen",
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

    /// A time as a clock shows it, whole seconds rounded down: "0:42", "1:12", "1:05:00".
    public func clock(seconds: UInt64) -> String {
        DigitText.clock(seconds: seconds)
    }

    /// Whole seconds under a minute, else whole minutes (rounded down) and hours: for times that
    /// need no precision, "42 s", "3 min", "1 h 5 min".
    public func roughDuration(seconds: UInt64) -> String {
        duration(seconds: seconds < 60 ? seconds : seconds / 60 * 60)
    }

    /// A weight in kilograms with its fraction only when it has one, to a tenth: "1360 kg",
    /// "1362.5 kg".
    public func kilograms(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        guard tenths.isFinite, abs(tenths) < 1e15 else { return "\(value) kg" }
        let whole = Int64(tenths) / 10
        let fraction = abs(Int64(tenths) % 10)
        return fraction == 0 ? "\(whole) kg" : "\(whole)\(decimalSeparator)\(fraction) kg"
    }
}
