import RestCore
import Testing

@testable import RestClient

/// The exports of Strong, Hevy and FitNotes (Fixtures/import), read with the values worked out
/// by hand: counts, kilograms (1 lb = 0.45359237 kg, kept to 0.01 kg) and instants in two zones.
/// The zones are fixed offsets handed to the reader, not the process's TZ, which other suites
/// running at the same time read.
@Suite struct ImportReaderTests {
    static let fixtures: String = {
        let here = #filePath
        return String(here[..<here.lastIndex(of: "/")!]) + "/Fixtures/import/"
    }()

    /// A zone `hours` east of UTC, without daylight saving.
    static func zone(_ hours: Int) -> (LocalCalendar.Parts) -> USec? {
        { parts in CivilTime.utcSeconds(parts).map { USec($0 - Int64(hours) * 3_600) * 1_000_000 } }
    }

    struct Read {
        var sets: [ImportedSet] = []
        var problems: [String] = []
        var summary = ImportSummary()
        var format: ImportFormat?
    }

    static func read(
        _ name: String, format: ImportFormat? = nil, unit: WeightUnit? = nil, zoneHours: Int = 0
    ) throws -> Read {
        var reader = ImportReader(format: format, unit: unit, localInstant: zone(zoneHours))
        var result = Read()
        try ImportFile.read(fixtures + name, into: &reader) { batch in
            result.sets += batch.sets
            result.problems += batch.problems.map { $0.text(file: name) }
        }
        result.summary = reader.summary
        result.format = reader.format
        return result
    }

    static func usec(_ seconds: Int64, zoneHours: Int = 0) -> USec {
        USec(seconds - Int64(zoneHours) * 3_600) * 1_000_000
    }

