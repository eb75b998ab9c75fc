import Localization
import RestCore

/// Everything a notification says, in the reader's language: the texts of restd's catalog
/// (po/*.po), looked up once when restd starts.
///
/// The closures only put a ready-made value into a sentence, so word order stays the
/// translator's choice ("10 s left", "Noch 10 s").
public struct Messages: Sendable {
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
    /// The catalog the texts are from: weights and records are said in it (`Weight.text`,
    /// `PersonalRecord.line`).
    public let catalog: Catalog
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

    /// The texts of `catalog`: the installed one for the language the locale selects, by default.
    public init(catalog: Catalog = .installed) {
        restOver = catalog.localized("Rest over")
        next = { catalog.localized("Next: %1$s", $0) }
        timeLeft = { catalog.localized("%1$s left", $0) }
        endedAgo = { catalog.localized("ended %1$s ago", $0) }
        recoveredIn = { time, bpm in
            bpm.map { catalog.localized("Recovered in %1$s — ♥%2$d", time, $0) }
                ?? catalog.localized("Recovered in %1$s", time)
        }
        heartRateLost = catalog.localized("heart rate lost: full rest")
        workoutDone = catalog.localized("Workout done")
        setsDone = { done, planned in
            catalog.localizedPlural("%1$d/%2$d set", "%1$d/%2$d sets", count: planned, done, planned)
        }
        restTaken = { catalog.localized("rest %1$s", $0) }
        self.catalog = catalog
        units = Units(
            seconds: catalog.localizedInContext("unit of seconds", "s"),
            minutes: catalog.localizedInContext("unit of minutes", "min"),
            hours: catalog.localizedInContext("unit of hours", "h"))
        addThirtySeconds = catalog.localized("+30 s")
        addOneMinute = catalog.localized("+1 min")
        again = catalog.localized("Again")
        cancel = catalog.localized("Cancel")
        dismiss = catalog.localized("Dismiss")
    }

    /// The texts as written in the sources: English.
    public static let english = Messages(catalog: .source)

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

    /// A sum of weights kept in kg, in `unit`, to a tenth, with its fraction only when it has
    /// one: "1360 kg", "1362.5 kg", "2998.4 lb".
    public func volume(kilograms value: Double, in unit: WeightUnit) -> String {
        Weight.text(kilograms: value, in: unit, catalog: catalog, tenths: true)
    }

    /// The record line of a set (`PersonalRecord.line`), weights in `unit`; nil without a record.
    public func recordLine(_ set: SetRecord, records: [PersonalRecord], unit: WeightUnit) -> String? {
        PersonalRecord.line(
            exercise: set.exercise, weightKg: set.weightKg, reps: set.reps, records: records, unit: unit,
            catalog: catalog)
    }
}
