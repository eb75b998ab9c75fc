import Localization
import RestCore
import Testing

/// Records as a lifter sees them, set after set: each line worked out by hand.
@Suite struct PersonalRecordTests {
    static func set(
        _ exercise: String, _ weightKg: Double?, _ reps: UInt32?, failed: Bool = false, at minutes: USec
    ) -> SetRecord {
        SetRecord(
            id: Int64(minutes), timerID: tid("default"), atUSec: testEpoch + minutes * minute, exercise: exercise,
            exerciseKey: exercise.lowercased(), reps: reps, weightKg: weightKg, failed: failed)
    }

    /// Each set with the line restctl set prints for it (nil: no record).
    @Test func aSequenceOfSets() {
        var book = RecordBook()
        let sets: [(SetRecord, Bool, String?)] = [
            // The first set of an exercise beats nothing: there is nothing to beat.
            (Self.set("Squat", 100, 5, at: 0), false, nil),
            // Heavier, and a better estimate: 105 × (1 + 3/30) = 115.5 against 100 × (1 + 5/30) = 116.7: no.
            (Self.set("Squat", 105, 3, at: 5), false, "record: Squat 105 kg × 3, heaviest (was 100 kg)"),
            // More reps at 100 kg, and the estimate 100 × (1 + 6/30) = 120 beats 116.7.
            (
                Self.set("Squat", 100, 6, at: 10), false,
                "record: Squat 100 kg × 6, most reps at 100 kg (was 5), estimated 1RM 120 kg (was 116.7)"
            ),
            // A warm-up is never a record, and does not count for the next.
            (Self.set("Squat", 140, 1, at: 15), true, nil),
            // A failed set is never a record either.
            (Self.set("Squat", 150, 1, failed: true, at: 20), false, nil),
            // The line: 110 × 3 = 121 against 120.
            (
                Self.set("Squat", 110, 3, at: 25), false,
                "record: Squat 110 kg × 3, heaviest (was 105 kg), estimated 1RM 121 kg (was 120)"
            ),
            // Beyond 10 reps no estimate; most reps at 60 kg has no earlier set: none.
            (Self.set("Squat", 60, 15, at: 30), false, nil),
            (Self.set("Squat", 60, 16, at: 35), false, "record: Squat 60 kg × 16, most reps at 60 kg (was 15)"),
            // Without weight: most reps.
            (Self.set("Pull-up", nil, 8, at: 40), false, nil),
            (Self.set("Pull-up", nil, 10, at: 45), false, "record: Pull-up 10 reps, most reps (was 8)"),
            // Another exercise keeps its own records.
            (Self.set("Bench", 60, 5, at: 50), false, nil),
        ]
        for (set, warmup, line) in sets {
            let beaten = book.add(set, warmup: warmup)
            #expect(
                PersonalRecord.line(
                    exercise: set.exercise, weightKg: set.weightKg, reps: set.reps, records: beaten, unit: .kg,
                    catalog: .source) == line, "\(set.exercise) \(set.weightKg ?? 0)×\(set.reps ?? 0)")
        }
        let squat = book.records["squat"]
        #expect(squat?.heaviest == RecordBook.Holder(atUSec: testEpoch + 25 * minute, weightKg: 110, reps: 3))
        #expect(squat?.bestEstimateKg == OneRepMax.estimateKg(weightKg: 110, reps: 3))
        #expect(squat?.mostReps?.reps == 16)
        #expect(
            book.bests(exerciseKey: "squat", atWeightKg: 100)
                == ExerciseBests(
                    heaviestKg: 110, bestEstimateKg: OneRepMax.estimateKg(weightKg: 110, reps: 3), mostRepsAtWeight: 6))
    }

    @Test func epleyAsTheReportDrawsIt() {
        #expect(OneRepMax.estimateKg(weightKg: 100, reps: 1) == 100)
        #expect(OneRepMax.estimateKg(weightKg: 90, reps: 10) == 120)
        #expect(OneRepMax.estimateKg(weightKg: 90, reps: 11) == nil)
        #expect(OneRepMax.estimateKg(weightKg: nil, reps: 5) == nil)
        #expect(OneRepMax.estimateKg(weightKg: 100, reps: 0) == nil)
    }

    /// The bests restd reads (the same rule through its indexes) give what the book gives.
    @Test func theTrainingBookSaysTheRecordsOfASet() throws {
        var session = Session()
        session.bests["squat"] = { weight in
            ExerciseBests(heaviestKg: 105, bestEstimateKg: 118, mostRepsAtWeight: weight == 110 ? 2 : nil)
        }
        let planned = try session.set("Squat", reps: 3, weightKg: 110)
        #expect(
            planned.records == [
                .heaviest(kg: 110, was: 105), .mostReps(3, atKg: 110, was: 2),
                .estimatedMax(kg: OneRepMax.estimateKg(weightKg: 110, reps: 3)!, was: 118),
            ])
        let failed = try session.set("Squat", reps: 3, weightKg: 120, failed: true)
        #expect(failed.records == [])
    }

    @Test func anUnlikelyWeightIsSaid() {
        let line = PersonalRecord.line(
            exercise: "Squat", weightKg: 1000, reps: 5, records: [.heaviest(kg: 1000, was: 120)], unit: .kg,
            catalog: .source)
        #expect(line == "record: Squat 1000 kg × 5, heaviest (was 120 kg)")
    }

    /// In pounds, every weight of the line: kept in kg (245 lb is 111.13 kg), read back to 0.1 lb.
    @Test func aRecordInPounds() {
        // 111.13 × 1.1 = 122.243 kg = 269.4997 lb; 120.2 kg = 264.996 lb; 108.86 kg = 239.995 lb.
        let records: [PersonalRecord] = [
            .heaviest(kg: 111.13, was: 108.86), .mostReps(3, atKg: 111.13, was: 2),
            .estimatedMax(kg: 111.13 * 1.1, was: 120.2),
        ]
        #expect(
            PersonalRecord.line(
                exercise: "Squat", weightKg: 111.13, reps: 3, records: records, unit: .lb, catalog: .source)
                == "record: Squat 245 lb × 3, heaviest (was 240 lb), most reps at 245 lb (was 2), "
                + "estimated 1RM 269.5 lb (was 265)")
    }

    /// The one weight formatter: kg as kept, pounds to 0.1 lb without a needless ".0", the
    /// catalog's decimal separator.
    @Test func weightsAsPeopleReadThem() {
        #expect(Weight.text(kilograms: 61.23, in: .lb, catalog: .source) == "135 lb")
        #expect(Weight.text(kilograms: 102.06, in: .lb, catalog: .source) == "225 lb")
        #expect(Weight.text(kilograms: 28.35, in: .lb, catalog: .source) == "62.5 lb")
        #expect(Weight.text(kilograms: 62.5, in: .kg, catalog: .source) == "62.5 kg")
        #expect(Weight.text(kilograms: 121.04, in: .kg, catalog: .source, tenths: true) == "121 kg")
        #expect(Weight.number(kilograms: 116.666, in: .kg, catalog: .source, tenths: true) == "116.7")
        let comma = Catalog { context, text, _, _ in context == "decimal separator" ? "," : text }
        #expect(Weight.text(kilograms: 28.35, in: .lb, catalog: comma) == "62,5 lb")
    }
}
