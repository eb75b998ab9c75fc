import Localization
import RestCore

/// `restctl report`'s page: one self-contained HTML file, charts as inline SVG, one style sheet
/// in the page, no script and nothing loaded from anywhere (its Content-Security-Policy forbids
/// both), light or dark as the reader's system prefers. Its words, dates and the page's `lang` are
/// the reader's language (the installed catalog, `localized`); its numbers keep the full stop of
/// restctl's other output. Pure but for the catalog: restctl reads and writes.
public enum TrainingReport {
    /// The workouts shown whole, newest last; older ones are one table row each.
    static let workoutsInFull = 20

    /// The page for `input`.
    public static func html(_ input: ReportInput) -> String {
        var html = HTMLWriter(capacity: 64 * 1024 + input.sets.count * 8)
        let end = input.untilUSec == 0 ? input.nowUSec : input.untilUSec
        // TRANSLATORS: the report page's title: the first and the last day it covers.
        let title = localized("Training report, %1$s to %2$s", ReportDate.day(input.sinceUSec), ReportDate.day(end))
        html.raw("<!DOCTYPE html>\n<html")
        html.attribute("lang", Localization.language)
        html.raw(
            "><head><meta charset=\"utf-8\">"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                + "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">"
                + "<meta name=\"color-scheme\" content=\"light dark\"><meta name=\"generator\" content=\"restctl report\">"
                + "<title>")
        html.text(title)
        html.raw("</title><style>" + styleSheet + "</style></head><body>\n<header><h1>")
        html.text(localized("Training report"))
        html.raw("</h1><p>")
        let since = ReportDate.minute(input.sinceUSec)
        let until = ReportDate.minute(end)
        let made = ReportDate.minute(input.nowUSec)
        html.text(
            input.exercise.map {
                // TRANSLATORS: under the report's heading: from, to, the one exercise shown, when it was made.
                localized("%1$s to %2$s, local time, %3$s only. Made %4$s.", since, until, $0, made)
            }
                // TRANSLATORS: under the report's heading: from, to, when it was made.
                ?? localized("%1$s to %2$s, local time. Made %3$s.", since, until, made))
        html.raw("</p>")
        guard !input.sets.isEmpty else {
            html.raw("</header>\n<main><p class=\"empty\" id=\"empty\">")
            html.text(
                input.exercise.map {
                    localized(
                        "No sets were recorded in this time for %1$s: there is nothing to chart. Record sets with restctl set, or widen --since.",
                        $0)
                }
                    ?? localized(
                        "No sets were recorded in this time: there is nothing to chart. Record sets with restctl set, or widen --since."
                    ))
            html.raw("</p></main>\n</body></html>\n")
            return html.html
        }
        let model = ReportModel(input)
        summary(input, model: model, into: &html)
        html.raw("<nav>")
        for (anchor, name) in [
            ("volume", localized("Volume")), ("progress", localized("Top sets")), ("rests", localized("Rests")),
            ("recovery", localized("Recovery")), ("heart-rate", localized("Heart rate")),
            ("workouts", localized("Workouts")),
        ] {
            html.raw("<a href=\"#" + anchor + "\">")
            html.text(name)
            html.raw("</a> ")
        }
        html.raw("</nav></header>\n<main>\n")
        var charts = 0
        func nextID() -> String {
            charts += 1
            return "chart-\(charts)"
        }
        volumeSection(model, id: nextID(), into: &html)
        progressSection(model, nextID: nextID, into: &html)
        restsSection(model, id: nextID(), into: &html)
        recoverySection(model, ids: (nextID(), nextID()), into: &html)
        curvesSection(model, nextID: nextID, into: &html)
        workoutsSection(model, into: &html)
        html.raw("</main>\n<footer><p>")
        html.text(
            // TRANSLATORS: %1$s is the unit of weight, kg or lb.
            localized(
                "Made by restctl report from restd’s history. Times are local; weights in %1$s. The page runs no script and loads nothing.",
                model.weights.symbol))
        html.raw("</p></footer>\n</body></html>\n")
        return html.html
    }