    @Test func strongNeedsTheUnitItDoesNotWrite() {
        #expect(throws: ImportFailure.unitNeeded(.strong)) { try Self.read("strong.csv") }
        #expect(
            ImportFailure.unitNeeded(.strong).message(file: "strong.csv")
                == "strong.csv does not say whether its weights are in kg or lb (Strong exports them in the unit set "
                + "in the app): give --unit kg or --unit lb")
    }

    @Test(arguments: [0, -5])
    func strong(zoneHours: Int) throws {
        let read = try Self.read("strong.csv", unit: .kg, zoneHours: zoneHours)
        #expect(read.format == .strong)
        #expect(read.problems == [])
        #expect(
            read.sets.map(\.exercise) == [
                "Squat (Barbell)", "Squat (Barbell)", "Squat (Barbell)", "Bench Press (Barbell)", "Pull Up",
            ])
        #expect(read.sets.map(\.reps) == [8, 5, 5, 10, 8])
        #expect(read.sets.map(\.weightKg) == [60, 100, 102.5, 60, nil])
        #expect(read.sets.map(\.order) == [1, 2, 3, 1, 1])
        #expect(read.sets.map(\.workoutName) == ["Leg Day", "Leg Day", "Leg Day", "Push, Pull", "Push, Pull"])
        // 1h 4m for three sets: every 16 minutes from 18:00; 45m for two: every 15 from 07:30.
        let legDay: Int64 = 1_772_475_360 - 16 * 60  // 2026-03-02 18:00:00 UTC
        #expect(
            read.sets.map(\.atUSec)
                == [legDay + 16 * 60, legDay + 32 * 60, legDay + 48 * 60, 1_772_696_700, 1_772_696_700 + 15 * 60].map {
                    Self.usec($0, zoneHours: zoneHours)
                })
        #expect(read.sets.map(\.line) == [2, 4, 5, 8, 10])
        #expect(read.sets[0].key == "strong\u{1F}2026-03-02 18:00:00\u{1F}Squat (Barbell)\u{1F}1")
        var expected = ImportSummary()
        expected.sets = 5
        expected.workouts = 2
        expected.cardioRows = 2
        expected.restTimerRows = 1
        expected.earliestUSec = Self.usec(legDay + 16 * 60, zoneHours: zoneHours)
        expected.latestUSec = Self.usec(1_772_696_700 + 15 * 60, zoneHours: zoneHours)
        #expect(read.summary == expected)
    }

    @Test func strongInPounds() throws {
        let read = try Self.read("strong.csv", unit: .lb)
        // 60 lb = 27.2155422 kg, 100 lb = 45.359237, 102.5 lb = 46.493217925.
        #expect(read.sets.map(\.weightKg) == [27.22, 45.36, 46.49, 27.22, nil])
    }

    @Test func strongsOlderSemicolonFormSaysItsUnitPerRow() throws {
        let read = try Self.read("strong-semicolon.csv")
        #expect(read.format == .strong)
        #expect(read.problems == [])
        // A decimal comma in a file separated by semicolons; 135 lb = 61.23496995 kg.
        #expect(read.sets.map(\.weightKg) == [20, 60, 61.23])
        #expect(read.sets.map(\.warmup) == [true, false, false])
        #expect(read.sets.map(\.order) == [1, 2, 3])
        // 54 minutes, three sets: every 13 min 30 s from 18:01:27.
        let first: Int64 = 1_590_084_897
        #expect(read.sets.map(\.atUSec) == [first, first + 810, first + 1_620].map { Self.usec($0) })
        #expect(read.summary.warmups == 1)
        #expect(read.summary.sets == 3)
    }

    @Test(arguments: [0, 9])
    func hevy(zoneHours: Int) throws {
        let read = try Self.read("hevy.csv", zoneHours: zoneHours)
        #expect(read.format == .hevy)
        #expect(read.problems == [])
        #expect(
            read.sets.map(\.exercise) == [
                "Squat (Barbell)", "Squat (Barbell)", "Squat (Barbell)", "Leg Press", "Squat (Barbell)",
            ])
        #expect(read.sets.map(\.weightKg) == [40, 100, 105, 120.5, 102.5])
        #expect(read.sets.map(\.reps) == [10, 5, 3, 12, 5])
        #expect(read.sets.map(\.warmup) == [true, false, false, false, false])
        #expect(read.sets.map(\.failed) == [false, false, true, false, false])
        // 15:22 to 16:22, four sets: every 12 minutes; 19:05 to 19:35, one set: at 19:20.
        let first: Int64 = 1_773_416_040  // 2026-03-13 15:34 UTC
        #expect(
            read.sets.map(\.atUSec)
                == [first, first + 720, first + 1_440, first + 2_160, 1_773_516_000].map {
                    Self.usec($0, zoneHours: zoneHours)
                })
        #expect(read.summary.cardioRows == 1)
        #expect(read.summary.workouts == 2)
        #expect(read.summary.warmups == 1)
        #expect(read.sets[4].key == "hevy\u{1F}14 Mar 2026, 19:05\u{1F}Squat (Barbell)\u{1F}1")
    }

    @Test func hevyInPounds() throws {
        let read = try Self.read("hevy-lbs.csv", unit: .kg)
        // The header's unit wins: 45 lb = 20.41165665 kg, 135 lb = 61.23496995, 225 lb = 102.05828325.
        #expect(read.sets.map(\.weightKg) == [20.41, 61.23, 102.06])
        #expect(read.summary.cardioRows == 0)
    }

    @Test(arguments: [0, -5])
    func fitNotes(zoneHours: Int) throws {
        let read = try Self.read("fitnotes.csv", zoneHours: zoneHours)
        #expect(read.format == .fitnotes)
        #expect(read.problems == [])
        #expect(read.sets.map(\.weightKg) == [60, 60, 102.06, 62.5])
        #expect(read.sets.map(\.category) == ["Chest", "Chest", "Back", "Chest"])
        #expect(read.sets.map(\.order) == [1, 2, 1, 1])
        // No time of day: from 12:00 local, two minutes apart.
        let noonTenth: Int64 = 1_773_144_120 - 120  // 2026-03-10 12:00 UTC
        let noonTwelfth = noonTenth + 2 * 86_400
        #expect(
            read.sets.map(\.atUSec)
                == [noonTenth + 120, noonTenth + 240, noonTenth + 360, noonTwelfth + 120].map {
                    Self.usec($0, zoneHours: zoneHours)
                })
        #expect(read.sets[2].key == "fitnotes\u{1F}2026-03-10\u{1F}Deadlift\u{1F}1")
        #expect(read.summary.cardioRows == 1)
        #expect(read.summary.workouts == 2)
    }

    @Test func fitNotesOnIOSNamesItsUnitInTheHeader() throws {
        let read = try Self.read("fitnotes-ios.csv")
        #expect(read.format == .fitnotes)
        #expect(read.sets.map(\.weightKg) == [100, 102.5])
        #expect(read.summary.cardioRows == 1)
    }

    @Test func everyUnreadableLineIsSaid() throws {
        let read = try Self.read("strong-bad-lines.csv", unit: .kg)
        #expect(
            read.problems == [
                "strong-bad-lines.csv:3: \"yesterday\" is not a date such as 2026-03-13 15:22:05",
                "strong-bad-lines.csv:4: reps \"five\" is not a number such as 8 or 62.5",
                "strong-bad-lines.csv:5: weight \"1e3\" is not a number such as 8 or 62.5",
                "strong-bad-lines.csv:6: Set Order \"X\" is none of a number, W, D, F or Rest Timer",
                "strong-bad-lines.csv:7: the exercise name is empty; give 1 to 64 bytes of text, as in \"Squat\"",
                "strong-bad-lines.csv:8: the date \"2026-02-30 18:00:00\" does not exist",
                "strong-bad-lines.csv:9: weight \"2500\" kg is over 1000 kg",
                "strong-bad-lines.csv:10: a quoted field is not closed before the end of the file",
            ])
        #expect(read.sets.count == 1)
        #expect(read.summary.unreadableLines == 8)
    }

    @Test func aFileOfAnotherKindIsOneSentence() throws {
        #expect(throws: ImportFailure.unknownFormat(firstLine: "name,email", expected: nil)) {
            try Self.read("other.csv")
        }
        #expect(
            ImportFailure.unknownFormat(firstLine: "name,email", expected: nil).message(file: "other.csv")
                == "other.csv is none of the exports restctl knows: its first line is \"name,email\"; "
                + "restctl import reads the CSV exports of Strong, Hevy and FitNotes")
        // Asked for one format, given another.
        #expect(throws: ImportFailure.self) { try Self.read("hevy.csv", format: .fitnotes) }
    }

    @Test func emptyAndBinaryFiles() {
        for text in [[], [UInt8]("\n\n  \n".utf8)] {
            var reader = ImportReader()
            #expect(throws: ImportFailure.empty) {
                _ = try reader.read(text)
                _ = try reader.finish()
            }
        }
        var binary = ImportReader()
        #expect(throws: ImportFailure.binary) {
            _ = try binary.read([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00])
        }
        var noLineBreak = ImportReader()
        #expect(throws: ImportFailure.binary) {
            _ = try noLineBreak.read([0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00])
            _ = try noLineBreak.finish()
        }
    }

    /// A generated export of 3,000 workouts read in chunks of every size from 1 byte up gives what
    /// one chunk gives: no record depends on where a chunk ends.
    @Test func chunksAnywhereReadTheSame() throws {
        var text =
            "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE\r\n"
        for day in 0..<3_000 {
            let date =
                "20\(10 + day / 336)-\(1 + day / 28 % 12 < 10 ? "0" : "")\(1 + day / 28 % 12)-\(1 + day % 28 < 10 ? "0" : "")\(1 + day % 28) 07:00:00"
            for set in 1...4 {
                text += "\(date),\"Day \(day)\",1h,\"Squat\",\(set),\(60 + set).5,\(set),0,0,\"a, \"\"note\"\"\",,\r\n"
            }
        }
        let bytes = Array(text.utf8)
        func sets(chunk: Int) throws -> ([ImportedSet], ImportSummary) {
            var reader = ImportReader(unit: .kg, localInstant: Self.zone(0))
            var sets: [ImportedSet] = []
            var start = 0
            while start < bytes.count {
                sets += try reader.read(bytes[start..<min(start + chunk, bytes.count)]).sets
                start += chunk
            }
            sets += try reader.finish().sets
            return (sets, reader.summary)
        }
        let (whole, summary) = try sets(chunk: bytes.count)
        #expect(summary.sets == 12_000)
        #expect(summary.workouts == 3_000)
        #expect(whole.last?.weightKg == 64.5)
        for chunk in [1, 7, 4_096, 65_536] {
            let (parts, partsSummary) = try sets(chunk: chunk)
            #expect(parts == whole, "chunks of \(chunk)")
            #expect(partsSummary == summary)
        }
    }
}

