import Localization
import RestCore

/// The human form of a timer: one line of id, state, time and texts, fields two spaces apart.
///
///     default  running  1:23  Squat · Next: Bench press
///     default  paused   1:30  Squat
///     default  expired  0:00 (+0:12)  Next: Bench press
///     default  expired  0:00 (+0:03)  recovered in 1:12 ♥118  Squat
///     default  expired  0:00 (+0:05)  ringing  Squat
///
/// The state is padded to seven characters so that times line up; `lines` also pads ids.
public enum TimerLine {
    /// One timer at wall-clock time `now` (µs); `idWidth` pads the id to that many characters.
    public static func format(_ snapshot: TimerSnapshot, now: UInt64, idWidth: Int = 0) -> String {
        var line = padded(snapshot.id, to: idWidth) + "  " + padded(stateWord(snapshot.state), to: stateWidth) + "  "
        line += TimeFormat.countdown(usec: snapshot.remaining(at: now))
        if snapshot.state == "expired" {
            line += " (+" + TimeFormat.elapsed(usec: snapshot.overtime(at: now)) + ")"
        }
        if snapshot.ringing { line += "  " + localized("ringing") }
        let note = snapshot.recoveryNote
        if !note.isEmpty { line += "  " + note }
        let texts = self.texts(label: snapshot.label, next: snapshot.next)
        if !texts.isEmpty { line += "  " + texts }
        return line
    }

    /// Several timers, ids padded to the longest so that the columns line up.
    public static func lines(_ snapshots: [TimerSnapshot], now: UInt64) -> [String] {
        let width = snapshots.map { $0.id.count }.max() ?? 0
        return snapshots.map { format($0, now: now, idWidth: width) }
    }

    /// "label · Next: next", either part alone, or "" for neither.
    static func texts(label: String, next: String) -> String {
        let next = NextText.worded(next, catalog: .installed)
        return switch (label.isEmpty, next.isEmpty) {
        case (false, false): localized("%1$s · Next: %2$s", visible(label), visible(next))
        case (false, true): visible(label)
        case (true, false): localized("Next: %1$s", visible(next))
        case (true, true): ""
        }
    }

    /// A timer's state in words: "running", "paused", "expired"; a state a newer restd has, as it is.
    public static func stateWord(_ state: String) -> String {
        switch state {
        // TRANSLATORS: a timer's state in restctl status and list, beside its time.
        case "running": localized("running")
        // TRANSLATORS: a timer's state in restctl status and list, beside its time.
        case "paused": localized("paused")
        // TRANSLATORS: a timer's state in restctl status and list, beside its time.
        case "expired": localized("expired")
        default: visible(state)
        }
    }

    /// The widest state word, so that times line up.
    private static var stateWidth: Int {
        ["running", "paused", "expired"].map { stateWord($0).count }.max() ?? 0
    }

    private static func padded(_ text: String, to width: Int) -> String {
        let count = text.count
        return count >= width ? text : text + String(repeating: " ", count: width - count)
    }

    // restd refuses control characters in texts; line and paragraph separators and
    // anything a future daemon lets through are escaped so that a timer stays one line.
    static func visible(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator:
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