    private static func summary(_ input: ReportInput, model: ReportModel, into html: inout HTMLWriter) {
        let volume = input.sets.reduce(0.0) { $0 + (volumeKg($1) ?? 0) }
        let exercises = Set(input.sets.map { ExerciseName.key(of: $0.exercise) }).count
        html.raw("<p class=\"summary\">")
        let sets = localizedPlural("%1$d set", "%1$d sets", count: input.sets.count, input.sets.count)
        let exerciseCount = localizedPlural("%1$d exercise", "%1$d exercises", count: exercises, exercises)
        let weeks = localizedPlural("%1$d week", "%1$d weeks", count: model.weeks.count, model.weeks.count)
        let workouts = localizedPlural(
            "%1$d workout", "%1$d workouts", count: input.workouts.count, input.workouts.count)
        html.text(
            // TRANSLATORS: the report's summary: "12 sets of 3 exercises over 2 weeks, 3400 kg lifted, 2 workouts."
            localized(
                "%1$s of %2$s over %3$s, %4$s lifted, %5$s.", sets, exerciseCount, weeks,
                model.weights.whole(volume) + " " + model.weights.symbol, workouts))
        html.raw("</p>")
    }

    /// A section's start: its heading and what it shows, in a sentence or two.
    private static func openSection(_ id: String, _ heading: String, _ text: String, into html: inout HTMLWriter) {
        html.raw("<section id=\"" + id + "\"><h2>")
        html.text(heading)
        html.raw("</h2><p>")
        html.text(text)
        html.raw("</p>")
    }

    /// A note where a chart would be: why there is none.
    private static func note(_ text: String, into html: inout HTMLWriter) {
        html.raw("<p class=\"empty\">")
        html.text(text)
        html.raw("</p>")
    }

    private static func volumeSection(_ model: ReportModel, id: String, into html: inout HTMLWriter) {
        let series = model.volume.series
        var text = [
            // TRANSLATORS: %1$s is the unit of weight, kg or lb.
            localized(
                "Sets × reps × %1$s, week by week (weeks from Monday), counting every set with both reps and a weight.",
                model.weights.symbol),
            model.volume.byCategory
                ? localized(
                    "Stacked by category, as config.toml (or a FitNotes import) sorts the exercises; an exercise without a category stands alone."
                )
                : localized("Stacked by exercise: no exercise here has a category in config.toml or from an import."),
        ]
        if let last = series.last, last.merged > 1 {
            // TRANSLATORS: how many series of the volume chart are put together as one, named "other".
            text.append(localized("The %1$d smallest are put together as “other”.", last.merged))
        }
        openSection("volume", localized("Volume"), text.joined(separator: " "), into: &html)
        guard !series.isEmpty else {
            note(localized("No set here has both reps and a weight: there is no volume to chart."), into: &html)
            html.raw("</section>\n")
            return
        }
        html.raw("<figure>")
        // TRANSLATORS: a category's name in the volume chart's legend.
        legend(series.map { $0.isCategory ? localized("%1$s (category)", $0.name) : $0.name }, into: &html)
        // With more than two series the table (a column each, a total and the sets) is too wide to
        // sit beside the chart in a window of 1100 px: it goes below it, whole.
        html.raw(series.count > 2 ? "<div class=\"pair stacked\">" : "<div class=\"pair\">")
        ReportCharts.volume(model, id: id, into: &html)
        ReportTables.volume(model, into: &html)
        html.raw("</div></figure></section>\n")
    }

    /// The names of a chart's series beside a square of each one's colour (`colours`: their
    /// places in the palette, by default the first ones in order).
    private static func legend(_ names: [String], colours: [Int]? = nil, into html: inout HTMLWriter) {
        html.raw("<ul class=\"legend\">")
        for (index, name) in names.enumerated() {
            html.raw("<li><span class=\"swatch s\(colours?[index] ?? index)\" aria-hidden=\"true\"></span>")
            html.text(name)
            html.raw("</li>")
        }
        html.raw("</ul>")
    }

