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
    /// most reps 16 at 60 kg (2026-11-24)`.
    public static func line(_ records: RecordBook.Records) -> String {
        var parts: [String] = []
        if let heaviest = records.heaviest, let weight = heaviest.weightKg {
            parts.append("heaviest \(PersonalRecord.kg(weight)) kg\(reps(heaviest)) (\(date(heaviest)))")
        }
        if let estimate = records.bestEstimateKg, let holder = records.bestEstimate, let weight = holder.weightKg {
            parts.append(
                "estimated 1RM \(PersonalRecord.estimateKg(estimate)) kg from \(PersonalRecord.kg(weight)) kg"
                    + "\(reps(holder)) (\(date(holder)))")
        }
        if let most = records.mostReps, let count = most.reps {
            let weight = most.weightKg.map { " at \(PersonalRecord.kg($0)) kg" } ?? ""
            parts.append("most reps \(count)\(weight) (\(date(most)))")
        }
        return records.exercise + ": " + parts.joined(separator: ", ")
    }

    /// One object per exercise; what it lacks is null.
    public static func json(_ all: [RecordBook.Records]) -> String {
        JSONText.array(
            all.map { records in
                var object = JSONObject()
                object.text("exercise", records.exercise)
                object.number("heaviest_kg", records.heaviest?.weightKg)
                object.integer("heaviest_reps", records.heaviest?.reps)
                object.instant("heaviest_at", usec: records.heaviest?.atUSec)
                object.number("e1rm_kg", records.bestEstimateKg.map { ($0 * 10).rounded() / 10 })
                object.number("e1rm_weight_kg", records.bestEstimate?.weightKg)
                object.integer("e1rm_reps", records.bestEstimate?.reps)
                object.instant("e1rm_at", usec: records.bestEstimate?.atUSec)
                object.integer("most_reps", records.mostReps?.reps)
                object.number("most_reps_weight_kg", records.mostReps?.weightKg)
                object.instant("most_reps_at", usec: records.mostReps?.atUSec)
                return object
            })
    }

    private static func reps(_ holder: RecordBook.Holder) -> String { holder.reps.map { " × \($0)" } ?? "" }

    private static func date(_ holder: RecordBook.Holder) -> String {
        LocalCalendar.parts(of: holder.atUSec)?.dateText ?? "?"
    }
}
