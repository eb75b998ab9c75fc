import RestCore
import Testing

@testable import RestClient

/// The report's page from plain values: what each chart draws, the numbers behind it, escaping,
/// and the empty page. Times are local noons found through the calendar, so that every set
/// falls on the day and in the week meant, in any zone.
@Suite struct TrainingReportTests {
    /// Local noon of 2026-11-02 (a Monday) plus `days` days, plus `minutes`.
    static func at(day days: Int, minute minutes: Int = 0) -> UInt64 {
        var parts = LocalCalendar.Parts(year: 2026, month: 11, day: 2, hour: 12)
        let monday = LocalCalendar.instant(parts)!
        parts = LocalCalendar.parts(of: UInt64(Int64(monday) + Int64(days) * 86_400_000_000))!
        parts.hour = 12
        parts.minute = 0
        return UInt64(Int64(LocalCalendar.instant(parts)!) + Int64(minutes) * 60_000_000)
    }

    static func set(
        _ exercise: String, day: Int, minute: Int = 0, reps: UInt32? = 5, kg: Double? = 100, failed: Bool = false,
        rest: HistorySet.Rest? = nil
    ) -> HistorySet {
        HistorySet(
            id: Int64(day * 1_000 + minute), timer: "default", atUSec: at(day: day, minute: minute), exercise: exercise,
            reps: reps, weightKg: kg, failed: failed, rest: rest)
    }

    static func input(
        _ sets: [HistorySet], workouts: [WorkoutSnapshot.Summary] = [], categories: [String: String] = [:]
    )
        -> ReportInput
    {
        ReportInput(
            sinceUSec: at(day: -7), untilUSec: 0, nowUSec: at(day: 60), sets: sets, workouts: workouts,
            categories: categories)
    }

    /// How many elements of the chart `kind` (the `number`-th of that kind) have class `name`.
    static func count(_ name: String, in html: String, chart kind: String, number: Int = 0) -> Int {
        let charts = html.ranges(of: "<svg class=\"chart\" data-chart=\"\(kind)\"")
        guard number < charts.count else { return -1 }
        let rest = html[charts[number].upperBound...]
        let body = rest[..<(rest.firstRange(of: "</svg>")?.lowerBound ?? rest.endIndex)]
        return body.matches(of: #/class="([^"]*)"/#).filter {
            $0.output.1.split(separator: " ").contains { $0 == name }
        }
        .count
    }

    /// A top set that beat a record of the whole history is outlined: measured against the sets
    /// before the window too.
    @Test func recordSetsAreMarkedAgainstTheWholeHistory() {
        let earlier = [Self.set("Squat", day: -30, kg: 110)]
        let sets = [
            Self.set("Squat", day: 0, kg: 105),  // not heavier than 110, fewer reps at 105: no record
            Self.set("Squat", day: 1, kg: 112.5),  // heavier than 110: a record
            Self.set("Squat", day: 2, kg: 120, failed: true),  // failed: never
        ]
        var input = Self.input(sets)
        input.earlierSets = earlier
        let html = TrainingReport.html(input)
        #expect(Self.count("top-set", in: html, chart: "progress") == 2)
        #expect(Self.count("record", in: html, chart: "progress") == 1)
        #expect(html.contains(": 5×112.5 kg, a record"))
        // Without the earlier set, the first set of the window beats nothing, the second is a record.
        #expect(Self.count("record", in: TrainingReport.html(Self.input(sets)), chart: "progress") == 1)
    }

    /// In pounds, every weight of the page is: the record marks, axes, tooltips, tables and the
    /// footer that says the unit; no "kg" is left.
    @Test func inPoundsTheWholePageIs() {
        // 102.06 kg is 225 lb, 111.13 kg 245 lb (× 1.1 = 269.5 lb), 61.23 kg 135 lb.
        let sets = [
            Self.set("Squat", day: 0, kg: 102.06), Self.set("Squat", day: 1, reps: 3, kg: 111.13),
            Self.set("Bench", day: 1, minute: 5, reps: 8, kg: 61.23),
        ]
        let workout = WorkoutSnapshot.Summary(
            name: "Legs", startedAtUSec: Self.at(day: 1, minute: -30), endedAtUSec: Self.at(day: 1, minute: 10),
            durationUSec: 40 * 60_000_000, setsDone: 2, setsPlanned: 2, volumeKg: 333.39 + 489.84, totalRestUSec: 0,
            medianRestUSec: 0, abandoned: false)
        var input = Self.input(sets, workouts: [workout])
        input.weightUnit = .lb
        let html = TrainingReport.html(input)
        #expect(html.contains("Times are local; weights in lb."))
        #expect(html.contains(": 3×245 lb, a record"))
        #expect(html.contains("estimated one-rep max 269.5 lb (Epley)"))
        #expect(html.contains(">lb per week<") && html.contains(">e1RM lb<") && html.contains("Volume per week, lb"))
        #expect(html.contains("<td class=\"number\">245</td>") && html.contains("<td class=\"number\">269.5</td>"))
        // 5 × 225 + 3 × 245 + 8 × 135 = 2940 lb in the week of day 0 and 1.
        #expect(html.contains("2940 lb lifted"))
        #expect(html.contains("volume 1814.9 lb"))
        #expect(!html.contains(#/\bkg\b/#), "kilograms left in the page")
        #expect(TrainingReport.html(Self.input(sets)).contains("Times are local; weights in kg."))
    }

