import RestClient
import Testing

@Suite struct DisplayWidthTests {
    @Test(arguments: [
        ("Squat", 5), ("Ünïcödé", 7), ("深蹲", 4), ("🍵", 2), ("🏋️", 2), ("e\u{301}", 1), ("ｗｉｄｅ", 8), ("", 0),
    ])
    func columns(text: String, width: Int) {
        #expect(DisplayWidth.of(text) == width)
    }

    /// ASCII text is measured without Unicode's tables: the same width as character by character.
    @Test func asciiTextIsMeasuredAsEachCharacterIs() {
        let every = String(decoding: (0..<128).map { UInt8($0) }, as: UTF8.self)
        #expect(DisplayWidth.of(every) == every.reduce(0) { $0 + DisplayWidth.of($1) })
        #expect(DisplayWidth.of("Squat\t3×5") == 1 + DisplayWidth.of("Squat") + 1 + 1)
        #expect(DisplayWidth.of("a\r\nb") == 2)
    }

    @Test func padsAndCutsByColumns() {
        #expect(DisplayWidth.padded("深蹲", to: 6) == "深蹲  ")
        #expect(DisplayWidth.padded(leading: "🍵", to: 4) == "  🍵")
        #expect(DisplayWidth.prefix("深蹲 squat", width: 3) == "深")
    }
}

@Suite struct HistoryLineTests {
    static func set(_ exercise: String, taken: UInt64, planned: UInt64) -> HistorySet {
        HistorySet(
            id: 1, timer: "default", atUSec: 1_795_295_400_000_000, exercise: exercise, reps: 5, weightKg: 100,
            rest: .init(plannedUSec: planned, outcome: "completed", takenUSec: taken))
    }

    /// The difference is that of the times as shown: 0:00 of 1:43 is -1:43, 2:41 of 2:30 is +0:11.
    @Test(arguments: [
        (700_000 as UInt64, 103_400_000 as UInt64, "rest 0:00 of 1:43 (-1:43)"),
        (161_900_000, 150_000_000, "rest 2:41 of 2:30 (+0:11)"),
        (150_999_999, 150_000_000, "rest 2:30 of 2:30 (+0:00)"),
        (149_000_001, 150_999_999, "rest 2:29 of 2:30 (-0:01)"),
    ])
    func arithmeticHolds(taken: UInt64, planned: UInt64, text: String) {
        let line = HistoryFormat.lines([Self.set("Squat", taken: taken, planned: planned)])[0]
        #expect(line.hasSuffix(text), "\(line)")
    }

    /// Names in wide characters and emoji line up with the others: the work column starts at the
    /// same terminal column on every line.
    @Test func columnsLineUpByDisplayWidth() {
        let lines = HistoryFormat.lines(
            ["Squat", "深蹲", "🏋️ Lift"].map { Self.set($0, taken: 90_000_000, planned: 90_000_000) })
        let starts = lines.map { line in
            DisplayWidth.of(String(line[..<(line.firstRange(of: "5×100 kg")?.lowerBound ?? line.endIndex)]))
        }
        #expect(Set(starts).count == 1, "\(lines)")
    }
}

@Suite struct ExerciseNamesTests {
    static let known = ["Squat", "Bench press", "Row"]

    @Test(arguments: [
        ("Sqaut", "Squat"), ("squats", "Squat"), ("Bench pres", "Bench press"), ("Rwo", "Row"), ("Bench", nil),
        ("Squat", nil), (" SQUAT ", nil), ("Lunge", nil), ("Rows", "Row"), ("Raw", "Row"), ("Rum", nil),
    ])
    func likelyMeant(typed: String, meant: String?) {
        #expect(ExerciseNames.likelyMeant(typed, known: Self.known) == meant)
    }

    @Test func oneNotePerName() {
        #expect(
            ExerciseNames.notes(for: ["Sqaut", "sqaut", "Lunge"], known: Self.known)
                == ["\"Sqaut\" is a new exercise; did you mean 'Squat'?"])
    }
}
