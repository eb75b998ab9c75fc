import RestCore

/// What `restctl import` says: which export it read, what the file held, and what restd added
/// (or, dry, would add).
public enum ImportText {
    /// `strong.csv: a Strong export (found by its header)`.
    public static func format(_ format: ImportFormat, file: String, asked: Bool) -> String {
        "\(file): a \(format.appName) export (\(asked ? "as --from says" : "found by its header"))"
    }

    /// What the file held: `read: 5 sets (1 warm-up) in 2 workouts, 2026-03-02 to 2026-03-05;
    /// skipped 2 cardio rows (distance or time, no reps), 1 rest timer row`.
    public static func read(_ summary: ImportSummary) -> String {
        var line = "read: \(sets(summary.sets, warmups: summary.warmups)) in \(count(summary.workouts, "workout"))"
        if let span = span(summary.earliestUSec, summary.latestUSec) { line += ", \(span)" }
        var skipped: [String] = []
        if summary.cardioRows > 0 {
            skipped.append("\(count(summary.cardioRows, "cardio row")) (distance or time, no reps)")
        }
        if summary.restTimerRows > 0 { skipped.append(count(summary.restTimerRows, "rest timer row")) }
        if summary.emptyRows > 0 { skipped.append("\(count(summary.emptyRows, "empty row")) (no reps, no weight)") }
        if summary.unreadableLines > 0 { skipped.append(count(summary.unreadableLines, "unreadable line")) }
        if !skipped.isEmpty { line += "; skipped " + skipped.joined(separator: ", ") }
        return line
    }

    /// What restd added, or would add, and what was there already.
    public static func outcome(_ outcome: ImportOutcome) -> [String] {
        var lines: [String] = []
        var added =
            "\(outcome.dryRun ? "would add" : "added"): \(sets(outcome.setsAdded, warmups: outcome.warmupsAdded))"
            + " in \(count(outcome.workoutsAdded, "new workout"))"
        if let span = span(outcome.earliestUSec, outcome.latestUSec) { added += ", \(span)" }
        lines.append(added)
        if !outcome.newExercises.isEmpty {
            lines.append("exercises new to restd: " + outcome.newExercises.joined(separator: ", "))
        }
        if !outcome.matchedExercises.isEmpty {
            lines.append("exercises restd knew: " + outcome.matchedExercises.joined(separator: ", "))
        }
        if outcome.alreadyImported > 0 || outcome.alreadyRecorded > 0 {
            lines.append(
                "already there: \(count(outcome.alreadyImported, "set")) imported before, "
                    + "\(count(outcome.alreadyRecorded, "set")) recorded by restd (same exercise, reps and weight "
                    + "that day)")
        }
        if outcome.dryRun { lines.append("dry run: nothing was written") }
        return lines
    }

    /// Why nothing was imported from a file with `count` lines that could not be read.
    public static func unreadLines(_ count: Int, file: String) -> String {
        "\(self.count(count, "line")) of \(file) could not be read (above); nothing was imported: fix "
            + "\(count == 1 ? "it" : "them"), or give --skip-bad-lines to import the rest"
    }

    /// `5 sets (1 warm-up)`.
    static func sets(_ sets: Int, warmups: Int) -> String {
        count(sets, "set") + (warmups > 0 ? " (\(count(warmups, "warm-up")))" : "")
    }

    static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }

    /// `2026-03-02 to 2026-03-05` (local days), or one day.
    static func span(_ earliest: USec?, _ latest: USec?) -> String? {
        guard let earliest, let latest, let first = LocalCalendar.parts(of: earliest)?.dateText,
            let last = LocalCalendar.parts(of: latest)?.dateText
        else { return nil }
        return first == last ? first : "\(first) to \(last)"
    }
}
