/// How far the wall clock has moved against CLOCK_BOOTTIME since the running timers' wall-clock
/// instants were last published, and how often a step was told in the log.
///
/// A clock that is set often is not news: on a loaded virtual machine CLOCK_REALTIME may be set
/// ten times a second by microseconds. Steps are summed against the offset last published, so
/// that many small ones cannot pile up into a stale `EndsAtUSec`; below `thresholdUSec` nothing
/// is published. A real step is logged with its size, at most once per `logIntervalUSec`; the
/// next line says how many more there were.
public struct WallClockSteps: Sendable, Equatable {
    /// 100 ms: ten times below the whole seconds every client shows a deadline in, and below
    /// ntpd's 128 ms step threshold (smaller corrections are slewed, never stepped); far above
    /// the microsecond steps of a busy virtual machine's clock.
    public static let thresholdUSec: Int64 = 100_000
    /// At most one line about real steps a minute; the steps in between are counted.
    public static let logIntervalUSec: USec = 60_000_000

    /// CLOCK_REALTIME − CLOCK_BOOTTIME when the timers' wall-clock instants were last published.
    public private(set) var publishedOffsetUSec: Int64
    /// When a step was last logged (CLOCK_BOOTTIME), and how many real steps were not since.
    private var loggedAtUSec: USec?
    private var unlogged = 0

    public init(publishedAt now: Instant) {
        publishedOffsetUSec = Self.offset(at: now)
    }

    /// How far the wall clock has moved at `now` since it was last published (what
    /// `Occurrence.wallClockStepped` carries).
    public func step(at now: Instant) -> Int64 {
        Self.offset(at: now) - publishedOffsetUSec
    }

    /// Whether a step of `offsetUSec` is one: large enough to publish.
    public static func isReal(_ offsetUSec: Int64) -> Bool {
        offsetUSec.magnitude >= thresholdUSec.magnitude
    }

    /// After a real step of `offsetUSec` at `now`, published: the line to log (nil while the
    /// last one is recent), and the new state.
    func published(_ offsetUSec: Int64, now: Instant, timers: Int) -> (line: String?, steps: WallClockSteps) {
        var next = self
        next.publishedOffsetUSec = Self.offset(at: now)
        if let last = loggedAtUSec, now.boottime.subtractingSaturated(last) < Self.logIntervalUSec {
            next.unlogged += 1
            return (nil, next)
        }
        var line = "wall clock stepped by \(Self.seconds(offsetUSec)); \(timers) running timer(s) re-published"
        if unlogged > 0 { line += " (and \(unlogged) more step(s) since the last such line)" }
        next.loggedAtUSec = now.boottime
        next.unlogged = 0
        return (line, next)
    }

    private static func offset(at now: Instant) -> Int64 {
        Int64(bitPattern: now.realtime &- now.boottime)
    }

    /// "+3600.000 s", "-0.250 s".
    static func seconds(_ usec: Int64) -> String {
        let magnitude = usec.magnitude
        let millis = (magnitude % 1_000_000) / 1_000
        let fraction = String(repeating: "0", count: 3 - String(millis).count) + String(millis)
        return "\(usec < 0 ? "-" : "+")\(magnitude / 1_000_000).\(fraction) s"
    }
}
