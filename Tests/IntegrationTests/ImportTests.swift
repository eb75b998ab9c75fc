import DBusKit
import Foundation
import ProcessHarness
import RestClient
import RestCore
import RestProtocol
import Testing

/// `restctl import` through restd: an export of each app (RestClientTests' fixtures, their
/// dates moved to the last days on the test's copy, so that it passes on any day in any zone),
/// a dry run that writes nothing, the second import that adds nothing, a set restd recorded
/// itself not added twice, warm-ups never records; and what is refused with nothing written.
@Suite("Import: Strong, Hevy and FitNotes exports through restctl and restd")
struct ImportTests {
    static let fixtures: String = {
        let here = #filePath
        let tests = here[..<here.lastIndex(of: "/")!].dropLast("IntegrationTests".count)
        return tests + "RestClientTests/Fixtures/import/"
    }()

    /// The local day `daysAgo` days before today (the test's zone, which restd and restctl inherit).
    static func day(_ daysAgo: Int) -> LocalCalendar.Parts {
        var start = LocalCalendar.startOfDay(containing: RunningDaemon.realtimeNow())
        for _ in 0..<daysAgo { start = LocalCalendar.startOfPreviousDay(before: start) }
        return LocalCalendar.parts(of: start + 12 * 3_600_000_000)!
    }

    /// Hevy's date: `13 Mar 2026`.
    static func hevyDate(_ parts: LocalCalendar.Parts) -> String {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return "\(parts.day) \(months[parts.month - 1]) \(parts.year)"
    }

    /// A copy of fixture `name` in `directory`, each date of `moves` written as the day it maps to.
    static func copy(_ name: String, into directory: TempDirectory, moving moves: [String: String]) throws -> String {
        var text = try String(contentsOfFile: fixtures + name, encoding: .utf8)
        for (from, to) in moves { text = text.replacingOccurrences(of: from, with: to) }
        let path = directory.path + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func lines(_ result: CommandResult) -> [String] { result.stdout.split(separator: "\n").map(String.init) }

    @Test("each app's export imported once: a dry run writes nothing, again adds nothing, own sets are not doubled")
    func importsEachApp() throws {
        let daemon = try RunningDaemon(config: "")
        let files = try TempDirectory(prefix: "restd-import")
        let strong = try Self.copy(
            "strong.csv", into: files,
            moving: ["2026-03-02": Self.day(10).dateText, "2026-03-05": Self.day(8).dateText])
        let hevy = try Self.copy(
            "hevy.csv", into: files,
            moving: ["13 Mar 2026": Self.hevyDate(Self.day(6)), "14 Mar 2026": Self.hevyDate(Self.day(5))])
        let fitnotes = try Self.copy(
            "fitnotes.csv", into: files,
            moving: ["2026-03-10": Self.day(4).dateText, "2026-03-12": Self.day(0).dateText])
        func importedSets() throws -> [HistorySet] {
            try daemon.client.historySets(sinceUSec: 0, untilUSec: 0).filter { $0.timer == "import" }
        }

        let dry = daemon.run("import", strong, "--unit", "kg", "--dry-run")
        #expect(dry.succeeded, "\(dry)")
        #expect(
            Self.lines(dry) == [
                "\(strong): a Strong export (found by its header)",
                "read: 5 sets in 2 workouts, \(Self.day(10).dateText) to \(Self.day(8).dateText); "
                    + "skipped 2 cardio rows (distance or time, no reps), 1 rest timer row",
                "would add: 5 sets in 2 new workouts, \(Self.day(10).dateText) to \(Self.day(8).dateText)",
                "exercises new to restd: Squat (Barbell), Bench Press (Barbell), Pull Up",
                "dry run: nothing was written",
            ], "\(dry)")
        #expect(try importedSets().isEmpty)

        let first = daemon.run("import", strong, "--unit", "kg")
        #expect(first.succeeded && first.stdout.contains("\nadded: 5 sets in 2 new workouts, "), "\(first)")
        let sets = try importedSets()
        #expect(
            sets.map(\.exercise) == [
                "Squat (Barbell)", "Squat (Barbell)", "Squat (Barbell)", "Bench Press (Barbell)", "Pull Up",
            ])
        #expect(sets.map(\.weightKg) == [60, 100, 102.5, 60, nil])
        #expect(sets.allSatisfy { $0.rest == nil })
        let workouts = try daemon.client.workoutSummaries(sinceUSec: 0, untilUSec: 0)
        #expect(workouts.map(\.name) == ["Leg Day", "Push, Pull"], "\(workouts)")

