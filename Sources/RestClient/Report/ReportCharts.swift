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
            title:
                "Volume per week (sets × reps × \(weights.symbol)), stacked by \(model.volume.byCategory ? "category" : "exercise")",
            description: "\(weeks.count) weeks from \(ReportDate.day(weeks.first ?? 0)); "
                + (busiest.map {
                    "the largest week, from \(ReportDate.day(weeks[$0])), totals \(ReportNumber.whole(totals[$0])) \(weights.symbol)"
                } ?? "no volume") + ". The table beside it gives every value.")
        html.yAxis(y, frame: frame, title: "\(weights.symbol) per week", format: ReportNumber.whole)
        for (week, start) in weeks.enumerated() {
            var base = 0.0
            let x = frame.plotLeft + Double(week) * band + (band - barWidth) / 2
            for (index, item) in series.enumerated() where item.kgByWeek[week] > 0 {
                let top = base + weights.amount(item.kgByWeek[week])
                html.rect(
                    x: x, y: y(top), width: barWidth, height: y(base) - y(top), class: "bar s\(index)",
                    tooltip:
                        "\(item.name), week of \(ReportDate.day(start)): \(weights.whole(item.kgByWeek[week])) \(weights.symbol)"
                )
                base = top
            }
        }
        html.xAxis(
            weekLabels(weeks, band: band, frame: frame), frame: frame, title: "week (from Monday)")
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
        let period = weekly ? "week" : "day"
        let estimated = points.compactMap(\.estimatedMaxKg)
        var description = "\(points.count) \(period)s"
        if let last = points.last {
            description += "; the last top set, \(ReportDate.day(last.atUSec)): \(setText(last, unit: weights.unit))"
        }
        if let best = estimated.max() {
            description +=
                "; the highest estimated one-rep max (Epley, sets of 10 reps or fewer) is "
                + weights.text(best, tenths: true)
        }
        html.openChart(
            kind: "progress", id: id, height: frame.height,
            title: "\(exercise.name): the top set of each \(period), weight and reps", description: description + ".")
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
            html.yAxis(y, frame: weightFrame, title: weights.symbol, format: { HistoryFormat.number($0) })
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
                        tooltip: "\(ReportDate.day(point.atUSec)): estimated one-rep max "
                            + "\(weights.text(estimate, tenths: true)) (Epley)")
                }
                if let weight = point.weightKg {
                    html.point(
                        x: x(point.atUSec), y: y(weights.amount(weight)),
                        class: point.isRecord ? "point top-set record s0" : "point top-set s0",
                        tooltip: "\(ReportDate.day(point.atUSec)): \(setText(point, unit: weights.unit))"
                            + (point.isRecord ? ", a record" : ""))
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
            html.yAxis(y, frame: repsFrame, title: "reps", format: ReportNumber.whole)
            // Where the estimate stops: above this many reps no one-rep max is drawn.
            let limit = Double(ProgressModel.maxRepsForEstimate)
            if withWeights && high > limit {
                html.line(
                    x1: repsFrame.plotLeft, y1: y(limit), x2: repsFrame.plotRight, y2: y(limit), class: "limit")
                html.label(
                    "no estimate above \(ProgressModel.maxRepsForEstimate) reps", x: repsFrame.plotRight - 2,
                    y: y(limit) - 4, anchor: "end", class: "note")
            }
            html.polyline(
                points.compactMap { point in point.reps.map { (x(point.atUSec), y(Double($0))) } }, class: "trend s2")
            for point in points {
                guard let count = point.reps else { continue }
                html.point(
                    x: x(point.atUSec), y: y(Double(count)), class: "point reps s2",
                    tooltip: "\(ReportDate.day(point.atUSec)): \(count) reps")
            }
            frame = repsFrame
        }
        html.xAxis(
            x.dayTicks().map { (x($0), ReportDate.monthDay($0)) }, frame: frame,
            title: "date (the top set of each \(period))")
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
            title: "Rests planned against taken, per exercise",
            description: spreads.map { spread in
                "\(spread.exercise): median planned \(clock(spread.planned.median)), taken \(clock(spread.taken.median))"
            }.joined(separator: "; ")
                + ". Boxes span the middle half of the rests, whiskers the shortest and the longest.")
        for tick in x.ticks {
            html.line(x1: x(tick), y1: frame.plotTop, x2: x(tick), y2: frame.plotBottom, class: "grid")
        }
        for (index, spread) in spreads.enumerated() {
            let top = frame.plotTop + Double(index) * row
            html.label(
                shortened(spread.exercise), x: frame.plotLeft - 8, y: top + row / 2 + 4, anchor: "end", class: "name")
            box(
                spread.planned, y: top + 6, height: 14, x: x, class: "s0", what: "\(spread.exercise), planned",
                into: &html)
            box(
                spread.taken, y: top + 24, height: 14, x: x, class: "s1", what: "\(spread.exercise), taken", into: &html
            )
        }
        html.xAxis(x.ticks.map { (x($0), clock($0)) }, frame: frame, title: "rest (m:ss)")
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
            tooltip: "\(what): median \(clock(numbers.median)), middle half \(clock(numbers.lowerQuartile))–"
                + "\(clock(numbers.upperQuartile)), \(clock(numbers.lowest)) to \(clock(numbers.highest))")
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
        var description = "\(weeks.count) weeks"
        if let reference { description += "; the median over the whole report is \(format(reference)) \(unit)" }
        html.openChart(
            kind: kind, id: id, height: frame.height, title: title,
            description: description + ". Points are each week's median, bars its middle half.")
        html.yAxis(y, frame: frame, title: unit, format: format)
        if let reference {
            html.line(x1: frame.plotLeft, y1: y(reference), x2: frame.plotRight, y2: y(reference), class: "reference")
            html.label(
                "median \(format(reference))", x: frame.plotRight - 2, y: y(reference) - 4, anchor: "end",
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
                tooltip: "week of \(ReportDate.day(week.startUSec)): median \(format(week.numbers.median)) \(unit) "
                    + "over \(week.rests) \(week.rests == 1 ? "rest" : "rests")")
        }
        html.xAxis(weekLabels(allWeeks, band: band, frame: frame), frame: frame, title: "week (from Monday)")
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
        let what =
            curve.set.map { "\($0.exercise), \(ReportDate.time($0.atUSec))" } ?? ReportDate.time(trace.startedAtUSec)
        var facts = ["\(endingText(trace.ending)) after \(clock(ended))"]
        if let target = trace.targetBPM { facts.append("target \(ReportNumber.whole(target)) bpm") }
        facts.append("minimum rest \(clock(Double(trace.minimumUSec) / 1e6))")
        facts.append("hold \(clock(Double(trace.holdUSec) / 1e6))")
        if let lowest { facts.append("lowest \(trace.bpm[lowest]) bpm at \(clock(Double(lowest)))") }
        html.openChart(
            kind: "heart-rate", id: id, height: frame.height, title: "\(what): heart rate during the rest",
            description: facts.joined(separator: "; ") + ".")
        html.yAxis(y, frame: frame, title: "bpm", format: ReportNumber.whole)
        if trace.ending == .recovered {
            let holdStart = max(ended - Double(trace.holdUSec) / 1e6, 0)
            html.rect(
                x: x(holdStart), y: frame.plotTop, width: x(ended) - x(holdStart),
                height: frame.plotBottom - frame.plotTop,
                class: "hold", tooltip: "the hold: \(clock(Double(trace.holdUSec) / 1e6)) at or below the target")
        }
        if let target = trace.targetBPM {
            html.line(x1: frame.plotLeft, y1: y(target), x2: frame.plotRight, y2: y(target), class: "target")
            html.label(
                "target \(ReportNumber.whole(target)) bpm", x: frame.plotRight - 2, y: y(target) - 4, anchor: "end",
                class: "note")
        }
        let minimum = Double(trace.minimumUSec) / 1e6
        html.line(x1: x(minimum), y1: frame.plotTop, x2: x(minimum), y2: frame.plotBottom, class: "minimum")
        html.label("minimum", x: x(minimum) + 3, y: frame.plotTop + 10, class: "note")
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
                tooltip: "lowest: \(trace.bpm[lowest]) bpm at \(clock(Double(lowest)))")
        }
        html.line(x1: x(ended), y1: frame.plotTop, x2: x(ended), y2: frame.plotBottom, class: "end")
        html.label(endingText(trace.ending), x: x(ended) - 3, y: frame.plotBottom - 6, anchor: "end", class: "note")
        html.xAxis(x.ticks.map { (x($0), clock($0)) }, frame: frame, title: "time into the rest (m:ss)")
        html.closeChart()
    }

    /// Why restd stopped following a rest, in a few words.
    static func endingText(_ ending: HeartRateTrace.Ending) -> String {
        switch ending {
        case .recovered: "recovered"
        case .planned: "planned maximum"
        case .sensorLost: "strap lost, ran to the maximum"
        case .user: "skipped"
        case .set: "next set"
        case .paused: "paused"
        case .removed: "timer removed"
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