    private static func progressSection(_ model: ReportModel, nextID: () -> String, into html: inout HTMLWriter) {
        let progress = model.progress
        let text = [
            progress.weekly
                ? localized(
                    "Per exercise, the top set of each week (a week, as the report spans more than %1$d weeks): the heaviest set not failed, the one of most reps among equally heavy ones.",
                    ProgressModel.dailyUpToWeeks)
                : localized(
                    "Per exercise, the top set of each day: the heaviest set not failed, the one of most reps among equally heavy ones."
                ),
            localized(
                "Circles: its weight, outlined when the set beat a record of its exercise's whole history (the heaviest weight, the most reps at its weight, the estimated one-rep max: restctl records)."
            ),
            localized(
                "Diamonds: the estimated one-rep max by Epley’s formula, weight × (1 + reps ÷ 30), drawn only for sets of %1$d reps or fewer: beyond that the estimate stops being meaningful.",
                ProgressModel.maxRepsForEstimate),
            localized("Below: the top set’s reps."),
        ]
        openSection("progress", localized("Top sets"), text.joined(separator: " "), into: &html)
        guard let first = model.weeks.first, let last = model.weeks.last, !progress.exercises.isEmpty else {
            note(localized("No set here has reps or a weight."), into: &html)
            html.raw("</section>\n")
            return
        }
        legend(
            [
                localized("top set, %1$s", model.weights.symbol),
                localized("estimated one-rep max (Epley), %1$s", model.weights.symbol),
                localized("reps of the top set"),
            ],
            colours: [0, 3, 2], into: &html)
        // Weekly points span whole weeks; daily ones the days from the first top set's to the end of
        // the last one's, so that one day of sets is not drawn against a week still to come.
        let times = progress.exercises.flatMap { $0.points.map(\.atUSec) }
        let time =
            progress.weekly
            ? (start: first, end: LocalPeriods.nextWeek(last))
            : (
                start: LocalCalendar.startOfDay(containing: times.min() ?? first),
                end: LocalCalendar.startOfDay(
                    containing: LocalCalendar.startOfDay(containing: times.max() ?? first) + 36 * 3_600_000_000)
            )
        for exercise in progress.exercises {
            html.raw("<figure><figcaption>")
            html.text(exercise.name)
            html.raw("</figcaption><div class=\"pair\">")
            ReportCharts.progress(
                exercise, weekly: progress.weekly, time: time, weights: model.weights, id: nextID(), into: &html)
            ReportTables.progress(exercise, weekly: progress.weekly, weights: model.weights, into: &html)
            html.raw("</div></figure>")
        }
        html.raw("</section>\n")
    }

    private static func restsSection(_ model: ReportModel, id: String, into html: inout HTMLWriter) {
        let text = [
            localized(
                "Per exercise, the rests planned (after add and sub) against those taken, over the rests ended by the next set, as restctl stats counts them; rests ended with a skip are counted apart."
            ),
            localized(
                "Each box spans the middle half of the rests, the line across it is the median, the whiskers reach the shortest and the longest."
            ),
            localized("“Overran”: taken a second or more longer than planned."),
            // TRANSLATORS: the words after the colons are restd's rest_source values and config keys: kept as they are.
            localized(
                "“Chosen by”: the rule that chose each rest, as rest_source in restctl history --json (given: --rest; exercise and category: config.toml; last_used: the rest last used; default: default_duration; plan: the workout plan)."
            ),
        ]
        openSection("rests", localized("Rests"), text.joined(separator: " "), into: &html)
        guard !model.rests.isEmpty else {
            note(localized("No rest here was ended by the next set."), into: &html)
            html.raw("</section>\n")
            return
        }
        html.raw("<figure>")
        legend([localized("planned"), localized("taken")], into: &html)
        // The table has too many columns to sit beside this chart: it goes below it.
        html.raw("<div class=\"pair stacked\">")
        ReportCharts.rests(model.rests, id: id, into: &html)
        ReportTables.rests(model.rests, into: &html)
        html.raw("</div></figure></section>\n")
    }

    private static func recoverySection(_ model: ReportModel, ids: (String, String), into html: inout HTMLWriter) {
        let recovery = model.recovery
        openSection(
            "recovery", localized("Recovery"),
            localized(
                "Rests followed for recovery with a heart-rate strap (restctl set --until-recovered): HRR60, the drop in heart rate in the minute from the set’s end (the rest’s start), and the time until heart rate first reached the target, week by week."
            ),
            into: &html)
        guard recovery.followedRests > 0 else {
            note(localized("No rest here was followed for recovery with a strap."), into: &html)
            html.raw("</section>\n")
            return
        }
        let bpm: (Double) -> String = ReportNumber.whole
        let clock: (Double) -> String = ReportCharts.clock
        if recovery.hrr60.isEmpty {
            note(
                localized(
                    "No followed rest here has an HRR60 (the strap did not cover the minute from the set’s end)."),
                into: &html)
        } else {
            html.raw("<figure><div class=\"pair\">")
            ReportCharts.weekly(
                recovery.hrr60, allWeeks: model.weeks, kind: "hrr60", id: ids.0, title: localized("HRR60 by week"),
                unit: localized("bpm"), reference: recovery.medianHRR60, format: bpm, seconds: false, into: &html)
            ReportTables.weekly(recovery.hrr60, caption: localized("HRR60 by week, bpm"), format: bpm, into: &html)
            html.raw("</div></figure>")
        }
        if recovery.timeToTarget.isEmpty {
            note(localized("No followed rest here reached its target."), into: &html)
        } else {
            html.raw("<figure><div class=\"pair\">")
            ReportCharts.weekly(
                recovery.timeToTarget, allWeeks: model.weeks, kind: "time-to-target", id: ids.1,
                title: localized("Time to the target heart rate by week"), unit: localized("m:ss"), reference: nil,
                format: clock, seconds: true, into: &html)
            ReportTables.weekly(
                recovery.timeToTarget, caption: localized("Time to target by week, m:ss"), format: clock, into: &html)
            html.raw("</div></figure>")
        }
        html.raw("</section>\n")
    }