    @Test func anEmptyHistorySaysSoAndDrawsNothing() {
        let html = TrainingReport.html(Self.input([]))
        #expect(html.contains("No sets were recorded in this time: there is nothing to chart."))
        #expect(!html.contains("<svg"))
        let one = TrainingReport.html(
            ReportInput(sinceUSec: Self.at(day: 0), untilUSec: 0, nowUSec: Self.at(day: 1), exercise: "Squat", sets: [])
        )
        #expect(one.contains("No sets were recorded in this time for Squat"))
    }

    @Test func namesAreTextEverywhere() {
        let name = "<script>alert(1)</script>"
        let html = TrainingReport.html(
            Self.input(
                [
                    Self.set(
                        name, day: 0,
                        rest: .init(plannedUSec: 90_000_000, source: "<b>", outcome: "completed", takenUSec: 95_000_000)
                    ),
                    Self.set(name, day: 7),
                ],
                workouts: [
                    .init(
                        name: "\"Push\" & 'pull' <day>", startedAtUSec: Self.at(day: 0, minute: -1),
                        endedAtUSec: Self.at(day: 0), durationUSec: 60_000_000, setsDone: 1, setsPlanned: 1,
                        volumeKg: 500, totalRestUSec: 0, medianRestUSec: 0, abandoned: false)
                ], categories: [name.lowercased(): "<i>legs</i>"]))
        #expect(!html.contains("<script"))
        #expect(!html.contains("<b>") && !html.contains("<i>") && !html.contains("<day>"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(html.contains("&quot;Push&quot; &amp; &#39;pull&#39; &lt;day&gt;"))
        #expect(html.contains("&lt;i&gt;legs&lt;/i&gt;"))
        // Scripts could not run even so: the page forbids them.
        #expect(html.contains("content=\"default-src 'none'; style-src 'unsafe-inline'\""))
    }

