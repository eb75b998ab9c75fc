import DBusKit
import Localization
import RestCore
import RestProtocol

/// A rest's recovery (`RecoveryMetrics`) as restctl reads and writes it: from the History
/// entries, and as the `rest_` keys of `history`'s JSON and CSV, each null (an empty cell) when
/// the data do not say. Heart rates to 0.1 bpm, RMSSD to 0.1 ms, shares to 0.001: what a strap's
/// resolution supports, no more.
enum RecoveryFields {
    /// Reads the recovery keys of an entry (`prefix` "rest_" in a set's); nil when the rest was
    /// not followed for recovery (no `rmssd_beats`).
    static func metrics(_ value: (String) -> DBusValue?, prefix: String) -> RecoveryMetrics? {
        guard let beats = value(prefix + HistoryKey.rmssdBeats)?.uint64.flatMap(Int.init(exactly:)) else {
            return nil
        }
        func number(_ key: String) -> Double? { value(prefix + key)?.double }
        return RecoveryMetrics(
            setEndBPM: number(HistoryKey.hrSetEnd), peakBPM: number(HistoryKey.hrPeak),
            peakAfterUSec: value(prefix + HistoryKey.hrPeakAfterUSec)?.uint64,
            bpmAfter30s: number(HistoryKey.hr30s), bpmAfter60s: number(HistoryKey.hr60s),
            bpmAfter120s: number(HistoryKey.hr120s), hrr60BPM: number(HistoryKey.hrr60),
            timeToTargetUSec: value(prefix + HistoryKey.timeToTargetUSec)?.uint64,
            minimumBPM: number(HistoryKey.hrMin), coverage: number(HistoryKey.hrCoverage),
            rmssdMilliseconds: number(HistoryKey.rmssdMS), rmssdBeats: beats,
            rmssdRejectedShare: number(HistoryKey.rmssdRejected))
    }

    /// The numbers in the order of the JSON and CSV keys: (key, value rounded, is a duration).
    private static func cells(_ metrics: RecoveryMetrics?) -> [(key: String, number: Double?)] {
        func tenth(_ value: Double?) -> Double? { value.map { ($0 * 10).rounded() / 10 } }
        func thousandth(_ value: Double?) -> Double? { value.map { ($0 * 1_000).rounded() / 1_000 } }
        return [
            (HistoryKey.hrSetEnd, tenth(metrics?.setEndBPM)), (HistoryKey.hrPeak, tenth(metrics?.peakBPM)),
            (HistoryKey.hr30s, tenth(metrics?.bpmAfter30s)), (HistoryKey.hr60s, tenth(metrics?.bpmAfter60s)),
            (HistoryKey.hr120s, tenth(metrics?.bpmAfter120s)), (HistoryKey.hrr60, tenth(metrics?.hrr60BPM)),
            (HistoryKey.hrMin, tenth(metrics?.minimumBPM)), (HistoryKey.hrCoverage, thousandth(metrics?.coverage)),
            (HistoryKey.rmssdMS, tenth(metrics?.rmssdMilliseconds)),
            (HistoryKey.rmssdBeats, metrics.map { Double($0.rmssdBeats) }),
            (HistoryKey.rmssdRejected, thousandth(metrics?.rmssdRejectedShare)),
        ]
    }

    /// `rest_time_to_target_usec`, `rest_hr_peak_after_usec`, then the numbers, each null when
    /// unknown.
    static func addJSON(_ metrics: RecoveryMetrics?, to object: inout JSONObject) {
        object.duration(HistoryKey.restPrefix + HistoryKey.timeToTargetUSec, usec: metrics?.timeToTargetUSec)
        object.duration(HistoryKey.restPrefix + HistoryKey.hrPeakAfterUSec, usec: metrics?.peakAfterUSec)
        for cell in cells(metrics) { object.number(HistoryKey.restPrefix + cell.key, cell.number) }
    }

    /// The CSV header cells, in the order of `csvCells`.
    static let csvHeader =
        ([HistoryKey.restPrefix + "time_to_target_s", HistoryKey.restPrefix + "hr_peak_after_s"]
        + cells(nil).map { HistoryKey.restPrefix + $0.key })
        .joined(separator: ",")

    /// The CSV cells: the time to target and to the peak in seconds, then the numbers; empty
    /// when unknown.
    static func csvCells(_ metrics: RecoveryMetrics?) -> [String] {
        [
            metrics?.timeToTargetUSec.map(HistoryFormat.seconds) ?? "",
            metrics?.peakAfterUSec.map(HistoryFormat.seconds) ?? "",
        ]
            + cells(metrics).map { $0.number.map(HistoryFormat.number) ?? "" }
    }

    /// For the human line: "HRR60 34 · to target 1:12 · RMSSD 21.3 ms", what is known of it;
    /// "" when nothing is.
    static func text(_ metrics: RecoveryMetrics) -> String {
        var parts: [String] = []
        // TRANSLATORS: a rest's highest heart rate, in restctl history.
        if let peak = metrics.peakBPM { parts.append(localized("peak ♥%1$d", Int(peak.rounded()))) }
        // TRANSLATORS: heart rate recovery in the first minute (bpm), in restctl history.
        if let hrr60 = metrics.hrr60BPM { parts.append(localized("HRR60 %1$d", Int(hrr60.rounded()))) }
        if let time = metrics.timeToTargetUSec {
            // TRANSLATORS: the time a rest took to reach its target heart rate, in restctl history.
            parts.append(localized("to target %1$s", TimeFormat.elapsed(usec: time)))
        }
        if let rmssd = metrics.rmssdMilliseconds {
            parts.append(localized("RMSSD %1$s ms", HistoryFormat.shownNumber((rmssd * 10).rounded() / 10)))
        }
        return parts.joined(separator: " · ")
    }
}