        let again = daemon.run("import", strong, "--unit", "kg")
        #expect(again.succeeded, "\(again)")
        #expect(
            Array(Self.lines(again).suffix(2)) == [
                "added: 0 sets in 0 new workouts",
                "already there: 5 sets imported before, 0 sets recorded by restd (same exercise, reps and weight that day)",
            ], "\(again)")
        #expect(try importedSets().count == 5)

        // Hevy's warm-up is kept and marked; its exercise matched to the one Strong brought.
        let fromHevy = daemon.run("import", hevy, "--from", "hevy")
        #expect(fromHevy.succeeded, "\(fromHevy)")
        #expect(fromHevy.stdout.contains(": a Hevy export (as --from says)\n"), "\(fromHevy)")
        #expect(fromHevy.stdout.contains("\nadded: 5 sets (1 warm-up) in 2 new workouts, "), "\(fromHevy)")
        #expect(fromHevy.stdout.contains("\nexercises new to restd: Leg Press\n"), "\(fromHevy)")
        #expect(fromHevy.stdout.contains("\nexercises restd knew: Squat (Barbell)\n"), "\(fromHevy)")
        #expect(try importedSets().filter(\.warmup).map(\.weightKg) == [40])

        // A set restd recorded today is the FitNotes file's set of today: not added twice.
        let own = daemon.run("set", "--exercise", "flat barbell bench press", "--reps", "6", "--weight", "62.5")
        #expect(own.succeeded, "\(own)")
        let fromFitNotes = daemon.run("import", fitnotes)
        #expect(fromFitNotes.succeeded, "\(fromFitNotes)")
        #expect(
            Array(Self.lines(fromFitNotes).dropFirst()) == [
                "read: 4 sets in 2 workouts, \(Self.day(4).dateText) to \(Self.day(0).dateText); "
                    + "skipped 1 cardio row (distance or time, no reps)",
                "added: 3 sets in 1 new workout, \(Self.day(4).dateText)",
                "exercises new to restd: Deadlift",
                "exercises restd knew: flat barbell bench press",
                "already there: 0 sets imported before, 1 set recorded by restd (same exercise, reps and weight that day)",
            ], "\(fromFitNotes)")
        #expect(try importedSets().last { $0.exercise == "Deadlift" }?.weightKg == 102.06)

        // Records from the whole history: Hevy's warm-up (40 kg × 10) is no record of most reps,
        // its failed 105 kg × 3 no heaviest.
        let records = daemon.run("records", "--exercise", "Squat (Barbell)")
        #expect(records.succeeded, "\(records)")
        #expect(records.stdout.hasPrefix("Squat (Barbell): heaviest 102.5 kg × 5 ("), "\(records)")
        #expect(records.stdout.contains("most reps 8 at 60 kg ("), "\(records)")
        // A bare set on the default timer repeats restd's own last set, not an imported one.
        let bare = daemon.run("set")
        #expect(bare.stdout.contains("recorded flat barbell bench press 6×62.5 kg"), "\(bare)")
        // Undo takes back restd's own last set, never an imported one (whose id is later than its time).
        // The second undo reaches the set recorded before the FitNotes import.
        for _ in 0..<2 {
            let undo = daemon.run("undo")
            #expect(undo.succeeded && undo.stdout.hasPrefix("removed flat barbell bench press 6×62.5 kg"), "\(undo)")
        }
        #expect(try importedSets().count == 13)

        // FitNotes' categories: given to the exercises that had none (restd's own bench press
        // too), and never overwritten by a later import.
        func categories() throws -> [String: String] {
            Dictionary(try daemon.client.exercises().compactMap { known in known.category.map { (known.key, $0) } }) {
                first, _ in first
            }
        }
        #expect(try categories() == ["flat barbell bench press": "Chest", "deadlift": "Back"])
        let renamed = try Self.copy(
            "fitnotes.csv", into: files,
            moving: ["2026-03-10": Self.day(4).dateText, "2026-03-12": Self.day(0).dateText, "Chest": "Push"])
        // Its set of today comes now: the set restd recorded in its stead was undone above.
        let recategorized = daemon.run("import", renamed)
        #expect(recategorized.stdout.contains("\nadded: 1 set in 1 new workout, "), "\(recategorized)")
        #expect(try categories() == ["flat barbell bench press": "Chest", "deadlift": "Back"])

        // An imported set deleted stays deleted when the file is imported again; one edited
        // keeps its key (and its edit).
        let strongSquats = try importedSets().filter { $0.exercise == "Squat (Barbell)" && !$0.warmup }.prefix(2)
        #expect(strongSquats.map(\.weightKg) == [60, 100])
        let deleted = daemon.run("history", "delete", String(strongSquats.first!.id))
        #expect(deleted.succeeded, "\(deleted)")
        let edited = daemon.run("history", "edit", String(strongSquats.last!.id), "--weight", "97.5")
        #expect(edited.succeeded, "\(edited)")
        let afterFixes = daemon.run("import", strong, "--unit", "kg")
        #expect(
            Array(Self.lines(afterFixes).suffix(2)) == [
                "added: 0 sets in 0 new workouts",
                "already there: 5 sets imported before, 0 sets recorded by restd (same exercise, reps and weight that day)",
            ], "\(afterFixes)")
        let left = try importedSets()
        #expect(left.count == 13)
        #expect(!left.contains { $0.id == strongSquats.first!.id })
        #expect(left.first { $0.id == strongSquats.last!.id }?.weightKg == 97.5)
    }

    @Test("a file with bad lines, of another format, empty, or older than keep_days: refused, nothing written")
    func refusals() throws {
        let daemon = try RunningDaemon(config: "[history]\nkeep_days = 9\n")
        let files = try TempDirectory(prefix: "restd-import")
        let bad = try Self.copy("strong-bad-lines.csv", into: files, moving: ["2026-03-02": Self.day(3).dateText])
        let result = daemon.run("import", bad, "--unit", "kg")
        #expect(result.status == ExitStatus.usage.rawValue, "\(result)")
        let reported = result.stderr.split(separator: "\n").filter { $0.hasPrefix("\(bad):") }
        #expect(reported.count >= 8, "\(result)")
        #expect(reported.first?.hasPrefix("\(bad):3: ") == true, "\(result)")
        #expect(
            result.stderr.hasSuffix(
                "of \(bad) could not be read (above); nothing was imported: fix them, or give --skip-bad-lines to import the rest\n"
            ), "\(result)")

        let other = try Self.copy("other.csv", into: files, moving: [:])
        let unknown = daemon.run("import", other)
        #expect(unknown.status == ExitStatus.usage.rawValue, "\(unknown)")
        #expect(unknown.stderr.split(separator: "\n").count == 1, "\(unknown)")
        #expect(
            unknown.stderr.hasSuffix("restctl import reads the CSV exports of Strong, Hevy and FitNotes\n"),
            "\(unknown)")
        let empty = files.path + "/empty.csv"
        try "".write(toFile: empty, atomically: true, encoding: .utf8)
        let nothing = daemon.run("import", empty)
        #expect(nothing.status == ExitStatus.usage.rawValue, "\(nothing)")
        #expect(
            nothing.stderr
                == "restctl: \(empty) is empty; restctl import reads the CSV exports of Strong, Hevy and FitNotes\n")

        // Ten and eight days ago, with nine days kept: refused with the keep_days that keeps it.
        let old = try Self.copy(
            "strong.csv", into: files,
            moving: ["2026-03-02": Self.day(10).dateText, "2026-03-05": Self.day(8).dateText])
        let refused = daemon.run("import", old, "--unit", "kg")
        #expect(refused.status == ExitStatus.refused.rawValue, "\(refused)")
        #expect(
            refused.stderr.contains(
                "restctl: the file goes back to \(Self.day(10).dateText), further than the 9 days of history restd "
                    + "keeps ([history] keep_days)"), "\(refused)")
        #expect(refused.stderr.contains("set keep_days = 11 in config.toml"), "\(refused)")
        #expect(try daemon.client.historySets(sinceUSec: 0, untilUSec: 0).isEmpty)
    }

    @Test("a file of more sets than one import holds goes as imports of whole workouts, the oldest first")
    func aLargeFileGoesInParts() throws {
        let daemon = try RunningDaemon(config: "[history]\nkeep_days = 11\n")
        let files = try TempDirectory(prefix: "restd-import")
        /// A Hevy export of a workout of `sets` sets on each of `days`.
        func export(_ name: String, days: [Int], sets: Int) throws -> String {
            var text = "title,start_time,end_time,exercise_title,set_type,weight_kg,reps\n"
            for day in days {
                let date = Self.hevyDate(Self.day(day))
                for set in 0..<sets {
                    text += "W\(day),\"\(date), 07:00\",\"\(date), 08:30\",Squat \(set % 10),normal,100,5\n"
                }
            }
            let path = files.path + "/" + name
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        // Its second part goes back 13 days, further than keep_days: committed first, it is
        // refused before the first part (the last 5 days) is added.
        let tooOld = daemon.run("import", try export("old.csv", days: Array(1...5) + [13], sets: 1_000))
        #expect(tooOld.status == ExitStatus.refused.rawValue, "\(tooOld)")
        #expect(tooOld.stderr.contains("further than the 11 days of history restd keeps"), "\(tooOld)")
        #expect(try daemon.client.historySets(sinceUSec: 0, untilUSec: 0).isEmpty)

        // Five workouts of 1,100 sets: four in one import, the fifth in another.
        let large = daemon.run("import", try export("large.csv", days: Array(1...5), sets: 1_100))
        #expect(large.succeeded, "\(large)")
        #expect(
            Array(Self.lines(large).suffix(3)) == [
                "sent as 2 imports of whole workouts, each added in one transaction, the oldest first",
                "added: 5500 sets in 5 new workouts, \(Self.day(5).dateText) to \(Self.day(1).dateText)",
                "exercises new to restd: " + (0..<10).map { "Squat \($0)" }.joined(separator: ", "),
            ], "\(large)")
        #expect(try daemon.client.historySets(sinceUSec: 0, untilUSec: 0).count == 5_500)
    }

    @Test("staged imports are limited, and dropped when their client leaves the bus")
    func stagedImportsEndWithTheirClient() throws {
        let daemon = try RunningDaemon(config: "")
        let client = try RestdClient(address: daemon.bus.address)
        for _ in 0..<HistoryImport.maxParts { _ = try client.beginImport(source: .hevy) }
        #expect(throws: ClientError.self) { try client.beginImport(source: .hevy) }
        let other = try RestdClient(address: daemon.bus.address)
        #expect(throws: ClientError.self) { try other.addImportRows("1", []) }
        client.connection.close()
        // Its imports are dropped as it leaves: another client may begin again.
        try waitUntil("restd to drop the imports of a client that left", timeout: 10) {
            (try? other.beginImport(source: .strong)) != nil
        }
    }
}
