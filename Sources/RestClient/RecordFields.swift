import DBusKit
import Localization
import RestCore
import RestProtocol

extension PersonalRecord {
    /// The records in a SetRecorded entry (`HistoryKey.recordHeaviestWasKg` and after) for `set`.
    public static func read(from entry: [String: DBusValue], set: HistorySet) -> [PersonalRecord] {
        func value(_ key: String) -> DBusValue? { entry[key]?.unwrapped }
        var records: [PersonalRecord] = []
        if let was = value(HistoryKey.recordHeaviestWasKg)?.double, let weight = set.weightKg {
            records.append(.heaviest(kg: weight, was: was))
        }
        if let was = value(HistoryKey.recordRepsWas)?.uint64.flatMap(UInt32.init(exactly:)), let reps = set.reps {
            records.append(.mostReps(reps, atKg: set.weightKg, was: was))
        }
        if let estimate = value(HistoryKey.recordEstimateKg)?.double,
            let was = value(HistoryKey.recordEstimateWasKg)?.double
        {
            records.append(.estimatedMax(kg: estimate, was: was))
        }
        return records
    }

    /// The note `restctl set` adds on stderr for a weight more than twice the exercise's
    /// heaviest before: a typo such as 1000 for 100 is recorded, and said (weights in `unit`).
    public static func unlikelyWeightNote(exercise: String, records: [PersonalRecord], unit: WeightUnit) -> String? {
        for case .heaviest(let weight, let was) in records where was > 0 && weight > 2 * was {
            // TRANSLATORS: restctl set's note on stderr: "1000 kg is more than twice Squat's heaviest set so far (120 kg): …"; 'restctl undo' is a command, not translated.
            return localized(
                "%1$s is more than twice %2$s's heaviest set so far (%3$s): recorded as typed; if it is a typo, 'restctl undo' takes it back",
                Weight.text(kilograms: weight, in: unit, catalog: .installed), exercise,
                Weight.text(kilograms: was, in: unit, catalog: .installed))
        }
        return nil
    }
}
