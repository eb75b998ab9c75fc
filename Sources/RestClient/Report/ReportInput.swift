import RestCore

/// What the training report is made of, as restctl read it from restd's History: plain values,
/// so that the page is made without I/O (`TrainingReport.html`) and tested without restd.
public struct ReportInput: Sendable {
    /// The window asked for, [since, until); until 0 means up to now.
    public var sinceUSec: UInt64
    public var untilUSec: UInt64
    /// When the report is made: the end of a window without one, and the page says it.
    public var nowUSec: UInt64
    /// The one exercise asked for (`--exercise`), as written; nil for every exercise.
    public var exercise: String?
    /// The sets of the window, oldest first (only those of `exercise` when it is given).
    public var sets: [HistorySet]
    /// The sets before the window, oldest first: what the records of the window's sets are
    /// measured against (a record is one over the whole history).
    public var earlierSets: [HistorySet]
    /// The workouts that ended in the window, oldest first.
    public var workouts: [WorkoutSnapshot.Summary]
    /// Each exercise's category in config.toml, by the exercise's key (its name in lower case).
    public var categories: [String: String]
    /// The heart-rate traces of followed rests, oldest first: those of `curveDayUSec`'s day are
    /// drawn, or of the last day among them.
    public var heartRates: [HeartRateTrace]
    /// An instant of the local day whose rests get a heart-rate curve each; nil for the last day
    /// of `heartRates`.
    public var curveDayUSec: UInt64?
    /// The unit weights are shown in (the Manager's `WeightUnit`); the page says which.
    public var weightUnit: WeightUnit

    public init(
        sinceUSec: UInt64, untilUSec: UInt64, nowUSec: UInt64, exercise: String? = nil, sets: [HistorySet],
        earlierSets: [HistorySet] = [], workouts: [WorkoutSnapshot.Summary] = [], categories: [String: String] = [:],
        heartRates: [HeartRateTrace] = [], curveDayUSec: UInt64? = nil, weightUnit: WeightUnit = .kg
    ) {
        self.sinceUSec = sinceUSec
        self.untilUSec = untilUSec
        self.nowUSec = nowUSec
        self.exercise = exercise
        self.sets = sets
        self.earlierSets = earlierSets
        self.workouts = workouts
        self.categories = categories
        self.heartRates = heartRates
        self.curveDayUSec = curveDayUSec
        self.weightUnit = weightUnit
    }
}

/// Local days and weeks of instants read in order: the calendar is asked once per day and week
/// (mktime(3) and localtime(3) each time), not once per set — a year of history is 100,000 sets.
struct LocalPeriods {
    private var day: Range<USec> = 0..<0
    private var week: Range<USec> = 0..<0

    /// The first instant of the local day that holds `usec`.
    mutating func dayStart(of usec: USec) -> USec {
        if !day.contains(usec) { day = Self.period(LocalCalendar.startOfDay(containing: usec), next: Self.nextDay) }
        return day.lowerBound
    }

    /// The first instant of the local week (from Monday) that holds `usec`.
    mutating func weekStart(of usec: USec) -> USec {
        if !week.contains(usec) {
            week = Self.period(LocalCalendar.startOfWeek(containing: usec), next: Self.nextWeek)
        }
        return week.lowerBound
    }

    /// The start of the local day after the one starting at `start`: a day is 23 to 25 hours
    /// long, so 30 hours on is always within the next one.
    static func nextDay(_ start: USec) -> USec { LocalCalendar.startOfDay(containing: start + 30 * 3_600_000_000) }

    /// The start of the local week after the one starting at `start` (167 to 169 hours long).
    static func nextWeek(_ start: USec) -> USec {
        LocalCalendar.startOfWeek(containing: start + (7 * 24 + 12) * 3_600_000_000)
    }

    /// The period from `start` to the next one's start; an empty one (never held in the cache)
    /// should the calendar not move on.
    private static func period(_ start: USec, next: (USec) -> USec) -> Range<USec> {
        let end = next(start)
        return end > start ? start..<end : start..<start
    }
}
