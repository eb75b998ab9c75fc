import Localization
import RestCore

/// How `restctl history` writes sets: one line each for people, JSON, or CSV for spreadsheets.
/// Each line starts with the set's id, which `restctl history delete` and `edit` take.
///
///      9  2026-11-23 18:02  Squat        5×100 kg  rest 2:41 of 2:30 (+0:11)
///     10  2026-11-23 18:05  Squat        5×100 kg  failed  rest 1:02 of 3:00 (-1:58), skipped
///     11  2026-11-23 18:07  Bench press  8×60 kg   resting, 2:00 planned
///     12  2026-11-23 18:10  Squat        5×100 kg  rest 1:12 of 3:00 (-1:48), peak ♥162 · HRR60 31 · to target 1:02
public enum HistoryFormat {
    /// One line per set: its id (right-aligned), local time, names and the set's numbers (weights
    /// in `unit`) padded so that rests line up.
    public static func lines(_ sets: [HistorySet], unit: WeightUnit = .kg) -> [String] {
        let ids = sets.map { String($0.id) }
        let idWidth = ids.lazy.map(\.utf8.count).max() ?? 0
        // Each cell is made and measured once: a week is thousands of lines.
        let names = sets.map { (text: $0.exercise, width: DisplayWidth.of($0.exercise)) }
        let works = sets.map { set in
            let text = work(set, unit: unit)
            return (text: text, width: DisplayWidth.of(text))
        }
        let nameWidth = names.lazy.map(\.width).max() ?? 0
        let workWidth = works.lazy.map(\.width).max() ?? 0
        return sets.indices.map { index in
            var line = String(repeating: " ", count: idWidth - ids[index].utf8.count) + ids[index] + "  "
            line += TimeFormat.localMinute(usec: sets[index].atUSec)
            line += "  "
            line += names[index].text
            // The spaces owed since the last cell written, written only before the next one.
            var owed = nameWidth - names[index].width + 2
            if workWidth > 0 {
                if works[index].text.isEmpty {
                    owed += workWidth + 2
                } else {
                    line += String(repeating: " ", count: owed)
                    line += works[index].text
                    owed = workWidth - works[index].width + 2
                }
            }
            if let rest = sets[index].rest {
                line += String(repeating: " ", count: owed)
                line += restText(rest)
            }
            // No line ends in spaces, whatever its last cell ends with (a name read from a file).
            while line.utf8.last == UInt8(ascii: " ") { line.removeLast() }
            return line
        }
    }

    /// "recorded Curl 12×15 kg failed": what `restctl set` says restd recorded, so that a wrong
    /// number (one repeated from the previous set, say) is seen at once.
    public static func recorded(_ set: HistorySet, unit: WeightUnit = .kg) -> String {
        let work = work(set, unit: unit)
        return work.isEmpty
            ? localized("recorded %1$s", set.exercise) : localized("recorded %1$s %2$s", set.exercise, work)
    }

    /// "5×100 kg", "5 reps", "100 kg" (or "5×225 lb" in pounds), with " failed" after a failed
    /// set; "" for none of these.
    // The pieces of a line are joined with +, not interpolated: an interpolation writes each
    // piece through a text stream, thousands of times for a week.
    static func work(_ set: HistorySet, unit: WeightUnit = .kg) -> String {
        var text: String
        switch (set.reps, set.weightKg) {
        case (let reps?, let kg?): text = String(reps) + "×" + weight(kg, unit: unit)
        case (let reps?, nil): text = localizedPlural("%1$d rep", "%1$d reps", count: Int(reps), reps)
        case (nil, let kg?): text = weight(kg, unit: unit)
        case (nil, nil): text = ""
        }
        // TRANSLATORS: after a set's reps and weight in restctl history and set: "5×100 kg failed".
        if set.failed { text += (text.isEmpty ? "" : " ") + localized("failed") }
        return text
    }

