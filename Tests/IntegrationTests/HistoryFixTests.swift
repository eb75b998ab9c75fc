import DBusKit
import Foundation
import ProcessHarness
import RestClient
import RestProtocol
import Testing

/// Fixing the history through restd: `restctl history` showing ids, a typo renamed away, a set
/// edited and deleted, the last one undone, each with its SetsChanged; and bad input refused with
/// one line, nothing changed.
@Suite("History fixes: undo, delete, edit, rename")
struct HistoryFixTests {
    @Test("rename, edit, delete and undo through restctl, each said and signalled; mistakes change nothing")
    func fixes() throws {
        let daemon = try RunningDaemon(config: "")
        let watcher = try SignalWatcher.restd(bus: daemon.bus)
        func run(_ args: String...) -> CommandResult { restctl(daemon.bus, args) }
        func changed(_ change: String, _ ids: [Int64]) throws {
            try watcher.waitFor("SetsChanged \(change) \(ids)") { message in
                guard message.isSignal(RestBus.historyInterface, HistoryMember.setsChanged) else { return false }
                let args = message.arguments()
                return args.first?.string == change && args.last?.arrayElements?.compactMap(\.int64) == ids
            }
        }
        #expect(run("set", "--exercise", "Squat", "--reps", "5", "--weight", "100", "--rest", "90").succeeded)
        #expect(run("set", "--exercise", "Sqaut", "--reps", "5", "--weight", "100", "--rest", "90").succeeded)
        #expect(run("set", "--exercise", "Bench press", "--reps", "8", "--weight", "60", "--rest", "90").succeeded)

        // Each line starts with its set's id.
        let shown = run("history").stdout.split(separator: "\n")
        #expect(shown.map { $0.prefix(3) } == ["1  ", "2  ", "3  "], "\(shown)")

        let rename = run("history", "rename", "sqaut", "squat")
        #expect(rename.succeeded && rename.stdout == "renamed 1 set to Squat\n", "\(rename)")
        try changed("renamed", [2])
        #expect(run("history", "--exercise", "Squat").stdout.split(separator: "\n").count == 2)
        #expect(run("history", "--exercise", "Sqaut").stdout.isEmpty)
        let exercises = try #require(
            try JSONSerialization.jsonObject(with: Data(run("stats", "--json").stdout.utf8)) as? [[String: Any]])
        #expect(exercises.compactMap { $0["exercise"] as? String }.sorted() == ["Bench press", "Squat"])

        let edit = run("history", "edit", "1", "--reps", "3", "--weight", "225lb", "--failed")
        #expect(edit.succeeded && edit.stdout == "set 1 is now Squat 3×102.06 kg failed\n", "\(edit)")
        try changed("edited", [1])

        // All or none: an id not in the history refuses the whole delete.
        let missing = run("history", "delete", "1", "99")
        #expect(!missing.succeeded, "\(missing)")
        #expect(missing.stderr == "restctl: no set 99 in the history; 'restctl history' shows each set's id\n")
        #expect(run("history").stdout.split(separator: "\n").count == 3)
        for (args, sentence) in [
            (
                ["history", "delete", "x"],
                "restctl: set id \"x\" is not a set's id: give the number 'restctl history' shows"
            ),
            (
                ["history", "edit", "2"],
                "restctl: nothing to change: give --exercise, --reps, --weight, --failed or --no-failed"
            ),
            (
                ["history", "edit", "2", "--weight", "1e3"],
                "restctl: --weight \"1e3\" is not a weight, such as 60, 62.5, 100kg or 225lb"
            ),
        ] {
            let refused = restctl(daemon.bus, args)
            #expect(refused.status == 64 && refused.stderr.hasPrefix(sentence + "\n"), "\(args): \(refused)")
        }

        let delete = run("history", "delete", "1")
        #expect(delete.succeeded && delete.stdout.hasPrefix("removed Squat 3×102.06 kg failed (set 1, "), "\(delete)")
        try changed("deleted", [1])

