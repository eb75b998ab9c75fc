import RestClient
import RestCore
import Testing

@testable import RestClient

@Suite struct DisplayWidthTests {
    @Test(arguments: [
        ("Squat", 5), ("Ünïcödé", 7), ("深蹲", 4), ("🍵", 2), ("🏋️", 2), ("e\u{301}", 1), ("ｗｉｄｅ", 8), ("", 0),
    ])
    func columns(text: String, width: Int) {
        #expect(DisplayWidth.of(text) == width)
    }

    /// Latin text is measured scalar by scalar, without Unicode's tables: each scalar below U+0300
    /// alone, and 500 strings of them (with controls, CR LF and the soft hyphen among them), give
    /// the width that counting character by character gives.
    @Test func latinTextIsMeasuredAsEachCharacterIs() {
        for value in UInt32(0)..<0x300 {
            let scalar = Unicode.Scalar(value)!
            #expect(DisplayWidth.of(String(scalar)) == DisplayWidth.columnsByTables(Character(scalar)), "U+\(value)")
        }
        let pool = Array("aZ09 ×·éÿĀžǅɐʰ˿\t\r\n\u{7F}\u{85}\u{9F}\u{A0}\u{AD}©®½".unicodeScalars)
        var state: UInt64 = 7
        for _ in 0..<500 {
            var text = ""
            for _ in 0..<12 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                text.unicodeScalars.append(pool[Int(state >> 33) % pool.count])
            }
            #expect(
                DisplayWidth.of(text) == text.reduce(0) { $0 + DisplayWidth.columnsByTables($1) },
                "\(text.debugDescription)")
        }
    }

    /// ASCII text is measured without Unicode's tables: the same width as character by character.
    @Test func asciiTextIsMeasuredAsEachCharacterIs() {
        let every = String(decoding: (0..<128).map { UInt8($0) }, as: UTF8.self)
        #expect(DisplayWidth.of(every) == every.reduce(0) { $0 + DisplayWidth.of($1) })
        #expect(DisplayWidth.of("Squat\t3×5") == 1 + DisplayWidth.of("Squat") + 1 + 1)
        #expect(DisplayWidth.of("a\r\nb") == 2)
    }

    /// An ASCII character alone skips the tables: what they say for it; one that starts a longer
    /// character (a keycap emoji) still goes to them.
    @Test func anAsciiCharacterAloneIsWhatTheTablesSay() {
        for value in 0..<128 {
            let character = Character(Unicode.Scalar(UInt8(value)))
            #expect(DisplayWidth.of(character) == DisplayWidth.columnsByTables(character), "U+\(value)")
        }
        #expect(DisplayWidth.of(Character("#\u{FE0F}\u{20E3}")) == 2)
        #expect(DisplayWidth.of("3 × 5 #\u{FE0F}\u{20E3}") == 1 + 1 + 1 + 1 + 1 + 1 + 2)
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

    /// The lines as their rule says, cell by cell: the id right-aligned, each other cell padded to its column's width, joined by
    /// two spaces, the line's trailing spaces cut.
    static func linesByTheRule(_ sets: [HistorySet]) -> [String] {
        let nameWidth = sets.map { DisplayWidth.of($0.exercise) }.max() ?? 0
        let workWidth = sets.map { DisplayWidth.of(HistoryFormat.work($0)) }.max() ?? 0
        let idWidth = sets.map { String($0.id).count }.max() ?? 0
        return sets.map { set in
            var line = String(repeating: " ", count: idWidth - String(set.id).count) + String(set.id) + "  "
            line += TimeFormat.localMinute(usec: set.atUSec) + "  " + DisplayWidth.padded(set.exercise, to: nameWidth)
            if workWidth > 0 { line += "  " + DisplayWidth.padded(HistoryFormat.work(set), to: workWidth) }
            if let rest = set.rest { line += "  " + HistoryFormat.restText(rest) }
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
    }

    /// Every mix of names, work (none, reps, weight, failed) and rests (none, open, ended): the
    /// lines as the rule gives them, with no spaces at their ends.
    @Test func linesFollowTheRule() {
        let rests: [HistorySet.Rest?] = [
            nil, .init(plannedUSec: 90_000_000, outcome: "open"),
            .init(plannedUSec: 90_000_000, outcome: "skipped", takenUSec: 30_000_000, endedAtUSec: 1),
        ]
        var sets: [HistorySet] = []
        for name in ["Squat", "深蹲", "Bench press", "", "Row "] {
            for (reps, kg) in [(nil, nil), (5, nil), (nil, 62.5), (12, 100)] as [(UInt32?, Double?)] {
                for failed in [false, true] {
                    for rest in rests {
                        sets.append(
                            HistorySet(
                                id: Int64(sets.count), timer: "default", atUSec: 1_795_295_400_000_000, exercise: name,
                                reps: reps, weightKg: kg, failed: failed, rest: rest))
                    }
                }
            }
        }
        let lines = HistoryFormat.lines(sets)
        #expect(lines == Self.linesByTheRule(sets))
        #expect(lines.allSatisfy { !$0.hasSuffix(" ") })
        // A column of work with none in it: the rests still line up.
        let bare = sets.filter { $0.reps == nil && $0.weightKg == nil && !$0.failed }
        #expect(HistoryFormat.lines(bare) == Self.linesByTheRule(bare))
    }
}

@Suite struct HistoryRecoveryFormatTests {
    static let recovered = HistorySet(
        id: 7, timer: "default", atUSec: 1_795_295_400_000_000, exercise: "Squat", reps: 5, weightKg: 100,
        rest: .init(
            plannedUSec: 180_000_000, outcome: "completed", takenUSec: 72_000_000, endedAtUSec: 1_795_295_472_000_000,
            recovery: RecoveryMetrics(
                setEndBPM: 158.46, peakBPM: 162, peakAfterUSec: 4_000_000, bpmAfter30s: 140.25, bpmAfter60s: 128,
                hrr60BPM: 31.04, timeToTargetUSec: 62_000_000, minimumBPM: 117, coverage: 0.9834,
                rmssdBeats: 41, rmssdRejectedShare: 0.024)))

    @Test("the line says what is known of the recovery, nothing of what is not")
    func line() {
        #expect(
            HistoryFormat.lines([Self.recovered])[0].hasSuffix(
                "rest 1:12 of 3:00 (-1:48), peak ♥162 · HRR60 31 · to target 1:02"))
    }

    @Test("JSON and CSV carry every metric under its rest_ key, null (an empty cell) when unknown")
    func jsonAndCSV() {
        let json = HistoryFormat.json([Self.recovered])
        #expect(
            json.contains(
                #""rest_time_to_target_usec":62000000,"rest_hr_peak_after_usec":4000000,"rest_hr_set_end":158.5,"rest_hr_peak":162,"rest_hr_30s":140.3,"#
                    + #""rest_hr_60s":128,"rest_hr_120s":null,"rest_hrr60":31,"rest_hr_min":117,"rest_hr_coverage":0.983,"#
                    + #""rest_rmssd_ms":null,"rest_rmssd_beats":41,"rest_rmssd_rejected":0.024,"#
                    + #""rest_heart_rate":null}"#), "\(json)")
        // A followed rest's trace, once a second, null where the heart rate was unknown.
        let trace = HeartRateTrace(
            setID: Self.recovered.id, startedAtUSec: Self.recovered.atUSec, bpm: [158, 0, 151], targetBPM: 120,
            minimumUSec: 60_000_000, holdUSec: 10_000_000, endedAfterUSec: 2_500_000, ending: .recovered)
        #expect(
            HistoryFormat.json([Self.recovered], heartRates: [Self.recovered.id: trace]).hasSuffix(
                #""rest_heart_rate":{"started_at":"2026-11-21T21:10:00.000Z","bpm":[158,null,151],"target_bpm":120,"#
                    + #""minimum_usec":60000000,"hold_usec":10000000,"ended_after_usec":2500000,"ending":"recovered"}}]"#
            ))
        let header = HistoryFormat.csvHeader.split(separator: ",", omittingEmptySubsequences: false)
        let row = HistoryFormat.csvRow(Self.recovered).split(separator: ",", omittingEmptySubsequences: false)
        #expect(header.count == row.count)
        #expect(header.suffix(13).joined(separator: ",") == RecoveryFieldsHeader.expected)
        #expect(row.suffix(13).joined(separator: ",") == "62.000,4.000,158.5,162,140.3,128,,31,117,0.983,,41,0.024")
        // A rest not followed for recovery: every cell empty, every key null.
        let plain = HistoryLineTests.set("Squat", taken: 90_000_000, planned: 90_000_000)
        #expect(HistoryFormat.csvRow(plain).hasSuffix(String(repeating: ",", count: 13)))
        #expect(HistoryFormat.json([plain]).contains(#""rest_hrr60":null"#))
    }
}

