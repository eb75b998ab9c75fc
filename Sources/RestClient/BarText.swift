import DBusKit
import Localization
import RestCore

/// What a status bar shows of a watch state: short, one line, the same words in every bar.
///
///     1:23 Squat → Bench press ♥142 3/5
///     paused 1:02 Squat
///     +0:12 Squat → Bench press
///     +0:05 ringing Squat → Bench press
///     +0:03 recovered in 1:12 ♥118 Squat → Bench press
///     idle
///
/// Time is counted in the whole seconds `WatchTick` wakes for (left rounded up, overtime
/// rounded down), and so is the percentage: a line changes only at a tick or when restd
/// announces something.
public enum BarText {
    /// Time, texts, then heart rate and progress when there is a live activity.
    public static func line(_ state: WatchState, now: UInt64) -> String {
        var parts = [time(state.timer, now: now)]
        if let timer = state.timer {
            if timer.ringing { parts.append(localized("ringing")) }
            // The heart rate once: the live one, which goes on, else the one at recovery.
            let note = timer.recoveryNote(withHeartRate: integer(state.live[LiveKey.heartRate]) == nil)
            if !note.isEmpty { parts.append(note) }
            let texts = texts(timer)
            if !texts.isEmpty { parts.append(texts) }
        }
        return (parts + live(state.live)).joined(separator: " ")
    }

    /// `1:23` while running, `paused 1:02`, `+0:12` (overtime) once expired, `idle` without a timer.
    public static func time(_ timer: TimerSnapshot?, now: UInt64) -> String {
        // TRANSLATORS: a status bar's text when no rest timer is there.
        guard let timer else { return localized("idle") }
        switch timer.state {
        case "running": return TimeFormat.countdown(usec: timer.remaining(at: now))
        case "paused": return localized("paused %1$s", TimeFormat.countdown(usec: timer.remaining(at: now)))
        case "expired": return "+" + TimeFormat.elapsed(usec: timer.overtime(at: now))
        default: return TimerLine.visible(timer.state)  // a state a newer restd has
        }
    }

    /// `Squat → Bench press`, `Squat`, `→ Bench press`, or "".
    public static func texts(_ timer: TimerSnapshot) -> String {
        let label = TimerLine.visible(timer.label)
        let next = TimerLine.visible(NextText.worded(timer.next, catalog: .installed))
        switch (label.isEmpty, next.isEmpty) {
        case (false, false): return label + " → " + next
        case (false, true): return label
        case (true, false): return "→ " + next
        case (true, true): return ""
        }
    }

    /// `♥142` and `3/5` (done/total), those of them the live fields have.
    public static func live(_ fields: [String: DBusValue]) -> [String] {
        var parts: [String] = []
        if let heartRate = integer(fields[LiveKey.heartRate]) { parts.append("♥" + heartRate) }
        if let done = integer(fields[LiveKey.progressDone]), let total = integer(fields[LiveKey.progressTotal]) {
            parts.append(done + "/" + total)
        }
        return parts
    }

    /// `running`, `paused`, `expired`, `ringing` (expired, its alarm on), or `idle` without a
    /// timer: a class for styling.
    public static func kind(_ timer: TimerSnapshot?) -> String {
        guard let timer else { return "idle" }
        return timer.ringing ? "ringing" : TimerLine.visible(timer.state)
    }

    /// How much of the current run has gone by, 0…100 (rounded down): 0 without a timer,
    /// 100 once expired.
    public static func percentage(_ timer: TimerSnapshot?, now: UInt64) -> Int {
        Int(gone(timer, now: now, of: 100))
    }

    /// The part of the current run gone by, in `scale` parts (rounded down), counting the time
    /// left in the whole seconds shown. DurationUSec is the run with its adjustments, so adding
    /// time moves the bar back.
    static func gone(_ timer: TimerSnapshot?, now: UInt64, of scale: UInt64) -> UInt64 {
        guard let timer else { return 0 }
        switch timer.state {
        case "expired":
            return scale
        case "running", "paused":
            let duration = timer.durationUSec
            guard duration > 0 else { return 0 }
            let left = min(shownRemainingUSec(timer, now: now), duration)
            let (product, overflow) = (duration - left).multipliedReportingOverflow(by: scale)
            if !overflow { return product / duration }
            return UInt64(Double(duration - left) / Double(duration) * Double(scale))
        default:
            return 0
        }
    }