    @Test func volumeIsStackedByWeekAndCategory() {
        let sets = [
            Self.set("Squat", day: 0), Self.set("Squat", day: 0, minute: 5), Self.set("Bench press", day: 1, kg: 60),
            Self.set("Pull-up", day: 1, minute: 5, kg: nil),
            // Week 2 has no set; week 3 one of Lunge.
            Self.set("Lunge", day: 14, kg: 40),
        ]
        let input = Self.input(sets, categories: ["squat": "legs", "lunge": "legs"])
        let model = ReportModel(input)
        #expect(model.weeks.count == 3)
        #expect(model.volume.series.map(\.name) == ["legs", "Bench press"])
        #expect(model.volume.series[0].kgByWeek == [1_000, 0, 200])
        #expect(model.volume.series[1].kgByWeek == [300, 0, 0])
        #expect(model.volume.setsByWeek == [4, 0, 1])
        let html = TrainingReport.html(input)
        #expect(Self.count("bar", in: html, chart: "volume") == 3)
        #expect(html.contains("Stacked by category"))
        let byExercise = TrainingReport.html(Self.input(sets))
        #expect(
            byExercise.contains(
                "Stacked by exercise: no exercise here has a category in config.toml or from an import."))
    }

    @Test func moreSeriesThanColoursEndInOther() {
        let sets = (0..<10).map { Self.set("Exercise \($0)", day: 0, minute: $0, kg: Double(10 + $0)) }
        let series = ReportModel(Self.input(sets)).volume.series
        #expect(series.count == VolumeModel.maxSeries)
        #expect(series.first?.name == "Exercise 9" && series.last?.name == "other" && series.last?.merged == 3)
        let other: Double = 5 * 10 + 5 * 11 + 5 * 12
        #expect(series.last?.kgByWeek == [other])
    }

    @Test func topSetsAndTheEstimateThatStopsAtTenReps() {
        let sets = [
            Self.set("Squat", day: 0, reps: 5, kg: 100), Self.set("Squat", day: 0, minute: 4, reps: 3, kg: 105),
            Self.set("Squat", day: 0, minute: 8, reps: 5, kg: 105),
            // A failed set is not a top set, however heavy.
            Self.set("Squat", day: 0, minute: 12, reps: 2, kg: 120, failed: true),
            Self.set("Squat", day: 2, reps: 12, kg: 80), Self.set("Squat", day: 9, reps: 1, kg: 130),
            Self.set("Plank", day: 2, reps: 1, kg: nil),
        ]
        let progress = ReportModel(Self.input(sets)).progress
        #expect(!progress.weekly)
        let squat = progress.exercises[0]
        #expect(squat.points.map(\.weightKg) == [105, 80, 130])
        #expect(squat.points.map(\.reps) == [5, 12, 1])
        // Epley: 105 × (1 + 5/30) = 122.5; 12 reps: none; a single: the weight itself.
        #expect(squat.points.map { $0.estimatedMaxKg.map { ($0 * 1_000).rounded() / 1_000 } } == [122.5, nil, 130])
        let html = TrainingReport.html(Self.input(sets))
        #expect(Self.count("top-set", in: html, chart: "progress") == 3)
        #expect(Self.count("e1rm", in: html, chart: "progress") == 2)
        #expect(Self.count("reps", in: html, chart: "progress") == 3)
        #expect(Self.count("limit", in: html, chart: "progress") == 1)
        #expect(html.contains("Epley’s formula, weight × (1 + reps ÷ 30)"))
        // Plank: reps alone, and no line where the estimate stops.
        #expect(Self.count("top-set", in: html, chart: "progress", number: 1) == 0)
        #expect(Self.count("reps", in: html, chart: "progress", number: 1) == 1)
        #expect(Self.count("limit", in: html, chart: "progress", number: 1) == 0)
    }

    @Test func overSixteenWeeksAPointIsAWeeksTopSet() {
        let sets = (0..<17).flatMap { week in
            [Self.set("Squat", day: week * 7, kg: 100), Self.set("Squat", day: week * 7 + 2, kg: 102.5)]
        }
        let progress = ReportModel(Self.input(sets)).progress
        #expect(progress.weekly)
        #expect(progress.exercises[0].points.count == 17)
        #expect(progress.exercises[0].points.allSatisfy { $0.weightKg == 102.5 })
        #expect(ReportModel(Self.input(Array(sets.prefix(32)))).progress.exercises[0].points.count == 32)
    }

    @Test func restsPlannedAgainstTaken() {
        func rest(
            _ planned: UInt64, _ taken: UInt64, _ outcome: String = "completed", _ source: String = "last_used"
        )
            -> HistorySet.Rest
        {
            .init(plannedUSec: planned * 1_000_000, source: source, outcome: outcome, takenUSec: taken * 1_000_000)
        }
        let sets = [
            Self.set("Squat", day: 0, rest: rest(120, 130)), Self.set("Squat", day: 0, minute: 3, rest: rest(120, 121)),
            Self.set("Squat", day: 0, minute: 6, rest: rest(120, 60, "skipped")),
            Self.set("Squat", day: 0, minute: 9, rest: rest(180, 200, "completed", "exercise")),
            // Neither cancelled rests nor open ones count, as in stats.
            Self.set("Squat", day: 0, minute: 12, rest: rest(120, 10, "cancelled")),
            Self.set("Squat", day: 0, minute: 15, rest: .init(plannedUSec: 120_000_000, outcome: "open")),
            Self.set("Bench press", day: 1),
        ]
        let spreads = ReportModel(Self.input(sets)).rests
        #expect(spreads.map(\.exercise) == ["Squat"])
        let squat = spreads[0]
        // The skipped rest is counted apart, as in stats: its length says nothing of the rest needed.
        #expect(squat.rests == 3 && squat.skipped == 1 && squat.overran == 3)
        #expect(squat.taken == FiveNumbers([121, 130, 200]))
        #expect(squat.taken.median == 130 && squat.taken.lowerQuartile == 121 && squat.taken.upperQuartile == 200)
        #expect(squat.sources.map(\.source) == ["last_used", "exercise"] && squat.sources.map(\.rests) == [2, 1])
        let html = TrainingReport.html(Self.input(sets))
        #expect(Self.count("box", in: html, chart: "rests") == 2)
        #expect(
            html.contains("<td class=\"number\">1</td><td class=\"number\">100%</td><td>last_used 2, exercise 1</td>"))
    }

    /// The report and `stats` on the same rests: the same rests taken, skipped apart, and the same
    /// median taken to the second (both rounded down, as time gone by is shown everywhere).
    @Test func theReportCountsAsStatsDo() {
        func rest(_ takenMilliseconds: UInt64, _ outcome: RestOutcome) -> HistorySet.Rest {
            .init(
                plannedUSec: 2_000_000, outcome: outcome.rawValue, takenUSec: takenMilliseconds * 1_000)
        }
        let sets = [
            Self.set("Bench press", day: 0, rest: rest(2_600, .completed)),
            Self.set("Bench press", day: 0, minute: 3, rest: rest(2_700, .completed)),
            Self.set("Bench press", day: 0, minute: 6, rest: rest(900, .skipped)),
        ]
        let stats = ExerciseStats.compute(
            sets.map { set in
                StatsRow(
                    exerciseKey: set.exercise.lowercased(), exercise: set.exercise, plannedUSec: set.rest?.plannedUSec,
                    takenUSec: set.rest?.takenUSec, outcome: set.rest.flatMap { RestOutcome(rawValue: $0.outcome) })
            })[0]
        let spread = ReportModel(Self.input(sets)).rests[0]
        #expect(stats.sets == 3 && stats.rests == 2 && stats.skipped == 1)
        #expect(spread.rests == stats.rests && spread.skipped == stats.skipped)
        #expect(ReportCharts.clock(spread.taken.median) == TimeFormat.elapsed(usec: stats.medianTakenUSec!))
        #expect(ReportCharts.clock(spread.taken.median) == "0:02")
    }

    @Test func fiveNumbers() {
        #expect(FiveNumbers([]) == nil)
        let one = FiveNumbers([7])
        #expect(one?.lowest == 7 && one?.lowerQuartile == 7 && one?.median == 7 && one?.upperQuartile == 7)
        let odd = FiveNumbers([5, 1, 3, 2, 4])
        #expect(odd?.median == 3 && odd?.lowerQuartile == 1.5 && odd?.upperQuartile == 4.5)
        #expect(odd?.lowest == 1 && odd?.highest == 5)
    }

    @Test func hrr60IsSaidAsDocsDefineIt() {
        let html = TrainingReport.html(
            Self.input([
                Self.set(
                    "Squat", day: 0,
                    rest: .init(
                        plannedUSec: 180_000_000, outcome: "completed", takenUSec: 90_000_000,
                        recovery: RecoveryMetrics(hrr60BPM: 20, timeToTargetUSec: nil, rmssdBeats: 0)))
            ]))
        // docs/heart-rate.md: the minute from the set's end, never from a peak.
        #expect(html.contains("HRR60, the drop in heart rate in the minute from the set’s end"))
        #expect(!html.contains("rest’s peak") && !html.contains("after the peak"))
    }

    @Test func recoveryByWeek() {
        func followed(_ hrr60: Double?, _ toTarget: UInt64?) -> HistorySet.Rest {
            .init(
                plannedUSec: 180_000_000, outcome: "completed", takenUSec: 90_000_000,
                recovery: RecoveryMetrics(
                    hrr60BPM: hrr60, timeToTargetUSec: toTarget.map { $0 * 1_000_000 }, rmssdBeats: 30))
        }
        let sets = [
            Self.set("Squat", day: 0, rest: followed(20, 80)),
            Self.set("Squat", day: 0, minute: 4, rest: followed(30, nil)),
            Self.set("Squat", day: 7, rest: followed(nil, 70)), Self.set("Squat", day: 14, rest: followed(40, 60)),
            Self.set("Squat", day: 14, minute: 4),
        ]
        let recovery = ReportModel(Self.input(sets)).recovery
        #expect(recovery.followedRests == 4)
        #expect(recovery.hrr60.map(\.numbers.median) == [25, 40] && recovery.hrr60.map(\.rests) == [2, 1])
        #expect(recovery.timeToTarget.map(\.numbers.median) == [80, 70, 60])
        #expect(recovery.medianHRR60 == 30)
        let html = TrainingReport.html(Self.input(sets))
        #expect(Self.count("point", in: html, chart: "hrr60") == 2)
        #expect(Self.count("reference", in: html, chart: "hrr60") == 1)
        #expect(Self.count("point", in: html, chart: "time-to-target") == 3)
        let none = TrainingReport.html(Self.input([Self.set("Squat", day: 0)]))
        #expect(none.contains("No rest here was followed for recovery with a strap."))
    }

    @Test func workoutsHaveTheirSetsAndTheLastTwentyAreShownWhole() {
        var sets: [HistorySet] = []
        var workouts: [WorkoutSnapshot.Summary] = []
        for day in 0..<22 {
            sets += [Self.set("Squat", day: day, minute: 1), Self.set("Squat", day: day, minute: 3)]
            workouts.append(
                .init(
                    name: "Day \(day)", startedAtUSec: Self.at(day: day), endedAtUSec: Self.at(day: day, minute: 3),
                    durationUSec: 180_000_000, setsDone: 2, setsPlanned: 2, volumeKg: 1_000, totalRestUSec: 0,
                    medianRestUSec: 0, abandoned: false))
        }
        // A set between two workouts belongs to neither.
        sets.insert(Self.set("Curl", day: 4, minute: 30), at: 10)
        let model = ReportModel(Self.input(sets, workouts: workouts))
        #expect(model.workouts.map(\.sets.count) == Array(repeating: 2, count: 22))
        #expect(model.workouts[4].sets.map(\.exercise) == ["Squat", "Squat"])
        let html = TrainingReport.html(Self.input(sets, workouts: workouts))
        #expect(html.matches(of: #/<article class="workout">/#).count == TrainingReport.workoutsInFull)
        #expect(html.contains("<caption>Earlier workouts</caption>"))
        #expect(html.contains("Day 21 done: 2/2 sets in 3 min, volume 1000 kg"))
        #expect(!html.contains("Day 1, "))
    }

    /// One day of sets: the top-set charts span that day, not the week it began; and the reps
    /// axis of reps 0 to 1 has no label twice.
    @Test func oneDayOfDataIsDrawnOverThatDay() {
        let sets = [Self.set("Squat", day: 2), Self.set("Pull-up", day: 2, minute: 5, reps: 1, kg: nil)]
        let html = TrainingReport.html(Self.input(sets))
        let chart = html.ranges(of: "data-chart=\"progress\"").first.map { html[$0.upperBound...] } ?? ""
        let body = chart[..<(chart.firstRange(of: "</svg>")?.lowerBound ?? chart.endIndex)]
        let dayLabels = body.matches(of: #/>(\d\d-\d\d)</text>/#).map { String($0.output.1) }
        let day = LocalCalendar.startOfDay(containing: Self.at(day: 2))
        let next = LocalCalendar.startOfDay(containing: Self.at(day: 3))
        #expect(dayLabels == [ReportDate.monthDay(day), ReportDate.monthDay(next)], "\(dayLabels)")
        #expect(LinearScale(low: 0, high: 1, from: 100, to: 0, tickCount: 3, wholeNumbers: true).ticks == [0, 1])
        #expect(LinearScale(low: 0, high: 1.5, from: 100, to: 0, tickCount: 3, wholeNumbers: true).ticks == [0, 1, 2])
    }

    /// `--exercise`: the workouts it was done in, not those without it.
    @Test func oneExercisesReportListsOnlyItsWorkouts() {
        func workout(_ name: String, day: Int) -> WorkoutSnapshot.Summary {
            .init(
                name: name, startedAtUSec: Self.at(day: day), endedAtUSec: Self.at(day: day, minute: 10),
                durationUSec: 600_000_000, setsDone: 2, setsPlanned: 2, volumeKg: 1_000, totalRestUSec: 0,
                medianRestUSec: 0, abandoned: false)
        }
        // The squats only, as restctl asks restd for them; the workout of day 1 had none.
        let input = ReportInput(
            sinceUSec: Self.at(day: -7), untilUSec: 0, nowUSec: Self.at(day: 60), exercise: "Squat",
            sets: [Self.set("Squat", day: 0, minute: 2)], workouts: [workout("Legs", day: 0), workout("Push", day: 1)])
        #expect(ReportModel(input).workouts.map(\.summary.name) == ["Legs"])
        #expect(!TrainingReport.html(input).contains("Push done"))
    }

    @Test func heartRateCurvesOfOneDay() {
        let followed = HistorySet.Rest(
            plannedUSec: 180_000_000, outcome: "completed", takenUSec: 90_000_000,
            recovery: RecoveryMetrics(hrr60BPM: 30, rmssdBeats: 30))
        let sets = [
            Self.set("Squat", day: 0, rest: followed), Self.set("Squat", day: 7, rest: followed),
            Self.set("Squat", day: 7, minute: 4, rest: followed), Self.set("Bench press", day: 7, minute: 8),
        ]
        func trace(_ set: HistorySet, _ bpm: [UInt8], ending: HeartRateTrace.Ending) -> HeartRateTrace {
            HeartRateTrace(
                setID: set.id, startedAtUSec: set.atUSec, bpm: bpm, targetBPM: 120, minimumUSec: 2_000_000,
                holdUSec: 2_000_000, endedAfterUSec: UInt64(bpm.count - 1) * 1_000_000, ending: ending)
        }
        let traces = [
            trace(sets[0], [150, 140, 130], ending: .recovered),
            // A gap: two pieces of line, and a lone second drawn as a dot.
            trace(sets[1], [160, 150, 0, 140, 135, 0, 0, 125, 0], ending: .set),
            trace(sets[2], [155, 118, 117, 116], ending: .recovered),
        ]
        let html = TrainingReport.html(
            ReportInput(
                sinceUSec: Self.at(day: -7), untilUSec: 0, nowUSec: Self.at(day: 60), sets: sets, heartRates: traces))
        // The last day with a trace: the two rests of day 7.
        #expect(html.contains("Each rest followed for recovery on \(ReportDate.day(Self.at(day: 7)))"))
        #expect(Self.count("curve", in: html, chart: "heart-rate") == 2)
        #expect(Self.count("curve-dot", in: html, chart: "heart-rate") == 1)
        #expect(Self.count("hold", in: html, chart: "heart-rate") == 0)
        #expect(Self.count("lowest", in: html, chart: "heart-rate") == 1)
        #expect(Self.count("curve", in: html, chart: "heart-rate", number: 1) == 1)
        #expect(Self.count("hold", in: html, chart: "heart-rate", number: 1) == 1)
        #expect(Self.count("target", in: html, chart: "heart-rate", number: 1) == 1)
        #expect(Self.count("curve", in: html, chart: "heart-rate", number: 2) == -1)
        #expect(
            html.contains("next set after 0:08; target 120 bpm; minimum rest 0:02; hold 0:02; lowest 125 bpm at 0:07."))
        // Another day, asked for.
        let first = TrainingReport.html(
            ReportInput(
                sinceUSec: Self.at(day: -7), untilUSec: 0, nowUSec: Self.at(day: 60), sets: sets, heartRates: traces,
                curveDayUSec: Self.at(day: 0, minute: 300)))
        #expect(Self.count("curve", in: first, chart: "heart-rate") == 1)
        #expect(Self.count("curve", in: first, chart: "heart-rate", number: 1) == -1)
        // A report of another exercise draws none of them.
        let bench = TrainingReport.html(
            ReportInput(
                sinceUSec: Self.at(day: -7), untilUSec: 0, nowUSec: Self.at(day: 60), exercise: "Bench press",
                sets: [sets[3]], heartRates: traces))
        #expect(!bench.contains("data-chart=\"heart-rate\""))
        #expect(bench.contains("No rest followed for recovery here has its heart rate kept"))
    }

    @Test func numbers() {
        #expect(ReportNumber.fixed(12, decimals: 1) == "12")
        #expect(ReportNumber.fixed(12.25, decimals: 1) == "12.3")
        #expect(ReportNumber.fixed(-0.04, decimals: 1) == "0")
        #expect(ReportNumber.fixed(-3.5, decimals: 2) == "-3.5")
        #expect(ReportNumber.fixed(0.05, decimals: 2) == "0.05")
        #expect(ReportNumber.fixed(.nan, decimals: 1) == "0")
        #expect(ReportNumber.percent(1, of: 3) == "33%" && ReportNumber.percent(0, of: 0) == "-")
    }

    @Test func scalesHaveRoundTicks() {
        let kg = LinearScale(low: 0, high: 1_234, from: 200, to: 0)
        #expect(kg.ticks == [0, 500, 1_000, 1_500])
        #expect(kg(kg.low) == 200 && kg(kg.high) == 0)
        let rests = LinearScale(low: 0, high: 200, from: 0, to: 100, tickCount: 6, seconds: true)
        #expect(rests.ticks == [0, 60, 120, 180, 240])
        #expect(
            LinearScale.roundStep(0.3) == 0.5 && LinearScale.roundStep(7) == 10 && LinearScale.roundStep(150) == 200)
    }
}
