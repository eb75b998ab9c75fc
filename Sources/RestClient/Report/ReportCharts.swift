import Localization
import RestCore

/// The report's charts, each an inline SVG with its title and description; the tables beside
/// them are `ReportTables`'. Every bar is a `rect` of class `bar`, every point a mark of class
/// `point`, every box a `rect` of class `box`: what the tests count, and the style sheet colours.
enum ReportCharts {
    /// Weekly volume, one bar per week, stacked by series (`s0`…`s7`: the palette's colours).
    static func volume(_ model: ReportModel, id: String, into html: inout HTMLWriter) {
        let weeks = model.weeks
        let series = model.volume.series
        let weights = model.weights
        let totals = weeks.indices.map { week in weights.amount(series.reduce(0) { $0 + $1.kgByWeek[week] }) }
        let frame = PlotFrame(height: 280)
        let y = LinearScale(
            low: 0, high: totals.max() ?? 1, from: frame.plotBottom, to: frame.plotTop, tickCount: 5, wholeNumbers: true
        )
        let band = (frame.plotRight - frame.plotLeft) / Double(max(weeks.count, 1))
        let barWidth = max(band * 0.72, 1)
        let busiest = totals.indices.max { totals[$0] < totals[$1] }
        html.openChart(
            kind: "volume", id: id, height: frame.height,
            title: model.volume.byCategory
                ? localized("Volume per week (sets × reps × %1$s), stacked by category", weights.symbol)
                : localized("Volume per week (sets × reps × %1$s), stacked by exercise", weights.symbol),
            description: [
                localizedPlural(
                    "%1$d week from %2$s", "%1$d weeks from %2$s", count: weeks.count, weeks.count,
                    ReportDate.day(weeks.first ?? 0)),
                busiest.map {
                    // TRANSLATORS: %2$s is a weight with its unit: "3400 kg", "7500 lb".
                    localized(
                        "the largest week, from %1$s, totals %2$s", ReportDate.day(weeks[$0]),
                        ReportNumber.whole(totals[$0]) + " " + weights.symbol)
                } ?? localized("no volume"),
            ].joined(separator: "; ") + ". " + localized("The table beside it gives every value."))
        // TRANSLATORS: an axis title; %1$s is the unit of weight, kg or lb.
        html.yAxis(y, frame: frame, title: localized("%1$s per week", weights.symbol), format: ReportNumber.whole)
        for (week, start) in weeks.enumerated() {
            var base = 0.0
            let x = frame.plotLeft + Double(week) * band + (band - barWidth) / 2
            for (index, item) in series.enumerated() where item.kgByWeek[week] > 0 {
                let top = base + weights.amount(item.kgByWeek[week])
                html.rect(
                    x: x, y: y(top), width: barWidth, height: y(base) - y(top), class: "bar s\(index)",
                    tooltip: localized(
                        "%1$s, week of %2$s: %3$s", item.name, ReportDate.day(start),
                        weights.whole(item.kgByWeek[week]) + " " + weights.symbol))
                base = top
            }
        }
        html.xAxis(weekLabels(weeks, band: band, frame: frame), frame: frame, title: localized("week (from Monday)"))
        html.closeChart()
    }

    /// Week labels under bands of `band` width: every week's, or every n-th so that at most 8 show.
    static func weekLabels(_ weeks: [USec], band: Double, frame: PlotFrame) -> [(x: Double, text: String)] {
        let every = max(1, (weeks.count + 7) / 8)
        return weeks.enumerated().compactMap { index, start in
            guard index % every == 0 else { return nil }
            return (frame.plotLeft + (Double(index) + 0.5) * band, ReportDate.monthDay(start))
        }
    }

