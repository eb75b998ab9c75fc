import Localization
import RestCore

/// `restctl records`: each exercise's records, found by following its history set by set
/// (`RecordBook`), with the local date each was set.
public enum RecordsFormat {
    /// The records of `sets` (oldest first), by exercise name, `exerciseKey` alone when given.
    public static func records(of sets: [HistorySet], exerciseKey: String? = nil) -> [RecordBook.Records] {
        var book = RecordBook()
        for set in sets {
            let key = set.exercise.lowercased()
            if let exerciseKey, key != exerciseKey { continue }
            _ = book.add(
                exercise: set.exercise, key: key, atUSec: set.atUSec, weightKg: set.weightKg, reps: set.reps,
                failed: set.failed, warmup: set.warmup)
        }
        return book.records.values.filter { $0.heaviest != nil || $0.mostReps != nil }.sorted {
            $0.exercise.lowercased() < $1.exercise.lowercased()
        }
    }

    /// `Squat: heaviest 110 kg × 3 (2026-11-23), estimated 1RM 121 kg from 110 kg × 3 (2026-11-23),
    /// most reps 16 at 60 kg (2026-11-24)`, weights in `unit`.
    public static func line(_ records: RecordBook.Records, unit: WeightUnit = .kg) -> String {
        func weight(_ kg: Double) -> String { Weight.text(kilograms: kg, in: unit, catalog: .installed) }
        var parts: [String] = []
        if let heaviest = records.heaviest, let kg = heaviest.weightKg {
            // TRANSLATORS: in restctl records: "heaviest 110 kg × 3 (2026-11-23)".
            parts.append(localized("heaviest %1$s (%2$s)", weight(kg) + reps(heaviest), date(heaviest)))
        }
        if let estimate = records.bestEstimateKg, let holder = records.bestEstimate, let kg = holder.weightKg {
            // TRANSLATORS: in restctl records: "estimated 1RM 121 kg from 110 kg × 3 (2026-11-23)".
            parts.append(
                localized(
                    "estimated 1RM %1$s from %2$s (%3$s)",
                    Weight.text(kilograms: estimate, in: unit, catalog: .installed, tenths: true),
                    weight(kg) + reps(holder), date(holder)))
        }
        if let most = records.mostReps, let count = most.reps {
            parts.append(
                most.weightKg.map {
                    // TRANSLATORS: in restctl records: "most reps 16 at 60 kg (2026-11-24)".
                    localized("most reps %1$d at %2$s (%3$s)", count, weight($0), date(most))
                    // TRANSLATORS: in restctl records, for an exercise without weight: "most reps 16 (2026-11-24)".
                } ?? localized("most reps %1$d (%2$s)", count, date(most)))
        }
        return records.exercise + ": " + parts.joined(separator: ", ")
    }

    /// One object per exercise; what it lacks is null. In pounds (`unit` lb), each `_kg` key is
    /// followed by its `_lb` one.
    public static func json(_ all: [RecordBook.Records], unit: WeightUnit = .kg) -> String {
        JSONText.array(
            all.map { records in
                var object = JSONObject()
                func weight(_ key: String, _ kg: Double?, tenths: Bool = false) {
                    let kept = tenths ? kg.map { ($0 * 10).rounded() / 10 } : kg
                    object.number(key + "_kg", kept)
                    if unit == .lb { object.number(key + "_lb", kg.map { Weight.amount(kilograms: $0, in: .lb) }) }
                }
                object.text("exercise", records.exercise)
                weight("heaviest", records.heaviest?.weightKg)
                object.integer("heaviest_reps", records.heaviest?.reps)
                object.instant("heaviest_at", usec: records.heaviest?.atUSec)
                weight("e1rm", records.bestEstimateKg, tenths: true)
                weight("e1rm_weight", records.bestEstimate?.weightKg)
                object.integer("e1rm_reps", records.bestEstimate?.reps)
                object.instant("e1rm_at", usec: records.bestEstimate?.atUSec)
                object.integer("most_reps", records.mostReps?.reps)
                weight("most_reps_weight", records.mostReps?.weightKg)
                object.instant("most_reps_at", usec: records.mostReps?.atUSec)
                return object
            })
    }

    private static func reps(_ holder: RecordBook.Holder) -> String { holder.reps.map { " × \($0)" } ?? "" }

    private static func date(_ holder: RecordBook.Holder) -> String {
        LocalCalendar.parts(of: holder.atUSec)?.dateText ?? "?"
    }
}