    /// The difference is that of the two times as shown (whole seconds), so that the line's
    /// arithmetic holds: "rest 0:00 of 1:43 (-1:43)", never "(-1:42)".
    static func restText(_ rest: HistorySet.Rest) -> String {
        let planned = TimeFormat.elapsed(usec: rest.plannedUSec)
        guard rest.outcome != "open", let taken = rest.takenUSec else {
            // TRANSLATORS: restctl history, a set whose rest is still running: "resting, 2:00 planned".
            return localized("resting, %1$s planned", planned)
        }
        let takenSeconds = taken / 1_000_000
        let plannedSeconds = rest.plannedUSec / 1_000_000
        let difference =
            (takenSeconds < plannedSeconds ? "-" : "+")
            + TimeFormat.clock(
                seconds: takenSeconds < plannedSeconds ? plannedSeconds - takenSeconds : takenSeconds - plannedSeconds)
        var text = localized(
            // TRANSLATORS: restctl history, the rest taken of the rest planned and the difference:
            // "rest 2:41 of 2:30 (+0:11)".
            "rest %1$s of %2$s (%3$s)", TimeFormat.clock(seconds: takenSeconds),
            TimeFormat.clock(seconds: plannedSeconds),
            difference)
        if rest.outcome != "completed" { text += ", " + outcomeText(rest.outcome) }
        if let recovery = rest.recovery.map(RecoveryFields.text), !recovery.isEmpty { text += ", " + recovery }
        return text
    }

    /// How a rest ended, for people: "skipped", "cancelled", "replaced"; an outcome of a newer
    /// restd as it is.
    static func outcomeText(_ outcome: String) -> String {
        switch RestOutcome(rawValue: outcome) {
        // TRANSLATORS: how a rest ended, after it in restctl history: "rest 1:02 of 3:00 (-1:58), skipped".
        case .skipped: localizedInContext("how a rest ended", "skipped")
        case .cancelled: localizedInContext("how a rest ended", "cancelled")
        case .replaced: localizedInContext("how a rest ended", "replaced")
        case .completed: localizedInContext("how a rest ended", "completed")
        case nil: outcome
        }
    }

    /// "+0:11", "-1:58", "+0:00".
    public static func signed(_ usec: Int64) -> String {
        (usec < 0 ? "-" : "+") + TimeFormat.elapsed(usec: usec.magnitude)
    }

    /// "100 kg", "225 lb": a weight kept in kg, read in `unit`, with the language's decimal
    /// separator (`Weight.text`).
    public static func weight(_ kg: Double, unit: WeightUnit) -> String {
        Weight.text(kilograms: kg, in: unit, catalog: .installed)
    }

    /// `number` with the language's decimal separator, for people: "102,5" in German.
    static func shownNumber(_ value: Double) -> String {
        shownText(number(value))
    }

    /// A number written with a dot (`number`'s "102.5"), with the language's decimal separator.
    static func shownText(_ text: String) -> String {
        MessageText.decimal(text, catalog: .installed)
    }

    /// 100, 102.5: no needless ".0".
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    // MARK: JSON and CSV

    /// The sets as one JSON array on one line, one object per set with the keys of the CSV
    /// (durations in µs instead of seconds) and `rest_heart_rate`, always present, null when
    /// unknown:
    /// `{"id":1,"done_at":"2026-11-23T18:02:00.000Z","exercise":"Squat","reps":5,"weight_kg":100,
    /// "failed":false,"timer":"default","rest_planned_usec":150000000,"rest_adjust_usec":0,
    /// "rest_taken_usec":161000000,"rest_overrun_usec":11000000,"rest_paused_usec":0,
    /// "rest_outcome":"completed","rest_source":"last_used","rest_ended_at":"…",
    /// "rest_time_to_target_usec":62000000,"rest_hr_set_end":158.5,…,"rest_rmssd_rejected":0}`.
    /// The `rest_` keys are null when no rest followed; taken, overrun and ended while it is
    /// open; the recovery keys (`RecoveryFields`) for a rest not followed for recovery, and each
    /// one the data do not give. Last `rest_heart_rate`, the trace of a followed rest
    /// (`HeartRateTrace.jsonObject`, by set id in `heartRates`), null for any other.
    /// In pounds (`unit` lb), `weight_lb` follows `weight_kg`.
    public static func json(
        _ sets: [HistorySet], heartRates: [Int64: HeartRateTrace] = [:], unit: WeightUnit = .kg
    ) -> String {
        JSONText.array(sets.map { jsonObject($0, heartRate: heartRates[$0.id], unit: unit) })
    }