    private static func curvesSection(_ model: ReportModel, nextID: () -> String, into html: inout HTMLWriter) {
        let curves = model.curves
        let which =
            curves.dayUSec.map { localized("Each rest followed for recovery on %1$s", ReportDate.day($0)) }
            ?? localized("Each rest followed for recovery on the last day that has one")
        openSection(
            "heart-rate", localized("Heart rate during rests"),
            // TRANSLATORS: the first value is "Each rest followed for recovery on …", the sentence's start.
            localized(
                "%1$s (restctl report --day chooses another day): the smoothed heart rate second by second from the set’s end, the target (dashed across), the minimum rest (dashed up), the hold that ended it (shaded), the lowest heart rate (a diamond), and where restd stopped following it and why.",
                which),
            into: &html)
        guard !curves.curves.isEmpty else {
            note(
                curves.dayUSec.map {
                    localized(
                        "No rest followed for recovery on %1$s has its heart rate kept ([history] heart_rate_keep_days in config.toml).",
                        ReportDate.day($0))
                }
                    ?? localized(
                        "No rest followed for recovery here has its heart rate kept ([history] heart_rate_keep_days in config.toml)."
                    ),
                into: &html)
            html.raw("</section>\n")
            return
        }
        for curve in curves.curves {
            let trace = curve.trace
            html.raw("<figure><figcaption>")
            // TRANSLATORS: a followed rest's caption: which rest (exercise and time), how it ended, after how long.
            html.text(
                localized(
                    "%1$s: %2$s after %3$s", ReportCharts.restName(curve), ReportCharts.endingText(trace.ending),
                    ReportCharts.clock(Double(trace.endedAfterUSec) / 1e6)))
            html.raw("</figcaption><div class=\"pair\">")
            ReportCharts.heartRate(curve, id: nextID(), into: &html)
            ReportTables.heartRate(curve.trace, into: &html)
            html.raw("</div></figure>")
        }
        html.raw("</section>\n")
    }

    private static func workoutsSection(_ model: ReportModel, into html: inout HTMLWriter) {
        let workouts = model.workouts
        openSection(
            "workouts", localized("Workouts"),
            workouts.count > workoutsInFull
                ? localized(
                    "Each workout that ended here, with restd’s summary and its sets; the last %1$d in full, the ones before as their summary alone.",
                    workoutsInFull)
                : localized("Each workout that ended here, with restd’s summary and its sets."),
            into: &html)
        guard !workouts.isEmpty else {
            note(localized("No workout ended here (restctl workout start follows a plan)."), into: &html)
            html.raw("</section>\n")
            return
        }
        let older = workouts.dropLast(workoutsInFull)
        if !older.isEmpty {
            ReportTables.open(
                caption: localized("Earlier workouts"),
                header: [
                    localized("Ended"), localized("workout"), localized("sets"),
                    localized("volume %1$s", model.weights.symbol), localized("time"),
                ], into: &html)
            for workout in older {
                let summary = workout.summary
                ReportTables.row(
                    [
                        ReportDate.minute(summary.endedAtUSec), summary.name,
                        "\(summary.setsDone)/\(summary.setsPlanned)", model.weights.whole(summary.volumeKg),
                        TimeFormat.elapsed(usec: summary.durationUSec),
                    ], textColumns: [1], into: &html)
            }
            ReportTables.close(into: &html)
        }
        for workout in workouts.suffix(workoutsInFull) {
            let summary = workout.summary
            html.raw("<article class=\"workout\"><h3>")
            // TRANSLATORS: a workout's heading: its name, when it started, when it ended (a time).
            html.text(
                localized(
                    "%1$s, %2$s–%3$s", summary.name, ReportDate.minute(summary.startedAtUSec),
                    ReportDate.time(summary.endedAtUSec)))
            html.raw("</h3><p>")
            html.text(summary.line(unit: model.weights.unit))
            html.raw("</p>")
            if workout.sets.isEmpty {
                note(localized("Its sets are outside this report’s time or exercise."), into: &html)
            } else {
                ReportTables.workoutSets(workout.sets, weights: model.weights, into: &html)
            }
            html.raw("</article>")
        }
        html.raw("</section>\n")
    }