        // Undo takes back the last set and the rest it started: the timer goes.
        #expect(run("status", "--json").stdout.contains("\"Bench press\""))
        let undo = run("undo")
        #expect(undo.succeeded && undo.stdout.hasPrefix("removed Bench press 8×60 kg (set 3, "), "\(undo)")
        #expect(undo.stdout.hasSuffix("), and its rest\n"), "\(undo)")
        try changed("deleted", [3])
        #expect(!run("status").succeeded)
        #expect(run("history").stdout.split(separator: "\n").map { $0.prefix(3) } == ["2  "])
        #expect(run("undo").succeeded)
        let empty = run("undo")
        #expect(
            !empty.succeeded && empty.stderr == "restctl: there is no set to undo: the history has none\n", "\(empty)")
    }

    @Test("pounds: [history] weight_unit = \"lb\" is the Manager's WeightUnit; restctl reads and shows weights in it")
    func pounds() throws {
        let daemon = try RunningDaemon(config: "[history]\nweight_unit = \"lb\"\n")
        func run(_ args: String...) -> CommandResult { restctl(daemon.bus, args) }
        let unit = busctl(
            daemon.bus, "get-property", RestBus.name, RestBus.managerPath, RestBus.managerInterface,
            ManagerProperty.weightUnit)
        #expect(unit.stdout == "s \"lb\"\n", "\(unit)")
        // A bare weight is in pounds; one with its unit is read as written.
        let bare = run("set", "--exercise", "Squat", "--reps", "5", "--weight", "225", "--rest", "90")
        #expect(bare.stdout.contains("\nrecorded Squat 5×225 lb\n"), "\(bare)")
        let metric = run("set", "--reps", "5", "--weight", "100kg", "--rest", "90")
        #expect(metric.stdout.contains("\nrecorded Squat 5×220.5 lb\n"), "\(metric)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(run("history", "--json").stdout.utf8)) as? [[String: Any]])
        #expect(json.map { $0["weight_kg"] as? Double } == [102.06, 100])
        #expect(json.map { $0["weight_lb"] as? Double } == [225, 220.5])
        let csv = run("history", "--csv").stdout.split(separator: "\n")
        #expect(csv.first?.hasPrefix("id,done_at,exercise,reps,weight_kg,weight_lb,failed,") == true, "\(csv)")
        #expect(csv.dropFirst().first?.contains(",5,102.06,225,false,") == true, "\(csv)")
        // Records in pounds: the line under the set, the note of an unlikely weight, restctl records.
        let record = run("set", "--reps", "3", "--weight", "245", "--rest", "90")
        #expect(
            record.stdout.contains(
                "\nrecorded Squat 3×245 lb\nrecord: Squat 245 lb × 3, heaviest (was 225 lb), "
                    + "estimated 1RM 269.5 lb (was 262.5)\n"), "\(record)")
        let typo = run("set", "--reps", "1", "--weight", "600", "--rest", "90")
        #expect(
            typo.stderr.contains(
                "restctl: 600 lb is more than twice Squat's heaviest set so far (245 lb): recorded as typed; "),
            "\(typo)")
        #expect(run("undo").succeeded)
        let records = run("records")
        #expect(
            records.stdout.hasPrefix("Squat: heaviest 245 lb × 3 (") && records.stdout.hasSuffix(")\n")
                && records.stdout.contains("), estimated 1RM 269.5 lb from 245 lb × 3 (")
                && records.stdout.contains("), most reps 5 at 225 lb ("), "\(records)")
        let recordsJSON = try #require(
            try JSONSerialization.jsonObject(with: Data(run("records", "--json").stdout.utf8)) as? [[String: Any]])
        #expect(recordsJSON.first?["heaviest_kg"] as? Double == 111.13)
        #expect(recordsJSON.first?["heaviest_lb"] as? Double == 245)
        #expect(recordsJSON.first?["e1rm_kg"] as? Double == 122.2)
        #expect(recordsJSON.first?["e1rm_lb"] as? Double == 269.5)
        #expect(recordsJSON.first?["most_reps_weight_lb"] as? Double == 225)
        let report = run("report", "--output", "-")
        #expect(report.succeeded && report.stdout.contains("Times are local; weights in lb."), "\(report.stderr)")
        #expect(!report.stdout.contains(#/\bkg\b/#), "the report shows kilograms in pounds")
        let edit = run("history", "edit", "1", "--weight", "135")
        #expect(edit.stdout == "set 1 is now Squat 5×135 lb\n", "\(edit)")
        // 2000 lb is 907.18 kg: within what a set may hold, though 2000 kg would not be.
        #expect(run("history", "edit", "1", "--weight", "2000").succeeded)
        let heavy = run("history", "edit", "1", "--weight", "2300")
        #expect(
            heavy.status == 64 && heavy.stderr.hasPrefix("restctl: --weight 2300 (1043.26 kg) is out of range"),
            "\(heavy)")
    }
}
