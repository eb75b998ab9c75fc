import DBusKit
import Foundation
import ProcessHarness
import RestClient
import RestProtocol
import Testing

/// Records through restd: what restctl set says as sets come (restd's indexes), against what
/// restctl records finds in the whole history, and the weights people type.
@Suite("Records: said as they happen, listed from the history")
struct RecordsTests {
    @Test("each set's record line, failed sets never, and records listed from the history")
    func recordsAsTheyHappen() throws {
        let daemon = try RunningDaemon(config: "")
        func set(_ args: [String]) -> CommandResult { restctl(daemon.bus, ["set", "--rest", "90"] + args) }
        func recordLine(_ result: CommandResult) -> String? {
            result.stdout.split(separator: "\n").first { $0.hasPrefix("record: ") }.map(String.init)
        }
        let sets: [([String], String?)] = [
            (["--exercise", "Squat", "--reps", "5", "--weight", "100"], nil),
            (["--reps", "3", "--weight", "105"], "record: Squat 105 kg × 3, heaviest (was 100 kg)"),
            (
                ["--reps", "6", "--weight", "100"],
                "record: Squat 100 kg × 6, most reps at 100 kg (was 5), estimated 1RM 120 kg (was 116.7)"
            ),
            (["--reps", "1", "--weight", "150", "--failed"], nil),
            (
                ["--reps", "3", "--weight", "110"],
                "record: Squat 110 kg × 3, heaviest (was 105 kg), estimated 1RM 121 kg (was 120)"
            ),
            // Pounds typed whatever the unit: 225 lb is 102.06 kg, no record.
            (["--reps", "2", "--weight", "225lb"], nil),
            (["--exercise", "Pull-up", "--reps", "8", "--weight", "0"], nil),
        ]
        for (args, expected) in sets {
            let result = set(args)
            #expect(result.succeeded, "\(result)")
            #expect(recordLine(result) == expected, "\(args): \(result.stdout)")
        }
        let recorded = restctl(daemon.bus, "history", "--exercise", "Squat")
        #expect(recorded.stdout.contains("2×102.06 kg"), "\(recorded)")

        let records = restctl(daemon.bus, "records")
        #expect(records.succeeded, "\(records)")
        let squat = records.stdout.split(separator: "\n").first { $0.hasPrefix("Squat: ") } ?? ""
        #expect(squat.hasPrefix("Squat: heaviest 110 kg × 3 ("), "\(records)")
        #expect(squat.contains("estimated 1RM 121 kg from 110 kg × 3 ("), "\(records)")
        #expect(squat.contains("most reps 6 at 100 kg ("), "\(records)")
        let json = restctl(daemon.bus, "records", "--exercise", "squat", "--json")
        let objects = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]], "\(json)")
        #expect(objects.count == 1)
        #expect(objects.first?["heaviest_kg"] as? Double == 110)
        #expect(objects.first?["e1rm_kg"] as? Double == 121)
        #expect(objects.first?["most_reps"] as? Int == 6)
    }

    @Test("a weight more than twice the heaviest is recorded, with a note on stderr")
    func anUnlikelyWeightIsNoted() throws {
        let daemon = try RunningDaemon(config: "")
        _ = restctl(daemon.bus, "set", "--exercise", "Squat", "--reps", "5", "--weight", "100")
        let typo = restctl(daemon.bus, "set", "--reps", "5", "--weight", "1000")
        #expect(typo.succeeded && typo.stdout.contains("\nrecorded Squat 5×1000 kg\n"), "\(typo)")
        #expect(
            typo.stderr.contains(
                "restctl: 1000 kg is more than twice Squat's heaviest set so far (100 kg): "
                    + "recorded as typed; if it is a typo, 'restctl undo' takes it back\n"), "\(typo)")
        // Undone, it leaves no trace in the records, and the next set repeats the one before it.
        let undo = restctl(daemon.bus, "undo")
        #expect(undo.succeeded && undo.stdout.hasPrefix("removed Squat 5×1000 kg (set 2, "), "\(undo)")
        #expect(undo.stdout.hasSuffix("), and its rest\n"), "\(undo)")
        let records = restctl(daemon.bus, "records", "--exercise", "Squat")
        #expect(records.stdout.hasPrefix("Squat: heaviest 100 kg × 5 ("), "\(records)")
        let again = restctl(daemon.bus, "set", "--rest", "90")
        #expect(again.stdout.contains("\nrecorded Squat 5×100 kg\n"), "\(again)")
    }
}