    /// One exercise's top sets: weight (circles) with the estimated one-rep max (diamonds) above,
    /// reps below, on one time axis.
    static func progress(
        _ exercise: ProgressModel.Exercise, weekly: Bool, time: (start: USec, end: USec), weights: ReportWeights,
        id: String, into html: inout HTMLWriter
    ) {
        let withWeights = exercise.hasWeights
        let withReps = exercise.hasReps
        let weightHeight = withWeights ? 170.0 : 0
        let repsHeight = withReps ? 110.0 : 0
        let gap = withWeights && withReps ? 44.0 : 0
        var frame = PlotFrame(height: 14 + weightHeight + gap + repsHeight + 34)
        let x = TimeScale(startUSec: time.start, endUSec: time.end, from: frame.plotLeft + 6, to: frame.plotRight - 6)
        let points = exercise.points
        let estimated = points.compactMap(\.estimatedMaxKg)
        var description = [
            weekly
                ? localizedPlural("%1$d week", "%1$d weeks", count: points.count, points.count)
                : localizedPlural("%1$d day", "%1$d days", count: points.count, points.count)
        ]
        if let last = points.last {
            description.append(
                localized(
                    "the last top set, %1$s: %2$s", ReportDate.day(last.atUSec), setText(last, unit: weights.unit)))
        }
        if let best = estimated.max() {
            description.append(
                localized(
                    "the highest estimated one-rep max (Epley, sets of %1$d reps or fewer) is %2$s",
                    ProgressModel.maxRepsForEstimate, weights.text(best, tenths: true)))
        }
        html.openChart(
            kind: "progress", id: id, height: frame.height,
            title: weekly
                ? localized("%1$s: the top set of each week, weight and reps", exercise.name)
                : localized("%1$s: the top set of each day, weight and reps", exercise.name),
            description: description.joined(separator: "; ") + ".")
        if withWeights {
            let amounts = (points.compactMap(\.weightKg) + estimated).map(weights.amount)
            let low = amounts.min() ?? 0
            let high = amounts.max() ?? 1
            let pad = max((high - low) * 0.08, 1)
            var weightFrame = frame
            weightFrame.height = frame.top + weightHeight
            weightFrame.bottom = 0
            let y = LinearScale(
                low: max(low - pad, 0), high: high + pad, from: weightFrame.plotBottom, to: weightFrame.plotTop,
                tickCount: 4)
            html.yAxis(y, frame: weightFrame, title: weights.symbol, format: ReportNumber.shown)
            html.polyline(
                points.compactMap { point in point.weightKg.map { (x(point.atUSec), y(weights.amount($0))) } },
                class: "trend s0")
            html.polyline(
                points.compactMap { point in point.estimatedMaxKg.map { (x(point.atUSec), y(weights.amount($0))) } },
                class: "trend dashed s3")
            for point in points {
                if let estimate = point.estimatedMaxKg {
                    html.point(
                        x: x(point.atUSec), y: y(weights.amount(estimate)), class: "point e1rm s3", diamond: true,
                        tooltip: localized(
                            "%1$s: estimated one-rep max %2$s (Epley)", ReportDate.day(point.atUSec),
                            weights.text(estimate, tenths: true)))
                }
                if let weight = point.weightKg {
                    html.point(
                        x: x(point.atUSec), y: y(weights.amount(weight)),
                        class: point.isRecord ? "point top-set record s0" : "point top-set s0",
                        tooltip: point.isRecord
                            ? localized(
                                "%1$s: %2$s, a record", ReportDate.day(point.atUSec), setText(point, unit: weights.unit)
                            )
                            : localized("%1$s: %2$s", ReportDate.day(point.atUSec), setText(point, unit: weights.unit)))
                }
            }
        }
        if withReps {
            let top = frame.top + weightHeight + gap
            var repsFrame = frame
            repsFrame.top = top
            let reps = points.compactMap { $0.reps.map(Double.init) }
            let high = max(reps.max() ?? 1, 1)
            let y = LinearScale(
                low: 0, high: high, from: repsFrame.plotBottom, to: repsFrame.plotTop, tickCount: 3, wholeNumbers: true)
            html.yAxis(y, frame: repsFrame, title: localized("reps"), format: ReportNumber.whole)
            // Where the estimate stops: above this many reps no one-rep max is drawn.
            let limit = Double(ProgressModel.maxRepsForEstimate)
            if withWeights && high > limit {
                html.line(
                    x1: repsFrame.plotLeft, y1: y(limit), x2: repsFrame.plotRight, y2: y(limit), class: "limit")
                html.label(
                    localized("no estimate above %1$d reps", ProgressModel.maxRepsForEstimate),
                    x: repsFrame.plotRight - 2,
                    y: y(limit) - 4, anchor: "end", class: "note")
            }
            html.polyline(
                points.compactMap { point in point.reps.map { (x(point.atUSec), y(Double($0))) } }, class: "trend s2")
            for point in points {
                guard let count = point.reps else { continue }
                html.point(
                    x: x(point.atUSec), y: y(Double(count)), class: "point reps s2",
                    tooltip: localizedPlural(
                        "%2$s: %1$d rep", "%2$s: %1$d reps", count: Int(count), count, ReportDate.day(point.atUSec)))
            }
            frame = repsFrame
        }
        html.xAxis(
            x.dayTicks().map { (x($0), ReportDate.monthDay($0)) }, frame: frame,
            title: weekly ? localized("date (the top set of each week)") : localized("date (the top set of each day)"))
        html.closeChart()
    }