    /// The page's one style sheet: the Okabe–Ito palette (told apart with the commonest colour
    /// vision deficiencies), light by default and dark when the system prefers it.
    static let styleSheet = """
        :root{--bg:#fff;--fg:#1b1b1b;--muted:#595959;--grid:#dedede;--axis:#4d4d4d;--panel:#f6f6f6;\
        --s0:#0072b2;--s1:#e69f00;--s2:#009e73;--s3:#d55e00;--s4:#56b4e9;--s5:#cc79a7;--s6:#f0e442;--s7:#000}
        @media (prefers-color-scheme:dark){:root{--bg:#141414;--fg:#e9e9e9;--muted:#ababab;--grid:#353535;\
        --axis:#b5b5b5;--panel:#1f1f1f;--s0:#3d9ee0;--s7:#bdbdbd}}
        *{box-sizing:border-box}
        body{margin:0 auto;max-width:72rem;padding:1rem 1.25rem 3rem;background:var(--bg);color:var(--fg);\
        font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif}
        h1{margin:.2rem 0}h2{margin-top:2.2rem;border-bottom:1px solid var(--grid)}h3{margin:1.4rem 0 .2rem}
        p{max-width:52rem}nav a{margin-right:.9rem;color:inherit}.summary{font-weight:600}
        .empty{padding:.8rem 1rem;background:var(--panel);border-left:4px solid var(--s1)}
        figure{margin:1rem 0}figcaption{font-weight:600;margin-bottom:.2rem}
        .pair{display:grid;grid-template-columns:minmax(0,3fr) minmax(15rem,2fr);gap:1rem;align-items:start}
        .pair.stacked{grid-template-columns:minmax(0,1fr)}.pair.stacked svg.chart{max-width:48rem}
        .pair.stacked .table{justify-self:start;max-width:100%}
        @media (max-width:48rem){.pair{grid-template-columns:1fr}}
        .legend{list-style:none;margin:.3rem 0;padding:0;display:flex;flex-wrap:wrap;gap:.3rem 1rem}
        .swatch{display:inline-block;width:.9em;height:.9em;margin-right:.35em;vertical-align:-.1em;\
        border:1px solid var(--axis)}
        .table{max-height:22rem;overflow:auto;border:1px solid var(--grid)}
        table{border-collapse:collapse;width:100%;font-size:13px;font-variant-numeric:tabular-nums}
        caption{text-align:left;padding:.3rem .5rem;color:var(--muted)}
        th,td{padding:.2rem .5rem;text-align:left;border-top:1px solid var(--grid);white-space:nowrap}
        thead th{position:sticky;top:0;background:var(--panel)}.number{text-align:right}
        svg.chart{width:100%;height:auto;display:block;overflow:visible}
        svg text{fill:var(--fg);font:11px system-ui,sans-serif}svg .tick{fill:var(--muted)}
        svg .axis-title{fill:var(--muted);font-size:11px}svg .note{fill:var(--muted);font-style:italic}
        svg .name{font-size:12px}
        .grid{stroke:var(--grid);stroke-width:1}.axis{stroke:var(--axis);stroke-width:1}
        .whisker{stroke:var(--axis);stroke-width:1.2}.median{stroke:var(--fg);stroke-width:2.2}
        .box{stroke:var(--axis);stroke-width:.8;fill-opacity:.85}
        .trend{fill:none;stroke-width:1.6}.dashed{stroke-dasharray:4 3}
        .limit,.reference,.target,.minimum{stroke:var(--muted);stroke-width:1;stroke-dasharray:5 4}
        .end{stroke:var(--fg);stroke-width:1.2}.hold{fill:var(--s2);fill-opacity:.18}
        .curve{fill:none;stroke:var(--c);stroke-width:1.8}.curve-dot{fill:var(--c)}
        .spread{stroke-width:5;stroke-linecap:round;opacity:.55}
        .point{stroke:var(--bg);stroke-width:1}.record{stroke:var(--fg);stroke-width:2}.bar{stroke:var(--bg);stroke-width:.5}
        .s0{--c:var(--s0)}.s1{--c:var(--s1)}.s2{--c:var(--s2)}.s3{--c:var(--s3)}.s4{--c:var(--s4)}\
        .s5{--c:var(--s5)}.s6{--c:var(--s6)}.s7{--c:var(--s7)}
        .bar,.box,.point,.swatch{fill:var(--c);background:var(--c)}.trend,.spread{stroke:var(--c)}
        article.workout{margin-top:1rem}
        """
}
