import RestCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A linear map from values to SVG coordinates, with round-numbered ticks.
struct LinearScale {
    let low: Double
    let high: Double
    /// The coordinates `low` and `high` land on (for a y axis, `from` is the bottom).
    let from: Double
    let to: Double
    /// The values to draw a grid line and a label at, `low` and `high` among them.
    let ticks: [Double]

    /// A scale over [low, high] widened to round ticks, about `tickCount` of them: steps of 1, 2
    /// or 5 times a power of ten, or for durations (`seconds`) steps a clock reads well. With
    /// `wholeNumbers` (reps, bpm, kg labelled without decimals) no step is below 1, so that no
    /// two labels read the same.
    init(
        low: Double, high: Double, from: Double, to: Double, tickCount: Int = 5, seconds: Bool = false,
        wholeNumbers: Bool = false
    ) {
        var low = low.isFinite ? low : 0
        var high = high.isFinite ? high : 1
        if high <= low { (low, high) = (low - 1, low + 1) }
        if low >= 0 && low < 1e-9 { low = 0 }
        let raw = (high - low) / Double(max(tickCount, 1))
        var step = seconds ? Self.clockStep(raw) : Self.roundStep(raw)
        if wholeNumbers { step = max(step, 1) }
        let first = (low / step).rounded(.down) * step
        let last = (high / step).rounded(.up) * step
        var ticks: [Double] = []
        var tick = first
        // Whole multiples of the step, computed, not summed: no 0.30000000000000004.
        var index = 0.0
        while tick <= last + step / 1_000 && ticks.count <= 100 {
            ticks.append(tick)
            index += 1
            tick = first + index * step
        }
        self.low = first
        self.high = max(last, first + step)
        self.from = from
        self.to = to
        self.ticks = ticks
    }

    func callAsFunction(_ value: Double) -> Double {
        from + (value - low) / (high - low) * (to - from)
    }

    /// 1, 2 or 5 times a power of ten, at least `raw`.
    static func roundStep(_ raw: Double) -> Double {
        guard raw > 0, raw.isFinite else { return 1 }
        let power = pow(10, (log10(raw)).rounded(.down))
        let fraction = raw / power
        return (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10) * power
    }

    /// A step of seconds a clock reads well (0:15, 0:30, 1:00, 2:00, 5:00…), at least `raw`.
    static func clockStep(_ raw: Double) -> Double {
        for step in [1.0, 2, 5, 10, 15, 30, 60, 120, 180, 300, 600, 900, 1_800, 3_600] where step >= raw {
            return step
        }
        return (raw / 3_600).rounded(.up) * 3_600
    }
}

/// The instants of a chart's x axis, over whole local days or weeks: from the first set's day
/// (or week) to the end of the last set's, never past what was trained.
struct TimeScale {
    let startUSec: USec
    let endUSec: USec
    let from: Double
    let to: Double

    func callAsFunction(_ usec: USec) -> Double {
        let span = Double(endUSec - startUSec)
        guard span > 0 else { return from }
        let offset = usec >= startUSec ? Double(usec - startUSec) : -Double(startUSec - usec)
        return from + offset / span * (to - from)
    }

    /// Local midnights to label, every 1, 2, 7, 14, 28… days so that there are at most
    /// `maximum` of them; a step of weeks stays on Mondays when the scale starts on one.
    func dayTicks(maximum: Int = 7) -> [USec] {
        let days = Double(endUSec - startUSec) / 86_400_000_000
        let step = [1, 2, 7, 14, 28, 56, 91, 182, 364].first { days / Double($0) <= Double(maximum) } ?? 728
        var ticks: [USec] = []
        var day = 0
        while ticks.count <= maximum {
            // Counted from the start in whole days and placed at the middle of the day: a day of
            // 23 or 25 hours does not move the next tick off its midnight.
            let noon = startUSec + USec(day) * 86_400_000_000 + 43_200_000_000
            let tick = LocalCalendar.startOfDay(containing: noon)
            guard tick <= endUSec else { break }
            ticks.append(tick)
            day += step
        }
        return ticks
    }
}