    /// "5×100 kg", "100 kg", "12 reps", "5×225 lb": a top set.
    static func setText(_ point: ProgressModel.Point, unit: WeightUnit) -> String {
        HistoryFormat.work(
            HistorySet(id: 0, timer: "", atUSec: 0, exercise: "", reps: point.reps, weightKg: point.weightKg),
            unit: unit)
    }

    /// Rests planned against taken, one row per exercise: a box from the lower to the upper
    /// quartile, the median across it, whiskers to the shortest and the longest.
    static func rests(_ spreads: [RestSpread], id: String, into html: inout HTMLWriter) {
        let row = 46.0
        var frame = PlotFrame(height: 14 + Double(spreads.count) * row + 40)
        frame.left = 150
        let longest = spreads.map { max($0.planned.highest, $0.taken.highest) }.max() ?? 60
        let x = LinearScale(
            low: 0, high: longest, from: frame.plotLeft, to: frame.plotRight, tickCount: 6, seconds: true)
        html.openChart(
            kind: "rests", id: id, height: frame.height,
            title: localized("Rests planned against taken, per exercise"),
            description: spreads.map { spread in
                localized(
                    "%1$s: median planned %2$s, taken %3$s", spread.exercise, clock(spread.planned.median),
                    clock(spread.taken.median))
            }.joined(separator: "; ") + ". "
                + localized("Boxes span the middle half of the rests, whiskers the shortest and the longest."))
        for tick in x.ticks {
            html.line(x1: x(tick), y1: frame.plotTop, x2: x(tick), y2: frame.plotBottom, class: "grid")
        }
        for (index, spread) in spreads.enumerated() {
            let top = frame.plotTop + Double(index) * row
            html.label(
                shortened(spread.exercise), x: frame.plotLeft - 8, y: top + row / 2 + 4, anchor: "end", class: "name")
            box(
                spread.planned, y: top + 6, height: 14, x: x, class: "s0",
                what: localized("%1$s, planned", spread.exercise), into: &html)
            box(
                spread.taken, y: top + 24, height: 14, x: x, class: "s1",
                what: localized("%1$s, taken", spread.exercise), into: &html)
        }
        html.xAxis(x.ticks.map { (x($0), clock($0)) }, frame: frame, title: localized("rest (m:ss)"))
        html.closeChart()
    }

    private static func box(
        _ numbers: FiveNumbers, y top: Double, height: Double, x: LinearScale, class colour: String, what: String,
        into html: inout HTMLWriter
    ) {
        let middle = top + height / 2
        html.line(x1: x(numbers.lowest), y1: middle, x2: x(numbers.lowerQuartile), y2: middle, class: "whisker")
        html.line(x1: x(numbers.upperQuartile), y1: middle, x2: x(numbers.highest), y2: middle, class: "whisker")
        // Rests all alike make a box of no width: drawn 8 wide about the median, so that its
        // colour still shows which it is.
        let (left, right) = (x(numbers.lowerQuartile), x(numbers.upperQuartile))
        let width = max(right - left, 8)
        html.rect(
            x: min(left, x(numbers.median) - width / 2), y: top, width: width, height: height, class: "box " + colour,
            tooltip: localized(
                "%1$s: median %2$s, middle half %3$s–%4$s, %5$s to %6$s", what, clock(numbers.median),
                clock(numbers.lowerQuartile), clock(numbers.upperQuartile), clock(numbers.lowest),
                clock(numbers.highest)))
        html.line(x1: x(numbers.median), y1: top - 2, x2: x(numbers.median), y2: top + height + 2, class: "median")
    }

