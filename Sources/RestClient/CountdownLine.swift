/// The line `restctl start --wait` redraws in a terminal: the bar text with a progress bar of
/// the rest gone by after the time.
///
///     1:23 [█▍                  ] Squat → Bench press ♥142 3/5
///     paused 1:02 [██████▎             ] Squat
///
/// A pure function of the state, the wall clock and the terminal's width, so that it changes
/// only when `WatchTick` wakes or restd announces something.
public enum CountdownLine {
    /// The line for a terminal `columns` wide: at most `columns − 1` characters, so that the
    /// cursor never reaches the last column and the terminal never wraps it.
    public static func render(_ state: WatchState, now: UInt64, columns: Int) -> String {
        var parts = [BarText.time(state.timer, now: now)]
        let cells = barCells(columns: columns)
        if cells > 0 {
            let eighths = BarText.gone(state.timer, now: now, of: UInt64(cells) * 8)
            parts.append("[" + bar(eighths: eighths, cells: cells) + "]")
        }
        if let timer = state.timer {
            let texts = BarText.texts(timer)
            if !texts.isEmpty { parts.append(texts) }
        }
        parts += BarText.live(state.live)
        return fitted(parts.joined(separator: " "), columns: columns)
    }

    /// 20 cells from 60 columns on, 10 from 40, no bar below.
    static func barCells(columns: Int) -> Int {
        columns >= 60 ? 20 : columns >= 40 ? 10 : 0
    }

    /// `eighths` of `cells` filled: whole blocks, one partial block, spaces.
    static func bar(eighths: UInt64, cells: Int) -> String {
        let filled = Int(min(eighths, UInt64(cells) * 8))
        var bar = String(repeating: "█", count: filled / 8)
        if filled % 8 > 0 { bar += partialBlocks[filled % 8] }
        return bar + String(repeating: " ", count: cells - (filled + 7) / 8)
    }

    private static let partialBlocks = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]

    /// `line` cut to `columns − 1` characters, ending in "…" when cut.
    static func fitted(_ line: String, columns: Int) -> String {
        let room = max(columns - 1, 1)
        guard line.count > room else { return line }
        return String(line.prefix(room - 1)) + "…"
    }
}

/// Where `restctl start --wait` stands after a change of the watched state.
public enum WaitOutcome: Equatable, Sendable {
    /// The timer runs or is paused: wait on.
    case waiting
    /// The rest is over (the timer expired).
    case over
    /// The timer is gone without running out: cancelled (or removed) by someone.
    case cancelled
    /// restd left the bus.
    case daemonGone

    /// The outcome for `state`, given whether restd is on the bus and whether `state` is its
    /// (a reading may still be due, or being retried: then nothing can be concluded yet).
    public init(_ state: WatchState, daemonPresent: Bool, following: Bool) {
        if !daemonPresent {
            self = .daemonGone
        } else if !following {
            self = .waiting
        } else if let timer = state.timer {
            self = timer.state == "expired" ? .over : .waiting
        } else {
            self = .cancelled
        }
    }
}