@Suite struct TypedNumberTests {
    @Test(arguments: [
        ("62.5", 6_250), ("100", 10_000), (".5", 50), ("5.", 500), ("0.005", 1), ("0.004", 0), ("62.55555", 6_256),
    ])
    func kilograms(text: String, hundredths: Int64) throws {
        #expect(try PlainDecimal(parsing: text).hundredthsOfKg(.kg) == hundredths)
    }

    @Test(arguments: [("225", 10_206), ("1", 45), ("2.5", 113), ("45", 2_041), ("0.01", 0), ("1000", 45_359)])
    func pounds(text: String, hundredths: Int64) throws {
        #expect(try PlainDecimal(parsing: text).hundredthsOfKg(.lb) == hundredths)
    }

    @Test(arguments: ["1e3", "0x10", "inf", "nan", "-5", "", ".", "1.2.3", "+3", "12345678", " 5"])
    func notPlain(text: String) {
        #expect(throws: PlainDecimal.Refusal.self) { try PlainDecimal(parsing: text) }
    }

    @Test func aCommaIsToldToBeADot() throws {
        #expect(throws: PlainDecimal.Refusal.commaForDot("62.5")) { try PlainDecimal(parsing: "62,5") }
        #expect(try PlainDecimal(parsing: "62,5", decimalComma: true).hundredthsOfKg(.kg) == 6_250)
    }

    @Test(arguments: [
        ("225lb", 102.06), ("225 lbs", 102.06), ("100kg", 100), ("100 KG", 100), ("62.5", 62.5),
    ])
    func typedWeights(text: String, kg: Double) throws {
        #expect(try TypedWeight(parsing: text).kilograms(defaultUnit: .kg) == kg)
    }

    @Test func aWeightWithoutUnitIsInTheSetting() throws {
        #expect(try TypedWeight(parsing: "225").kilograms(defaultUnit: .lb) == 102.06)
        #expect(throws: PlainDecimal.Refusal.notPlain) { try TypedWeight(parsing: "100 stone") }
        #expect(throws: PlainDecimal.Refusal.notPlain) { try TypedWeight(parsing: "1e3") }
    }
}