@Suite struct StatsRecoveryFormatTests {
    static let week = LocalCalendar.startOfWeek(containing: 1_795_295_400_000_000)

    @Test("recovery columns appear once a rest was followed: count, median to target, HRR60 by week")
    func columns() throws {
        let plain = ExerciseStatsSnapshot(exercise: "Bench press", sets: 2, rests: 1, medianPlannedUSec: 120_000_000)
        #expect(StatsFormat.lines([plain])[0] == "exercise     sets  rests  skipped  other  planned  taken  overrun")
        let squat = ExerciseStatsSnapshot(
            exercise: "Squat", sets: 3, rests: 3, medianPlannedUSec: 180_000_000, recoveryRests: 2,
            medianTimeToTargetUSec: 62_000_000,
            hrr60Weeks: [.init(weekStartAtUSec: Self.week, medianBPM: 30.56, rests: 2)])
        let lines = StatsFormat.lines([plain, squat])
        let monday = try #require(LocalCalendar.parts(of: Self.week)?.dateText.dropFirst(5))
        #expect(lines[0].hasSuffix("overrun  followed  to target  HRR60 by week"), "\(lines)")
        #expect(lines[1].hasSuffix("-         0          -  -"), "\(lines)")
        #expect(lines[2].hasSuffix("-         2       1:02  \(monday) 31"), "\(lines)")
        let json = StatsFormat.json([squat])
        #expect(
            json.contains(
                #""recovery_rests":2,"median_time_to_target_usec":62000000,"hrr60_weeks":[{"week_start_at":""#
                    + DateText.iso8601(usec: Self.week) + #"","median_hrr60":30.6,"rests":2}]}"#), "\(json)")
        #expect(
            StatsFormat.json([plain]).contains(
                #""recovery_rests":0,"median_time_to_target_usec":null,"hrr60_weeks":[]"#))
    }
}

enum RecoveryFieldsHeader {
    static let expected =
        "rest_time_to_target_s,rest_hr_peak_after_s,rest_hr_set_end,rest_hr_peak,rest_hr_30s,rest_hr_60s,rest_hr_120s,rest_hrr60,"
        + "rest_hr_min,rest_hr_coverage,rest_rmssd_ms,rest_rmssd_beats,rest_rmssd_rejected"
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

@Suite struct PoundsFormatTests {
    @Test(
        "weights typed in pounds read back as typed, to 0.1 lb",
        arguments: ["135", "225", "2.5", "45", "315.5", "0.1", "999.9", "2204.6"])
    func poundsComeBack(_ typed: String) throws {
        let kg = try TypedWeight(parsing: typed).kilograms(defaultUnit: .lb)
        #expect(Weight.amount(kilograms: kg, in: .lb) == Double(typed), "\(typed) lb kept as \(kg) kg")
        #expect(Weight.amount(kilograms: kg, in: .kg) == kg)
    }

    @Test("in pounds, lines say lb; JSON and CSV add weight_lb after weight_kg, in kg nothing changes")
    func linesJSONAndCSV() {
        let set = HistorySet(
            id: 3, timer: "default", atUSec: 1_795_295_400_000_000, exercise: "Squat", reps: 5, weightKg: 102.06)
        #expect(HistoryFormat.recorded(set, unit: .lb) == "recorded Squat 5×225 lb")
        #expect(HistoryFormat.recorded(set) == "recorded Squat 5×102.06 kg")
        #expect(HistoryFormat.lines([set], unit: .lb)[0].hasSuffix("  Squat  5×225 lb"))
        #expect(HistoryFormat.json([set], unit: .lb).contains("\"weight_kg\":102.06,\"weight_lb\":225,"))
        #expect(!HistoryFormat.json([set]).contains("weight_lb"))
        let header = HistoryFormat.csvHeader(unit: .lb).split(separator: ",")
        let row = HistoryFormat.csvRow(set, unit: .lb).split(separator: ",", omittingEmptySubsequences: false)
        #expect(
            header.count == row.count && header[4...5] == ["weight_kg", "weight_lb"] && row[4...5] == ["102.06", "225"])
        #expect(HistoryFormat.csvHeader(unit: .kg) == HistoryFormat.csvHeader)
    }
}

/// A workout's summary for scripts: kilograms always, pounds beside them when the unit is pounds.
@Suite struct WorkoutSummaryJSONTests {
    static let summary = WorkoutSnapshot.Summary(
        name: "Legs", startedAtUSec: 1_765_000_000_000_000, endedAtUSec: 1_765_002_400_000_000,
        durationUSec: 2_400_000_000, setsDone: 2, setsPlanned: 2, volumeKg: 1020.58, totalRestUSec: 0,
        medianRestUSec: 0, abandoned: false)

    @Test func volumeInKilogramsAndInPoundsWhenTheUnitIsPounds() {
        // 1020.58 kg is 2250 lb (10 × 225 lb), to 0.1 lb.
        let kilograms = Self.summary.jsonObject(unit: .kg).text
        #expect(kilograms.contains(#""volume_kg":1020.58"#) && !kilograms.contains("volume_lb"), "\(kilograms)")
        let pounds = Self.summary.jsonObject(unit: .lb).text
        #expect(pounds.contains(#""volume_kg":1020.58,"volume_lb":2250"#), "\(pounds)")
    }
}