    static func jsonObject(_ set: HistorySet, heartRate: HeartRateTrace? = nil, unit: WeightUnit = .kg) -> JSONObject {
        var object = JSONObject()
        object.integer("id", set.id)
        object.instant("done_at", usec: set.atUSec)
        object.text("exercise", set.exercise)
        object.integer("reps", set.reps)
        object.number("weight_kg", set.weightKg)
        if unit == .lb { object.number("weight_lb", set.weightKg.map { Weight.amount(kilograms: $0, in: .lb) }) }
        object.bool("failed", set.failed)
        object.text("timer", set.timer)
        let rest = set.rest
        object.duration("rest_planned_usec", usec: rest?.plannedUSec)
        object.duration("rest_adjust_usec", signedUSec: rest?.adjustUSec)
        object.duration("rest_taken_usec", usec: rest?.takenUSec)
        object.duration("rest_overrun_usec", signedUSec: rest?.overrunUSec)
        object.duration("rest_paused_usec", usec: rest?.pausedUSec)
        object.text("rest_outcome", rest?.outcome)
        object.text("rest_source", rest?.source)
        object.instant("rest_ended_at", usec: rest?.endedAtUSec)
        RecoveryFields.addJSON(rest?.recovery, to: &object)
        object.raw("rest_heart_rate", heartRate?.jsonObject.text)
        return object
    }

    /// The header row of `csvRow`: the keys of the JSON, durations in seconds (`_s`).
    public static let csvHeader =
        "id,done_at,exercise,reps,weight_kg,failed,timer,rest_planned_s,rest_adjust_s,rest_taken_s,rest_overrun_s,"
        + "rest_paused_s,rest_outcome,rest_source,rest_ended_at," + RecoveryFields.csvHeader

    /// `csvHeader` in `unit`: in pounds, `weight_lb` follows `weight_kg`.
    public static func csvHeader(unit: WeightUnit) -> String {
        unit == .lb ? csvHeader.replacing(",weight_kg,", with: ",weight_kg,weight_lb,") : csvHeader
    }

    /// One set as a CSV row (RFC 4180): ISO 8601 UTC times, durations in seconds with
    /// milliseconds, empty cells for what is unknown; in pounds (`unit` lb), `weight_lb` too.
    public static func csvRow(_ set: HistorySet, unit: WeightUnit = .kg) -> String {
        var cells = [
            String(set.id), DateText.iso8601(usec: set.atUSec), csvCell(set.exercise),
            set.reps.map(String.init) ?? "", set.weightKg.map(number) ?? "",
        ]
        if unit == .lb { cells.append(set.weightKg.map { number(Weight.amount(kilograms: $0, in: .lb)) } ?? "") }
        cells += [set.failed ? "true" : "false", csvCell(set.timer)]
        if let rest = set.rest {
            cells +=
                [
                    seconds(rest.plannedUSec), signedSeconds(rest.adjustUSec), rest.takenUSec.map(seconds) ?? "",
                    rest.overrunUSec.map(signedSeconds) ?? "", seconds(rest.pausedUSec), rest.outcome,
                    csvCell(rest.source),
                    rest.endedAtUSec.map { DateText.iso8601(usec: $0) } ?? "",
                ] + RecoveryFields.csvCells(rest.recovery)
        } else {
            cells += Array(repeating: "", count: 8) + RecoveryFields.csvCells(nil)
        }
        return cells.joined(separator: ",")
    }

    /// A cell quoted when it holds a comma, a quote or a line break (quotes doubled).
    static func csvCell(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacing("\"", with: "\"\"") + "\""
    }

    /// -1.5 s as "-1.500".
    static func signedSeconds(_ usec: Int64) -> String {
        (usec < 0 ? "-" : "") + seconds(usec.magnitude)
    }

    /// 161.25 s as "161.250".
    static func seconds(_ usec: UInt64) -> String {
        let millis = (usec + 500) / 1_000
        return DigitText.make(capacity: 32) { text in
            text.number(millis / 1_000)
            text.character(".")
            text.number(millis % 1_000, minimumDigits: 3)
        }
    }
}

