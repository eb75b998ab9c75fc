import Localization
import RestCore

/// The tables beside the charts (every value a chart draws, for screen readers and for copying)
/// and the workouts' tables of sets.
enum ReportTables {
    /// Opens a table in its scrolling box: `caption` names it for screen readers; `header` are
    /// its column titles, the first one titling the rows.
    static func open(caption: String, header: [String], into html: inout HTMLWriter) {
        html.raw("<div class=\"table\" tabindex=\"0\"><table><caption>")
        html.text(caption)
        html.raw("</caption><thead><tr>")
        for (index, title) in header.enumerated() {
            html.element("th", title, class: index == 0 ? nil : "number")
        }
        html.raw("</tr></thead><tbody>")
    }

    /// One row: its first cell heads the row, the others are numbers (right-aligned), or text
    /// where `textColumns` says.
    static func row(_ cells: [String], textColumns: Set<Int> = [], into html: inout HTMLWriter) {
        html.raw("<tr>")
        for (index, cell) in cells.enumerated() {
            if index == 0 {
                html.raw("<th scope=\"row\">")
                html.text(cell)
                html.raw("</th>")
            } else {
                html.element("td", cell, class: textColumns.contains(index) ? nil : "number")
            }
        }
        html.raw("</tr>")
    }

    static func close(into html: inout HTMLWriter) { html.raw("</tbody></table></div>") }

    static func volume(_ model: ReportModel, into html: inout HTMLWriter) {
        let series = model.volume.series
        let unit = model.weights.symbol
        open(
            // TRANSLATORS: %1$s is the unit of weight, kg or lb.
            caption: localized("Volume per week, %1$s", unit),
            header: [localized("Week from")] + series.map(\.name) + [localized("total %1$s", unit), localized("sets")],
            into: &html)
        for (index, week) in model.weeks.enumerated() {
            let values = series.map { $0.kgByWeek[index] }
            row(
                [ReportDate.day(week)] + values.map(model.weights.whole)
                    + [model.weights.whole(values.reduce(0, +)), String(model.volume.setsByWeek[index])],
                into: &html)
        }
        close(into: &html)
    }

    static func progress(
        _ exercise: ProgressModel.Exercise, weekly: Bool, weights: ReportWeights, into html: inout HTMLWriter
    ) {
        var header = [weekly ? localized("Week of") : localized("Date")]
        if exercise.hasWeights { header.append(weights.symbol) }
        header.append(localized("reps"))
        // TRANSLATORS: a column: the estimated one-rep max in %1$s, kg or lb.
        if exercise.hasWeights { header.append(localized("e1RM %1$s", weights.symbol)) }
        open(caption: localized("%1$s: top sets", exercise.name), header: header, into: &html)
        for point in exercise.points {
            var cells = [ReportDate.day(point.atUSec)]
            if exercise.hasWeights { cells.append(point.weightKg.map { weights.number($0) } ?? "-") }
            cells.append(point.reps.map { String($0) } ?? "-")
            if exercise.hasWeights {
                cells.append(point.estimatedMaxKg.map { weights.number($0, tenths: true) } ?? "-")
            }
            row(cells, into: &html)
        }
        close(into: &html)
    }

    static func rests(_ spreads: [RestSpread], into html: inout HTMLWriter) {
        open(
            caption: localized("Rests per exercise (m:ss; the middle half in brackets)"),
            header: [
                localized("Exercise"), localized("rests"), localized("planned"), localized("taken"),
                localized("skipped"), localized("overran"), localized("chosen by"),
            ], into: &html)
        for spread in spreads {
            func spreadText(_ numbers: FiveNumbers) -> String {
                ReportCharts.clock(numbers.median) + " (" + ReportCharts.clock(numbers.lowerQuartile) + "–"
                    + ReportCharts.clock(numbers.upperQuartile) + ")"
            }
            row(
                [
                    spread.exercise, String(spread.rests), spreadText(spread.planned), spreadText(spread.taken),
                    String(spread.skipped),
                    ReportNumber.percent(spread.overran, of: spread.rests),
                    spread.sources.map { "\($0.source.isEmpty ? "?" : $0.source) \($0.rests)" }.joined(separator: ", "),
                ], textColumns: [6], into: &html)
        }
        close(into: &html)
    }

    static func weekly(
        _ weeks: [RecoveryModel.Week], caption: String, format: (Double) -> String, into html: inout HTMLWriter
    ) {
        open(
            caption: caption,
            header: [localized("Week from"), localized("rests"), localized("median"), localized("middle half")],
            into: &html)
        for week in weeks {
            row(
                [
                    ReportDate.day(week.startUSec), String(week.rests), format(week.numbers.median),
                    format(week.numbers.lowerQuartile) + "–" + format(week.numbers.upperQuartile),
                ], into: &html)
        }
        close(into: &html)
    }

    /// A followed rest's heart rate every 10 s (the chart has every second).
    static func heartRate(_ trace: HeartRateTrace, into html: inout HTMLWriter) {
        open(
            caption: localized("Heart rate every 10 s, bpm"), header: [localized("Time"), localized("bpm")], into: &html
        )
        for second in stride(from: 0, to: trace.bpm.count, by: 10) {
            row(
                [TimeFormat.clock(seconds: UInt64(second)), trace.bpm[second] == 0 ? "-" : String(trace.bpm[second])],
                into: &html)
        }
        close(into: &html)
    }

    /// A workout's sets, each with the rest after it and the rule that chose that rest.
    static func workoutSets(_ sets: ArraySlice<HistorySet>, weights: ReportWeights, into html: inout HTMLWriter) {
        open(
            caption: localized("Sets and rests"),
            header: [
                localized("Time"), localized("exercise"), localized("set"), localized("volume %1$s", weights.symbol),
                localized("rest planned"), localized("taken"), localized("ended"), localized("chosen by"), "HRR60",
            ], into: &html)
        for set in sets {
            let rest = set.rest
            row(
                [
                    ReportDate.time(set.atUSec), set.exercise, HistoryFormat.work(set, unit: weights.unit),
                    volumeKg(set).map(weights.whole) ?? "-",
                    rest.map { TimeFormat.elapsed(usec: $0.plannedUSec) } ?? "-",
                    rest?.takenUSec.map { TimeFormat.elapsed(usec: $0) } ?? "-",
                    rest.map { HistoryFormat.outcomeText($0.outcome) } ?? "-",
                    rest.map { $0.source.isEmpty ? "-" : $0.source } ?? "-",
                    rest?.recovery?.hrr60BPM.map(ReportNumber.whole) ?? "-",
                ], textColumns: [1, 2, 6, 7], into: &html)
        }
        close(into: &html)
    }
}
