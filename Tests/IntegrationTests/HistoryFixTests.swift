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
}