    /// A recovery figure week by week: the median as a point, the middle half as a bar through
    /// it; `reference` a dashed line across (the window's median).
    static func weekly(
        _ weeks: [RecoveryModel.Week], allWeeks: [USec], kind: String, id: String, title: String, unit: String,
        reference: Double?, format: @escaping (Double) -> String, seconds: Bool, into html: inout HTMLWriter
    ) {
        let frame = PlotFrame(height: 220)
        let band = (frame.plotRight - frame.plotLeft) / Double(max(allWeeks.count, 1))
        let low = weeks.map(\.numbers.lowerQuartile).min() ?? 0
        let high = weeks.map(\.numbers.upperQuartile).max() ?? 1
        let pad = max((high - low) * 0.1, seconds ? 5 : 1)
        let y = LinearScale(
            low: max(low - pad, 0), high: high + pad, from: frame.plotBottom, to: frame.plotTop, tickCount: 4,
            seconds: seconds, wholeNumbers: true)
        var description = [localizedPlural("%1$d week", "%1$d weeks", count: weeks.count, weeks.count)]
        if let reference {
            description.append(localized("the median over the whole report is %1$s %2$s", format(reference), unit))
        }
        html.openChart(
            kind: kind, id: id, height: frame.height, title: title,
            description: description.joined(separator: "; ") + ". "
                + localized("Points are each week's median, bars its middle half."))
        html.yAxis(y, frame: frame, title: unit, format: format)
        if let reference {
            html.line(x1: frame.plotLeft, y1: y(reference), x2: frame.plotRight, y2: y(reference), class: "reference")
            html.label(
                localized("median %1$s", format(reference)), x: frame.plotRight - 2, y: y(reference) - 4, anchor: "end",
                class: "note")
        }
        var index = 0
        var line: [(x: Double, y: Double)] = []
        for week in weeks {
            while index < allWeeks.count && allWeeks[index] < week.startUSec { index += 1 }
            let x = frame.plotLeft + (Double(index) + 0.5) * band
            html.line(
                x1: x, y1: y(week.numbers.lowerQuartile), x2: x, y2: y(week.numbers.upperQuartile), class: "spread s4")
            line.append((x, y(week.numbers.median)))
        }
        html.polyline(line, class: "trend s0")
        for (week, point) in zip(weeks, line) {
            html.point(
                x: point.x, y: point.y, class: "point s0",
                tooltip: localizedPlural(
                    "week of %2$s: median %3$s %4$s over %1$d rest", "week of %2$s: median %3$s %4$s over %1$d rests",
                    count: week.rests, week.rests, ReportDate.day(week.startUSec), format(week.numbers.median), unit))
        }
        html.xAxis(
            weekLabels(allWeeks, band: band, frame: frame), frame: frame, title: localized("week (from Monday)"))
        html.closeChart()
    }