/// How `restctl stats` writes the numbers per exercise.
///
///     exercise     sets  rests  skipped  other  planned  taken  overrun
///     Bench press     6      5        0      1     2:00   2:10    +0:10
///     Squat          12     10        1      1     2:30   2:41    +0:11
///
/// When some rests were followed for recovery, three more columns: how many, the median time to
/// the target, and HRR60 by week (the week's Monday, then its median, oldest first):
///
///     exercise  sets  rests  skipped  other  planned  taken  overrun  followed  to target  HRR60 by week
///     Squat       12     10        1      1     2:30   1:20    -1:10         9       1:02  11-16 27, 11-23 31
public enum StatsFormat {
    /// One row per exercise whose figures add up: sets = rests + skipped + other, and planned +
    /// overrun = taken, as shown (the overrun is the difference of the two medians shown, in
    /// whole seconds, as `history`'s lines are).
    public static func lines(_ stats: [ExerciseStatsSnapshot]) -> [String] {
        let withRecovery = stats.contains { $0.recoveryRests > 0 }
        // TRANSLATORS: the column headings of restctl stats.
        var header = [
            localized("exercise"), localized("sets"), localized("rests"), localized("skipped"), localized("other"),
            localized("planned"), localized("taken"), localized("overrun"),
        ]
        let weeksColumn = withRecovery ? header.count + 2 : -1
        if withRecovery { header += [localized("followed"), localized("to target"), localized("HRR60 by week")] }
        let rows = stats.map { entry in
            var row = [
                entry.exercise, String(entry.sets), String(entry.rests), String(entry.skipped), String(entry.other),
            ]
            row += shownTimes(planned: entry.medianPlannedUSec, taken: entry.medianTakenUSec)
            if withRecovery {
                row += [
                    String(entry.recoveryRests),
                    entry.medianTimeToTargetUSec.map { TimeFormat.elapsed(usec: $0) } ?? "-",
                    entry.hrr60Weeks.isEmpty ? "-" : entry.hrr60Weeks.map(weekText).joined(separator: ", "),
                ]
            }
            return row
        }
        let all = [header] + rows
        let widths = (0..<header.count).map { column in all.map { DisplayWidth.of($0[column]) }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { column, cell in
                // Names and the weeks left, numbers right.
                column == 0 || column == weeksColumn
                    ? DisplayWidth.padded(cell, to: widths[column])
                    : DisplayWidth.padded(leading: cell, to: widths[column])
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }
    }

    /// The planned, taken and overrun cells: whole seconds as shown, the overrun their difference.
    static func shownTimes(planned: UInt64?, taken: UInt64?) -> [String] {
        guard let planned, let taken else { return [planned.map { TimeFormat.elapsed(usec: $0) } ?? "-", "-", "-"] }
        let (plannedSeconds, takenSeconds) = (planned / 1_000_000, taken / 1_000_000)
        let overrun = ExerciseStats.difference(takenSeconds, plannedSeconds) * 1_000_000
        return [
            TimeFormat.clock(seconds: plannedSeconds), TimeFormat.clock(seconds: takenSeconds),
            HistoryFormat.signed(overrun),
        ]
    }

    /// "11-23 31": the week's Monday (local month and day) and its median HRR60, whole bpm.
    static func weekText(_ week: ExerciseStats.WeekHRR60) -> String {
        let date = LocalCalendar.parts(of: week.weekStartAtUSec)?.dateText.dropFirst(5) ?? ""
        return "\(date) \(Int(week.medianBPM.rounded()))"
    }

    /// `[{"exercise":"Squat","sets":12,"rests":10,"skipped":1,"other":1,"median_rest_planned_usec":150000000,
    /// "median_rest_taken_usec":161000000,"median_rest_overrun_usec":11000000}]`: the medians of
    /// history's `rest_planned_usec` and `rest_taken_usec` over the rests taken to their end, and
    /// the second minus the first, null without such rests;
    /// then `"recovery_rests":9,"median_time_to_target_usec":62000000,"hrr60_weeks":[{"week_start_at":
    /// "2026-11-22T23:00:00.000Z","median_hrr60":31,"rests":4}]` (the median null when no followed
    /// rest reached its target; weeks as in the text, HRR60 to 0.1 bpm).
    public static func json(_ stats: [ExerciseStatsSnapshot]) -> String {
        JSONText.array(
            stats.map { entry in
                var object = JSONObject()
                object.text("exercise", entry.exercise)
                object.integer("sets", entry.sets)
                object.integer("rests", entry.rests)
                object.integer("skipped", entry.skipped)
                object.integer("other", entry.other)
                object.duration("median_rest_planned_usec", usec: entry.medianPlannedUSec)
                object.duration("median_rest_taken_usec", usec: entry.medianTakenUSec)
                object.duration("median_rest_overrun_usec", signedUSec: entry.medianOverrunUSec)
                object.integer("recovery_rests", entry.recoveryRests)
                object.duration("median_time_to_target_usec", usec: entry.medianTimeToTargetUSec)
                let weeks = entry.hrr60Weeks.map { week in
                    var object = JSONObject()
                    object.instant("week_start_at", usec: week.weekStartAtUSec)
                    object.number("median_hrr60", (week.medianBPM * 10).rounded() / 10)
                    object.integer("rests", week.rests)
                    return object
                }
                object.raw("hrr60_weeks", JSONText.array(weeks))
                return object
            })
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }
}

extension TimeFormat {
    /// An instant as local date and time to the minute: `2026-11-23 18:02`.
    public static func localMinute(usec: UInt64) -> String {
        LocalCalendar.parts(of: usec)?.minuteText ?? DateText.iso8601(usec: usec)
    }
}
