import Localization
import RestCore

/// What `restctl import` says: which export it read, what the file held, and what restd added
/// (or, dry, would add).
public enum ImportText {
    /// `strong.csv: a Strong export (found by its header)`.
    public static func format(_ format: ImportFormat, file: String, asked: Bool) -> String {
        asked
            ? localized("%1$s: a %2$s export (as --from says)", file, format.appName)
            : localized("%1$s: a %2$s export (found by its header)", file, format.appName)
    }

    /// What the file held: `read: 5 sets (1 warm-up) in 2 workouts, 2026-03-02 to 2026-03-05;
    /// skipped 2 cardio rows (distance or time, no reps), 1 rest timer row`.
    public static func read(_ summary: ImportSummary) -> String {
        let workouts = localizedPlural("%1$d workout", "%1$d workouts", count: summary.workouts, summary.workouts)
        // TRANSLATORS: restctl import, what the file held: "read: 5 sets (1 warm-up) in 2 workouts".
        var line = localized("read: %1$s in %2$s", sets(summary.sets, warmups: summary.warmups), workouts)
        if let span = span(summary.earliestUSec, summary.latestUSec) { line += ", " + span }
        // Each kind of row passed over, said only when there was one.
        let skipped = [
            (
                summary.cardioRows,
                localizedPlural(
                    "%1$d cardio row (distance or time, no reps)", "%1$d cardio rows (distance or time, no reps)",
                    count: summary.cardioRows, summary.cardioRows)
            ),
            (
                summary.restTimerRows,
                localizedPlural(
                    "%1$d rest timer row", "%1$d rest timer rows", count: summary.restTimerRows, summary.restTimerRows)
            ),
            (
                summary.emptyRows,
                localizedPlural(
                    "%1$d empty row (no reps, no weight)", "%1$d empty rows (no reps, no weight)",
                    count: summary.emptyRows, summary.emptyRows)
            ),
            (
                summary.unreadableLines,
                localizedPlural(
                    "%1$d unreadable line", "%1$d unreadable lines", count: summary.unreadableLines,
                    summary.unreadableLines)
            ),
        ].filter { $0.0 > 0 }.map(\.1)
        // TRANSLATORS: restctl import, after what the file held: "; skipped 2 cardio rows (…), 1 rest timer row".
        if !skipped.isEmpty { line += localized("; skipped %1$s", skipped.joined(separator: ", ")) }
        return line
    }

    /// What restd added, or would add, and what was there already.
    public static func outcome(_ outcome: ImportOutcome) -> [String] {
        var lines: [String] = []
        let sets = sets(outcome.setsAdded, warmups: outcome.warmupsAdded)
        let workouts = localizedPlural(
            "%1$d new workout", "%1$d new workouts", count: outcome.workoutsAdded, outcome.workoutsAdded)
        // TRANSLATORS: restctl import --dry-run: "would add: 5 sets (1 warm-up) in 2 new workouts".
        let wouldAdd = localized("would add: %1$s in %2$s", sets, workouts)
        // TRANSLATORS: restctl import: "added: 5 sets (1 warm-up) in 2 new workouts".
        var added = outcome.dryRun ? wouldAdd : localized("added: %1$s in %2$s", sets, workouts)
        if let span = span(outcome.earliestUSec, outcome.latestUSec) { added += ", " + span }
        lines.append(added)
        if !outcome.newExercises.isEmpty {
            lines.append(localized("exercises new to restd: %1$s", outcome.newExercises.joined(separator: ", ")))
        }
        if !outcome.matchedExercises.isEmpty {
            lines.append(localized("exercises restd knew: %1$s", outcome.matchedExercises.joined(separator: ", ")))
        }
        if outcome.alreadyImported > 0 || outcome.alreadyRecorded > 0 {
            lines.append(
                localized(
                    "already there: %1$s imported before, %2$s recorded by restd (same exercise, reps and weight that day)",
                    setCount(outcome.alreadyImported), setCount(outcome.alreadyRecorded)))
        }
        if outcome.dryRun { lines.append(dryRunNote) }
        return lines
    }

    /// What an import of a file without sets says (with `dryRun`, what it would add).
    public static func nothing(dryRun: Bool) -> [String] {
        dryRun ? [localized("would add: nothing"), dryRunNote] : [localized("added: nothing")]
    }

    /// The last line of `--dry-run`.
    static var dryRunNote: String { localized("dry run: nothing was written") }

    /// Why nothing was imported from a file with `count` lines that could not be read.
    public static func unreadLines(_ count: Int, file: String) -> String {
        localizedPlural(
            "%1$d line of %2$s could not be read (above); nothing was imported: fix it, or give --skip-bad-lines to import the rest",
            "%1$d lines of %2$s could not be read (above); nothing was imported: fix them, or give --skip-bad-lines to import the rest",
            count: count, count, file)
    }

    /// `5 sets (1 warm-up)`.
    static func sets(_ sets: Int, warmups: Int) -> String {
        setCount(sets)
            + (warmups > 0
                ? " (" + localizedPlural("%1$d warm-up", "%1$d warm-ups", count: warmups, warmups) + ")" : "")
    }

    /// `5 sets`.
    static func setCount(_ count: Int) -> String { localizedPlural("%1$d set", "%1$d sets", count: count, count) }

    /// `2026-03-02 to 2026-03-05` (local days), or one day.
    static func span(_ earliest: USec?, _ latest: USec?) -> String? {
        guard let earliest, let latest, let first = LocalCalendar.parts(of: earliest)?.dateText,
            let last = LocalCalendar.parts(of: latest)?.dateText
        else { return nil }
        // TRANSLATORS: a span of local days in restctl import: "2026-03-02 to 2026-03-05".
        return first == last ? first : localized("%1$s to %2$s", first, last)
    }
}