    /// One followed rest's heart rate, second by second: the target across, the minimum rest up
    /// it, the hold that ended it shaded, the lowest heart rate marked, and where following ended.
    static func heartRate(_ curve: CurveModel.Curve, id: String, into html: inout HTMLWriter) {
        let trace = curve.trace
        let frame = PlotFrame(height: 230)
        let ended = Double(trace.endedAfterUSec) / 1e6
        let known = trace.bpm.indices.filter { trace.bpm[$0] > 0 }
        let values = known.map { Double(trace.bpm[$0]) } + (trace.targetBPM.map { [$0] } ?? [])
        let y = LinearScale(
            low: max((values.min() ?? 60) - 5, 0), high: (values.max() ?? 180) + 5, from: frame.plotBottom,
            to: frame.plotTop, tickCount: 4, wholeNumbers: true)
        let x = LinearScale(
            low: 0, high: max(ended, Double(max(trace.bpm.count - 1, 1))), from: frame.plotLeft, to: frame.plotRight,
            tickCount: 6, seconds: true)
        let lowest = known.min { trace.bpm[$0] < trace.bpm[$1] }
        var facts = [localized("%1$s after %2$s", endingText(trace.ending), clock(ended))]
        if let target = trace.targetBPM { facts.append(localized("target %1$s bpm", ReportNumber.whole(target))) }
        facts.append(localized("minimum rest %1$s", clock(Double(trace.minimumUSec) / 1e6)))
        facts.append(localized("hold %1$s", clock(Double(trace.holdUSec) / 1e6)))
        if let lowest {
            facts.append(localized("lowest %1$d bpm at %2$s", trace.bpm[lowest], clock(Double(lowest))))
        }
        html.openChart(
            kind: "heart-rate", id: id, height: frame.height,
            title: localized("%1$s: heart rate during the rest", restName(curve)),
            description: facts.joined(separator: "; ") + ".")
        html.yAxis(y, frame: frame, title: localized("bpm"), format: ReportNumber.whole)
        if trace.ending == .recovered {
            let holdStart = max(ended - Double(trace.holdUSec) / 1e6, 0)
            html.rect(
                x: x(holdStart), y: frame.plotTop, width: x(ended) - x(holdStart),
                height: frame.plotBottom - frame.plotTop,
                class: "hold",
                tooltip: localized("the hold: %1$s at or below the target", clock(Double(trace.holdUSec) / 1e6)))
        }
        if let target = trace.targetBPM {
            html.line(x1: frame.plotLeft, y1: y(target), x2: frame.plotRight, y2: y(target), class: "target")
            html.label(
                localized("target %1$s bpm", ReportNumber.whole(target)), x: frame.plotRight - 2, y: y(target) - 4,
                anchor: "end",
                class: "note")
        }
        let minimum = Double(trace.minimumUSec) / 1e6
        html.line(x1: x(minimum), y1: frame.plotTop, x2: x(minimum), y2: frame.plotBottom, class: "minimum")
        // TRANSLATORS: on the heart-rate chart, the line where the minimum rest ends.
        html.label(localized("minimum"), x: x(minimum) + 3, y: frame.plotTop + 10, class: "note")
        // The curve, broken where the heart rate was unknown.
        var segment: [(x: Double, y: Double)] = []
        func flush() {
            if segment.count == 1 {
                html.point(x: segment[0].x, y: segment[0].y, class: "curve-dot s0", tooltip: nil)
            } else {
                html.polyline(segment, class: "curve s0")
            }
            segment = []
        }
        for second in trace.bpm.indices {
            if trace.bpm[second] == 0 {
                if !segment.isEmpty { flush() }
                continue
            }
            segment.append((x(Double(second)), y(Double(trace.bpm[second]))))
        }
        if !segment.isEmpty { flush() }
        if let lowest {
            html.point(
                x: x(Double(lowest)), y: y(Double(trace.bpm[lowest])), class: "point lowest s3", diamond: true,
                tooltip: localized("lowest: %1$d bpm at %2$s", trace.bpm[lowest], clock(Double(lowest))))
        }
        html.line(x1: x(ended), y1: frame.plotTop, x2: x(ended), y2: frame.plotBottom, class: "end")
        html.label(endingText(trace.ending), x: x(ended) - 3, y: frame.plotBottom - 6, anchor: "end", class: "note")
        html.xAxis(x.ticks.map { (x($0), clock($0)) }, frame: frame, title: localized("time into the rest (m:ss)"))
        html.closeChart()
    }

    /// Which rest a heart-rate curve is: its set's exercise and time, else the rest's start.
    static func restName(_ curve: CurveModel.Curve) -> String {
        // TRANSLATORS: a followed rest: the set's exercise, the time of the set.
        curve.set.map { localized("%1$s, %2$s", $0.exercise, ReportDate.time($0.atUSec)) }
            ?? ReportDate.time(curve.trace.startedAtUSec)
    }

    /// Why restd stopped following a rest, in a few words.
    static func endingText(_ ending: HeartRateTrace.Ending) -> String {
        switch ending {
        case .recovered: localized("recovered")
        case .planned: localized("planned maximum")
        case .sensorLost: localized("strap lost, ran to the maximum")
        case .user: localized("skipped")
        case .set: localized("next set")
        case .paused: localized("paused")
        case .removed: localized("timer removed")
        }
    }

    /// m:ss of a number of seconds, rounded down as `stats` and `history` show time gone by.
    static func clock(_ seconds: Double) -> String {
        TimeFormat.elapsed(usec: UInt64(max(seconds, 0) * 1e6))
    }

    /// A name cut to fit the chart's margin (the table and the tooltip have it whole).
    static func shortened(_ name: String, characters: Int = 20) -> String {
        name.count <= characters ? name : String(name.prefix(characters - 1)) + "…"
    }
}