    /// The time left rounded up to whole seconds, as the countdown shows it.
    static func shownRemainingUSec(_ timer: TimerSnapshot, now: UInt64) -> UInt64 {
        let left = timer.remaining(at: now)
        let seconds = left / WatchTick.second + (left % WatchTick.second > 0 ? 1 : 0)
        let (usec, overflow) = seconds.multipliedReportingOverflow(by: WatchTick.second)
        return overflow ? .max : usec
    }

    /// Within the timer's pre-alert (WarnUSec): what `restd` announces with its "10 s left"
    /// notification, counted in shown seconds so that it starts at a tick.
    static func isWithinWarning(_ timer: TimerSnapshot, now: UInt64) -> Bool {
        guard timer.state == "running", timer.warnUSec > 0 else { return false }
        return shownRemainingUSec(timer, now: now) <= timer.warnUSec
    }

    /// Several lines for a tooltip, in words for people: the texts, where the rest stands, the
    /// live activity (`liveWords`).
    ///
    ///     Squat · Next: Bench press
    ///     1:23 left of 1:30
    ///     ♥142 bpm · 3 of 5 done · Bench press
    public static func tooltip(_ state: WatchState, now: UInt64) -> String {
        var lines: [String] = []
        if let timer = state.timer {
            let texts = TimerLine.texts(label: timer.label, next: timer.next)
            if !texts.isEmpty { lines.append(texts) }
            let left = TimeFormat.countdown(usec: timer.remaining(at: now))
            let duration = TimeFormat.countdown(usec: timer.durationUSec)
            switch timer.state {
            case "running": lines.append(localized("%1$s left of %2$s", left, duration))
            case "paused": lines.append(localized("paused, %1$s left of %2$s", left, duration))
            case "expired": lines.append(localized("over %1$s ago", TimeFormat.elapsed(usec: timer.overtime(at: now))))
            default: lines.append(TimerLine.visible(timer.state))
            }
            if timer.ringing { lines.append(localized("ringing: click or restctl silence stops it")) }
            if !timer.recoveryNote.isEmpty { lines.append(timer.recoveryNote) }
        } else {
            lines.append(localized("no rest timer"))
        }
        let live = liveWords(state.live)
        if !live.isEmpty { lines.append(live) }
        return lines.joined(separator: "\n")
    }

    /// The live activity in words: `♥142 bpm (Polar H10, battery 80%) · 3 of 5 done · Bench press
    /// · workout Push`; "2 done" without a total, "no skin contact" when the strap says so.
    /// Fields of a producer's own (`x_…`) are for its scripts: they are in the JSON only.
    public static func liveWords(_ fields: [String: DBusValue]) -> String {
        var parts: [String] = []
        if let heartRate = integer(fields[LiveKey.heartRate]) {
            var strap: [String] = []
            if let sensor = text(fields[LiveKey.heartRateSensor]) { strap.append(sensor) }
            if fields[LiveKey.heartRateContact]?.unwrapped == .boolean(false) {
                strap.append(localized("no skin contact"))
            }
            if let battery = integer(fields[LiveKey.sensorBattery]) {
                strap.append(localized("battery %1$s%%", battery))
            }
            parts.append(
                strap.isEmpty
                    ? localized("♥%1$s bpm", heartRate)
                    : localized("♥%1$s bpm (%2$s)", heartRate, strap.joined(separator: ", ")))
        }
        if let done = integer(fields[LiveKey.progressDone]) {
            parts.append(
                integer(fields[LiveKey.progressTotal]).map { localized("%1$s of %2$s done", done, $0) }
                    ?? localized("%1$s done", done))
        }
        if let exercise = text(fields[LiveKey.exercise]) { parts.append(exercise) }
        if let workout = text(fields[LiveKey.workout]) { parts.append(localized("workout %1$s", workout)) }
        return parts.joined(separator: " · ")
    }

    private static func text(_ value: DBusValue?) -> String? {
        guard case .string(let text)? = value?.unwrapped else { return nil }
        let visible = TimerLine.visible(text)
        return visible.isEmpty ? nil : visible
    }

    private static func integer(_ value: DBusValue?) -> String? {
        guard let value = value?.unwrapped else { return nil }
        if let integer = value.int64 { return String(integer) }
        if let integer = value.uint64 { return String(integer) }
        return nil
    }
}
