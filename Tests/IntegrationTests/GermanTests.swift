import Foundation
import ProcessHarness
import Testing

/// restctl in German, from po/de.po, against the real restd: what a person reads is German, what
/// a script reads (--json) is the same in every language.
@Suite("restctl in German", .serialized, .tags(.calendar))
struct GermanTests {
    @Test("status, list, set and stats speak German under LANG=de_DE.UTF-8; --json is the same in English")
    func restctlInGerman() throws {
        try German.requireCatalog()
        let daemon = try RunningDaemon()
        // LANG alone chooses (the children's LC_ALL=C.UTF-8 is emptied, which is unset to gettext).
        let inGerman = German.environment.merging(["XDG_CONFIG_HOME": daemon.config.path]) { $1 }
        func german(_ args: String...) -> CommandResult { restctl(daemon.bus, args, environment: inGerman) }
        #expect(daemon.run("start", "90", "--label", "Kniebeuge", "--next", "Bankdrücken").status == 0)
        #expect(daemon.run("pause").status == 0)

        let status = german("status")
        #expect(status.stdout == "default  pausiert    1:30  Kniebeuge · Weiter mit: Bankdrücken\n", "\(status)")
        #expect(
            status.stderr.hasPrefix("restctl: auf dem Sitzungsbus läuft kein Benachrichtigungsdienst"), "\(status)")
        #expect(german("list").stdout == status.stdout)
        // The person's words, never the machine's: the state, as scripts read it, stays "paused".
        for command in [["status", "--json"], ["list", "--json"]] {
            let english = daemon.run(command)
            #expect(english.status == 0 && english.stdout.contains(#""state":"paused""#), "\(english)")
            #expect(restctl(daemon.bus, command, environment: inGerman).stdout == english.stdout)
        }

        let set = german("set", "--exercise", "Kniebeuge", "--reps", "5", "--weight", "62.5")
        #expect(set.status == 0, "\(set)")
        #expect(set.stdout.contains("\nerfasst: Kniebeuge 5×62,5 kg\n"), "\(set)")
        // A decimal comma is a German's way of typing 62.5; the dot still works, and English refuses the comma.
        let comma = german("set", "--exercise", "Kniebeuge", "--reps", "5", "--weight", "62,5")
        #expect(comma.status == 0 && comma.stdout.contains("\nerfasst: Kniebeuge 5×62,5 kg\n"), "\(comma)")
        #expect(daemon.run("set", "--exercise", "Kniebeuge", "--weight", "62,5").status == 64)
        let stats = german("stats")
        #expect(stats.stdout.hasPrefix("Übung      Sätze  Pausen  übersprungen"), "\(stats)")
        #expect(stats.stdout.contains("\nKniebeuge "), "\(stats)")
        #expect(german("stats", "--json").stdout == daemon.run("stats", "--json").stdout)

        // LC_ALL wins over LANG, as for every gettext program.
        let english = restctl(daemon.bus, ["status"], environment: ["LANG": German.locale, "LC_ALL": "C.UTF-8"])
        #expect(english.stdout.hasPrefix("default  running"), "\(english)")
    }
}
